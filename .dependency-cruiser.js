/**
 * The import rules of the three packages (packages/protocol, packages/sdkpp, packages/emulator), checked by
 * dependency-cruiser in `npm run lint`
 * (`npm run lint:deps` alone). Type-only imports count: a cycle through `import type` is still a cycle a
 * reader has to untangle.
 *
 * To add a layer, add one entry to LAYERS: the folder (a path regex), and either what it may import of src/
 * (`mayImport`, its own folder always allowed) or who may import it (`importedOnlyBy`). Each entry becomes one
 * rule named after it. A folder of the emulator goes on one of its floors (EMULATOR_FLOORS).
 */

/** Where each package's sources are, as path regexes from the repository root. */
const SDK = '^packages/sdkpp/src/';
const BINDINGS = '^packages/sdkpp/bindings/';
const PROTOCOL = '^packages/protocol/src/';
const EMULATOR = '^packages/emulator/src/';
/** Every package's sources. */
const SOURCES = '^packages/[^/]+/(src|bindings)/';

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
    name: 'client-imported-only-by-facade',
    comment:
      'src/client/ is the facade on top of the features: only the package entry (src/index.ts) and the ' +
      'SDK-shaped bindings/ stand above it. A feature that needs something of it wants it moved below.',
    path: `${SDK}client/`,
    importedOnlyBy: [`${SDK}index\\.ts$`, BINDINGS],
  },
  {
    name: 'bindings-through-public-entry',
    comment:
      'bindings/ is a layer over the public API (src/index.ts). Three exceptions: src/util/ and @sdkpp/protocol ' +
      "(generic helpers) and src/social/UserStore.ts (the store behind a handle over the desktop client's user, " +
      'bindings/Client.ts).',
    path: BINDINGS,
    mayImport: [`${SDK}index\\.ts$`, `${SDK}util/`, `${PROTOCOL}index\\.ts$`, `${SDK}social/UserStore\\.ts$`],
  },
];

/**
 * How the packages meet: through their public entries only, and downwards only (protocol ← sdkpp ← emulator).
 * @type {import('dependency-cruiser').IForbiddenRuleType[]}
 */
const PACKAGE_RULES = [
  {
    name: 'protocol-stands-alone',
    severity: 'error',
    comment: '@sdkpp/protocol is what both halves stand on: it imports nothing of the SDK or the emulator.',
    from: { path: PROTOCOL },
    to: { path: SOURCES, pathNot: PROTOCOL },
  },
  {
    name: 'protocol-through-its-entry',
    severity: 'error',
    comment:
      'The other packages use @sdkpp/protocol by its name (its index.ts), as a published package is used.',
    from: { path: SOURCES, pathNot: PROTOCOL },
    to: { path: PROTOCOL, pathNot: `${PROTOCOL}(dave/)?index\\.ts$` },
  },
  {
    name: 'sdk-without-emulator',
    severity: 'error',
    comment:
      'A game ships sdkpp and not the emulator: nothing of sdkpp imports @sdkpp/emulator (`sdkpp emulator` ' +
      'finds it at run time, src/cli.ts).',
    from: { path: '^packages/sdkpp/' },
    to: { path: EMULATOR },
  },
  {
    name: 'emulator-through-sdk-media-and-voice',
    severity: 'error',
    comment:
      'The emulator is the platform, not a client: of the SDK it uses the media engine (sdkpp/media, ' +
      'src/media/index.ts) and, for the chat-app users it puts in voice channels, one voice connection ' +
      '(sdkpp/voice, src/voice/index.ts), each by its public entry.',
    from: { path: EMULATOR },
    to: { path: '^packages/sdkpp/', pathNot: `${SDK}(media|voice)/index\\.ts$` },
  },
];

/**
 * The floors of the SDK, bottom first. A floor may import its own and the floors below, never one above:
 * that is what keeps a change near the bottom from pulling in the whole house. @sdkpp/protocol is below them all
 * (PACKAGE_RULES); bindings/ has its own rules (LAYERS).
 */
const FLOORS = [
  { name: 'base', path: `${SDK}(util|logging)/`, what: 'generic helpers and logging' },
  { name: 'media', path: `${SDK}media/`, what: 'the media engine (codecs, DAVE frames, transport)' },
  {
    name: 'transports',
    path: `${SDK}(rest|gateway|rpc|auth|session)/`,
    what: 'HTTP, the main gateway, the desktop client, account linking and the session context features use',
  },
  {
    name: 'features',
    path: `${SDK}(social|chat|lobbies|invites|guilds|presence|voice)/`,
    what: 'one folder per area of the API, each built on a session context',
  },
  { name: 'client', path: `${SDK}client/`, what: 'the Client facade and its composition root' },
  {
    name: 'entries',
    path: `${SDK}(index\\.ts|backend/|cli\\.ts)`,
    what: 'the package entries: sdkpp, sdkpp/backend, the command line',
  },
];

/**
 * @typedef {object} EmulatorFloor
 * @property {string} name the floor's rules are named after it
 * @property {string} what what stands on it, shown with each violation
 * @property {string[]} parts its folders (`x/`) and files (`x\\.ts$`), as regexes under EMULATOR; they
 *   stand side by side: none of them imports another
 */

/**
 * The floors inside the emulator, bottom first. A floor imports only its own and the floors below: the
 * platform's vocabulary knows no record, the records know no service, the services know no protocol face, and
 * the faces know no entry. That is what lets a service be read and tested without the routes that call it, and
 * keeps the house free of loops a reader has to untangle. The parts of one floor stand side by side (none
 * imports another), so every import inside the emulator either stays in its folder or goes down.
 *
 * So a service names the services it uses (a `Deps` interface), never the context that holds them all; a face
 * calls services and listens to their events; an error a service throws (platform/errors.ts) lives below the
 * faces that render it; and a helper that several floors need lives on the lowest of them.
 *
 * @type {EmulatorFloor[]}
 */
const EMULATOR_FLOORS = [
  {
    name: 'base',
    what:
      "the public types, the log, randomness, snowflakes, the platform's own numbers (platform/: intents, " +
      'permission bits, API errors, voice regions) and TLS (tls/: the local certificate authority, one port for ' +
      'ws:// and wss://)',
    parts: ['types\\.ts$', 'log\\.ts$', 'random\\.ts$', 'snowflake\\.ts$', 'platform/', 'tls/'],
  },
  {
    name: 'data',
    what:
      "the world's records (store/: schema, saved states, the application's key and flags) and the checks of what " +
      'a client sends (bodies/)',
    parts: ['store/', 'bodies/'],
  },
  {
    name: 'oauth',
    what: 'OAuth2 pieces: PKCE, CSRF, redirect URIs, ID tokens, external identities',
    parts: ['oauth/'],
  },
  { name: 'accounts', what: 'users, tokens, identities and the wire user object', parts: ['accounts/'] },
  {
    name: 'realtime',
    what: "the sessions the services push events to: the main gateway's (gateway/) and the voice server (voice/)",
    parts: ['gateway/', 'voice/'],
  },
  {
    name: 'social',
    what:
      'the social graph, guilds, messages and lobbies (social/), and the Activity instances and URL mappings ' +
      '(activities/)',
    parts: ['social/', 'activities/'],
  },
  {
    name: 'delivery',
    what: 'what the services tell the app: guild events to bot sessions (bot/), signed webhook events (webhooks/)',
    parts: ['bot/', 'webhooks/'],
  },
  {
    name: 'app-features',
    what:
      "the app's own features, delivered through both: SKUs and entitlements (premium/), commands and " +
      'interactions (interactions/)',
    parts: ['premium/', 'interactions/'],
  },
  {
    name: 'context',
    what: "context.ts: one emulator's services, as the faces receive them",
    parts: ['context\\.ts$'],
  },
  {
    name: 'faces',
    what:
      "the faces that speak protocols over the context (http/: REST and OAuth pages; localClient/: the desktop client's " +
      'RPC) and the admin hook table (hooks/), which only the dashboard and the CLI above read',
    parts: ['http/', 'localClient/', 'hooks/'],
  },
  {
    name: 'composite-faces',
    what:
      "faces built on faces: the Activity host (activityHost/, on the desktop client's commands) and the dashboard " +
      '(dashboard/, on the HTTP plumbing and the hooks)',
    parts: ['activityHost/', 'dashboard/'],
  },
  {
    name: 'testing',
    what: 'the public test helpers (testing/), exported by index.ts: no part of the platform stands on them',
    parts: ['testing/'],
  },
  {
    name: 'options',
    what: "options.ts: the options resolved, with the faces' own checks (rate limits, URL mappings)",
    parts: ['options\\.ts$'],
  },
  {
    name: 'assembly',
    what: "Emulator.ts, which builds the emulator from all below, and the command line's pieces (cli/)",
    parts: ['Emulator\\.ts$', 'cli/'],
  },
  {
    name: 'entries',
    what: 'the package entry (index.ts) and the command line (cli.ts)',
    parts: ['index\\.ts$', 'cli\\.ts$'],
  },
];

/** The regex of a floor's parts, the part captured as $1 (dependency-cruiser's group matching). */
function floorPath(/** @type {EmulatorFloor} */ floor) {
  return `${EMULATOR}(${floor.parts.join('|')})`;
}

/** A part as a reader names it: `x/` or `x.ts`. */
function partName(/** @type {string} */ part) {
  return part.replaceAll('\\.', '.').replace(/\$$/, '');
}

/** @param {EmulatorFloor} floor */
function emulatorSideBySideRule(floor) {
  return {
    name: `emulator-floor-${floor.name}-side-by-side`,
    severity: 'error',
    comment:
      `${floor.parts.map(partName).join(', ')} stand side by side on the floor ${floor.name}: none imports another. What two ` +
      'of them share moves down to a floor below both; one that needs the other stands on a floor above it.',
    from: { path: floorPath(floor) },
    to: { path: floorPath(floor), pathNot: `${EMULATOR}$1` },
  };
}

/**
 * One rule for each floor but the top one: it imports only its own floor and those below.
 *
 * @template {{ name: string, what: string }} F
 * @param {F[]} floors bottom first
 * @param {(floor: F) => string} pathOf the regex of a floor's files
 * @param {string} prefix of the rules' names
 */
function floorRules(floors, pathOf, prefix) {
  return floors.slice(0, -1).map((floor, index) => {
    const above = floors.slice(index + 1);
    return {
      name: `${prefix}${floor.name}`,
      severity: 'error',
      comment: `${floor.what}: imports only its own floor and those below (${floors
        .slice(0, index + 1)
        .map((f) => f.name)
        .join(', ')}), never ${above.map((f) => f.name).join(', ')}.`,
      from: { path: pathOf(floor) },
      to: { path: above.map(pathOf) },
    };
  });
}

/** @param {Layer} layer */
function layerRule(layer) {
  if (layer.mayImport)
    return {
      name: layer.name,
      severity: 'error',
      comment: layer.comment,
      from: { path: layer.path },
      to: { path: SOURCES, pathNot: [layer.path, ...layer.mayImport] },
    };
  return {
    name: layer.name,
    severity: 'error',
    comment: layer.comment,
    from: { path: SOURCES, pathNot: [layer.path, ...layer.importedOnlyBy] },
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
        'No import cycles in any package, type-only imports included: a cycle means two modules cannot ' +
        'be read, tested or moved one without the other. Break it with a file below both, or one file for a ' +
        'pair that is really one unit.',
      from: { path: SOURCES },
      to: { circular: true },
    },
    ...PACKAGE_RULES,
    {
      name: 'media-through-its-entry',
      severity: 'error',
      comment:
        'src/media/ is one package (sdkpp/media): the rest of the SDK and the emulator use it through ' +
        'src/media/index.ts, so its insides (engines, addon loader, typings) can change without touching its users.',
      from: { path: SOURCES, pathNot: `${SDK}media/` },
      to: { path: `${SDK}media/`, pathNot: `${SDK}media/index\\.ts$` },
    },
    {
      name: 'src-not-to-bindings',
      severity: 'error',
      comment: 'bindings/ is built on src/, never the other way round.',
      from: { path: SDK },
      to: { path: BINDINGS },
    },
    ...LAYERS.map(layerRule),
    ...floorRules(FLOORS, (floor) => floor.path, 'floor-'),
    ...floorRules(EMULATOR_FLOORS, floorPath, 'emulator-floor-'),
    ...EMULATOR_FLOORS.filter((floor) => floor.parts.length > 1).map(emulatorSideBySideRule),
  ],
  options: {
    includeOnly: SOURCES,
    tsPreCompilationDeps: true,
    // Resolves imports as tsc does (NodeNext: `./x.js` is `./x.ts`).
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
