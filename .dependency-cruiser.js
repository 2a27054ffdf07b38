/**
 * The import rules of src/ and bindings/, checked by dependency-cruiser in `npm run lint`
 * (`npm run lint:deps` alone). Type-only imports count: a cycle through `import type` is still a cycle a
 * reader has to untangle.
 *
 * To add a layer, add one entry to LAYERS: the folder (a path regex), and either what it may import of src/
 * (`mayImport`, its own folder always allowed) or who may import it (`importedOnlyBy`). Each entry becomes one
 * rule named after it.
 */

/**
 * @typedef {object} Layer
 * @property {string} name the rule's name
 * @property {string} comment why the rule holds, shown with each violation
 * @property {string} path the layer's files (a regex on the path from the repository root)
 * @property {string[]} [mayImport] what else of src/ the layer may import
 * @property {string[]} [importedOnlyBy] the only files, besides its own, that may import the layer
 */

/** @type {Layer[]} */
const LAYERS = [
  {
    name: 'emulator-imports-only-protocol',
    comment:
      'The emulator is the platform, not a client: it shares the wire layer (src/protocol/), the generic ' +
      'helpers (src/util/) and the media engine as a library (src/media/index.ts), and nothing else of the SDK.',
    path: '^src/emulator/',
    mayImport: ['^src/protocol/', '^src/util/', '^src/media/index\\.ts$'],
  },
  {
    name: 'client-imported-only-by-facade',
    comment:
      'src/client/ is the facade on top of the features: only the package entry (src/index.ts) and the ' +
      'SDK-shaped bindings/ stand above it. A feature that needs something of it wants it moved below.',
    path: '^src/client/',
    importedOnlyBy: ['^src/index\\.ts$', '^bindings/'],
  },
  {
    name: 'bindings-through-public-entry',
    comment:
      'bindings/ is a layer over the public API (src/index.ts). Two exceptions: src/util/ (generic helpers) ' +
      "and src/social/UserStore.ts (the store behind a handle over the desktop client's user, bindings/Client.ts).",
    path: '^bindings/',
    mayImport: ['^src/index\\.ts$', '^src/util/', '^src/social/UserStore\\.ts$'],
  },
];

/**
 * The floors of the SDK, bottom first. A floor may import its own and the floors below, never one above:
 * that is what keeps a change near the bottom from pulling in the whole house. The emulator and bindings/
 * have their own rules (LAYERS).
 */
const FLOORS = [
  { name: 'base', path: '^src/(util|errors|logging)/', what: 'generic helpers, the error family, logging' },
  { name: 'protocol', path: '^src/protocol/', what: 'the wire formats the SDK and the emulator share' },
  { name: 'media', path: '^src/media/', what: 'the media engine package (codecs, DAVE frames, transport)' },
  {
    name: 'transports',
    path: '^src/(rest|gateway|rpc|auth|session)/',
    what: 'HTTP, the main gateway, the desktop client, account linking and the session context features use',
  },
  {
    name: 'features',
    path: '^src/(social|chat|lobbies|invites|guilds|presence|voice)/',
    what: 'one folder per area of the API, each built on a session context',
  },
  { name: 'client', path: '^src/client/', what: 'the Client facade and its composition root' },
  {
    name: 'entries',
    path: '^src/(index\\.ts|backend/|cli\\.ts)',
    what: 'the package entries: sdkpp, sdkpp/backend, the command line',
  },
];

/** @param {number} index */
function floorRule(index) {
  const floor = FLOORS[index];
  const above = FLOORS.slice(index + 1).map((f) => f.path);
  return {
    name: `floor-${floor.name}`,
    severity: 'error',
    comment: `${floor.what}: imports only its own floor and those below (${FLOORS.slice(0, index + 1)
      .map((f) => f.name)
      .join(', ')}), never ${FLOORS.slice(index + 1)
      .map((f) => f.name)
      .join(', ')}.`,
    from: { path: floor.path },
    to: { path: above.length > 0 ? above : ['^$'] },
  };
}

/** @param {Layer} layer */
function layerRule(layer) {
  if (layer.mayImport)
    return {
      name: layer.name,
      severity: 'error',
      comment: layer.comment,
      from: { path: layer.path },
      to: { path: '^src/', pathNot: [layer.path, ...layer.mayImport] },
    };
  return {
    name: layer.name,
    severity: 'error',
    comment: layer.comment,
    from: { path: '^(src|bindings)/', pathNot: [layer.path, ...layer.importedOnlyBy] },
    to: { path: layer.path },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles in src/ or bindings/, type-only imports included: a cycle means two modules cannot ' +
        'be read, tested or moved one without the other. Break it with a file below both, or one file for a ' +
        'pair that is really one unit.',
      from: { path: '^(src|bindings)/' },
      to: { circular: true },
    },
    {
      name: 'media-through-its-entry',
      severity: 'error',
      comment:
        'src/media/ is one package: the rest of the SDK (and the emulator) uses it through src/media/index.ts, ' +
        'so its insides (engines, addon loader, typings) can change without touching its users.',
      from: { path: '^(src|bindings)/', pathNot: '^src/media/' },
      to: { path: '^src/media/', pathNot: '^src/media/index\\.ts$' },
    },
    {
      name: 'src-not-to-bindings',
      severity: 'error',
      comment: 'bindings/ is built on src/, never the other way round.',
      from: { path: '^src/' },
      to: { path: '^bindings/' },
    },
    ...LAYERS.map(layerRule),
    ...FLOORS.slice(0, -1).map((_, index) => floorRule(index)),
  ],
  options: {
    includeOnly: '^(src|bindings)/',
    tsPreCompilationDeps: true,
    // Resolves imports as tsc does (NodeNext: `./x.js` is `./x.ts`).
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
