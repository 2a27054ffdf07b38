#!/usr/bin/env node
// Writes sdkpp's patched copy of ts-mls 2.0.0-rc.10 (the newest ts-mls on the registry we use) into
// node_modules/.sdkpp-ts-mls/<version>-<patch set>/ inside the @sdkpp/protocol package, and nothing else. ts-mls
// itself stays untouched; src/dave/tsMls.ts imports the copy at run time (and calls this file's
// `ensurePatchedTsMls` to build it on first use when the install script did not run, e.g. under
// `npm install --ignore-scripts`).
//
// Why a copy: rc.10 has two interop bugs that stop DAVE groups with libdave/davey members from working
// (docs: ../shared/reference/dave-e2ee.md §3.2), both fixed upstream in releases not on the registry:
//   1. the external_senders group-context extension is encoded as one ExternalSender instead of RFC 9420's
//      vector `ExternalSender external_senders<V>` (upstream rc.12): davey cannot read our GroupInfo and
//      ts-mls cannot read theirs;
//   2. `needsUpdatePath` needs more than one Remove/Update before it adds an UpdatePath (upstream rc.11),
//      so a commit removing one member carries no path and openmls refuses it.
// The other patches are for speed alone (issues 18 and 35): a signed leaf node is encoded once, and a
// subtree's tree hash is kept while the subtree is unchanged (together a commit at 100 members from about 10
// to 5 ms); the encoders write through one byte view per output buffer instead of a new one per field, the
// KDF labels are encoded once, and secrets are zeroed without first being filled with random bytes. The
// outputs are byte for byte the same, which the interop tests against davey check.
// Each text replacement below must match exactly once (or exactly `count` times); the ts-mls version must be
// the one it was written for. The copy lives under node_modules so that ts-mls's own dependencies (@hpke/core, @noble/*) resolve
// from it by Node's normal lookup, and so that git, eslint and prettier never see it.
//
// Failure policy:
//   - In the sdkpp repository (no `node_modules` segment in its path): a patch that no longer applies is an
//     error with a clear message and exit code 1, so `npm install` fails loudly and the developer fixes the
//     patch before anything is committed on top of a broken MLS layer.
//   - As a dependency of an application: the same message as a warning, exit code 0. Failing the app's
//     whole install for a feature it may never use (voice E2EE) would be worse; DAVE then fails at its
//     first use with the same explanation (src/dave/tsMls.ts), never silently.
//
//   node scripts/patch-ts-mls.mjs           the install script (policy above)
//   node scripts/patch-ts-mls.mjs --force   rebuild the copy even if it exists
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The ts-mls version the patches are written for. */
export const TS_MLS_VERSION = '2.0.0-rc.10';

/** Bumped whenever the patch set changes, so an old copy is rebuilt. */
const PATCH_SET = 'p5';

/**
 * Each entry: a file under ts-mls's `dist/src`, and the exact rc.10 text with our replacement; `count` is how
 * many times the text occurs (each is replaced), 1 when absent.
 * @type {readonly { file: string; why: string; from: string; to: string; count?: number }[]}
 */
const PATCHES = [
  {
    file: 'extension.js',
    why: 'external_senders is a vector (RFC 9420 §12.1.8.1)',
    from: 'import { varLenDataDecoder, varLenDataEncoder } from "./codec/variableLength.js";',
    to: 'import { varLenDataDecoder, varLenDataEncoder, varLenTypeDecoder, varLenTypeEncoder } from "./codec/variableLength.js";',
  },
  {
    file: 'extension.js',
    why: 'external_senders is a vector (encoder)',
    from: 'return [e.extensionType, encode(externalSenderEncoder, e.extensionData)];',
    to: 'return [e.extensionType, encode(varLenTypeEncoder(externalSenderEncoder), [e.extensionData])];',
  },
  {
    file: 'extension.js',
    // ts-mls keeps one sender per extension; this copy only serves DAVE, whose groups must hold exactly one
    // (dave-e2ee.md §1.6), so any other count is a decoding failure rather than a silently dropped sender.
    why: 'external_senders is a vector (decoder; exactly one sender, as DAVE requires)',
    from: 'const res = decode(externalSenderDecoder, extensionData);',
    to: 'const all = decode(varLenTypeDecoder(externalSenderDecoder), extensionData);\n            const res = all?.length === 1 ? all[0] : undefined;',
  },
  {
    file: 'clientState.js',
    why: 'one Update or Remove already needs an UpdatePath (RFC 9420 §12.4)',
    from:
      'Object.values(grouped[defaultProposalTypes.update]).length > 1 ||\n' +
      '            Object.values(grouped[defaultProposalTypes.remove]).length > 1;',
    to:
      'Object.values(grouped[defaultProposalTypes.update]).length > 0 ||\n' +
      '            Object.values(grouped[defaultProposalTypes.remove]).length > 0;',
  },
  {
    file: 'leafNode.js',
    // Speed, not interop (issue 18): a leaf node is encoded again for every tree hash, ratchet tree and key
    // package that holds it, hundreds of times per commit at 100 members. Leaf nodes are never changed after
    // they are signed (ts-mls replaces a changed leaf with a new object), so the bytes are kept per object.
    why: 'a signed leaf node is encoded once (speed)',
    from: 'export const leafNodeEncoder = contramapBufferEncoders([leafNodeDataEncoder, leafNodeInfoOmittedEncoder, varLenDataEncoder], (leafNode) => [leafNode, leafNode, leafNode.signature]);',
    to: `const sdkppLeafNodeEncoder = contramapBufferEncoders([leafNodeDataEncoder, leafNodeInfoOmittedEncoder, varLenDataEncoder], (leafNode) => [leafNode, leafNode, leafNode.signature]);
const sdkppLeafNodeBytes = new WeakMap();
export const leafNodeEncoder = (leafNode) => {
    let bytes = sdkppLeafNodeBytes.get(leafNode);
    if (bytes === undefined) {
        bytes = encode(sdkppLeafNodeEncoder, leafNode);
        sdkppLeafNodeBytes.set(leafNode, bytes);
    }
    return [bytes.length, (offset, buffer) => sdkppBytesOf(buffer).set(bytes, offset)];
};`,
  },
  {
    file: 'leafNode.js',
    why: 'a signed leaf node is encoded once (speed; the shared byte view)',
    from: 'import { contramapBufferEncoders, encode } from "./codec/tlsEncoder.js";',
    to: 'import { contramapBufferEncoders, encode, sdkppBytesOf } from "./codec/tlsEncoder.js";',
  },
  {
    file: 'codec/tlsEncoder.js',
    // Speed, not interop (issue 35): every field's write made a new Uint8Array or DataView of the whole output
    // buffer, thousands per commit, a sixth of a commit's time with the garbage they leave. The writes now
    // share one view of each kind for the buffer being written, dropped when encode() returns so no output
    // (some hold secrets) is kept alive by the cache.
    why: 'one byte view per output buffer (speed)',
    from: `export function encode(enc, t) {
    const [len, write] = enc(t);
    const buf = new ArrayBuffer(len);
    write(0, buf);
    return new Uint8Array(buf);
}`,
    to: `let sdkppBuffer;
let sdkppBytes;
let sdkppView;
function sdkppForget() {
    sdkppBuffer = undefined;
    sdkppBytes = undefined;
    sdkppView = undefined;
}
export function sdkppBytesOf(buffer) {
    if (buffer !== sdkppBuffer) {
        sdkppForget();
        sdkppBuffer = buffer;
    }
    return (sdkppBytes ??= new Uint8Array(buffer));
}
export function sdkppViewOf(buffer) {
    if (buffer !== sdkppBuffer) {
        sdkppForget();
        sdkppBuffer = buffer;
    }
    return (sdkppView ??= new DataView(buffer));
}
export function encode(enc, t) {
    const [len, write] = enc(t);
    const buf = new ArrayBuffer(len);
    try {
        write(0, buf);
    }
    finally {
        sdkppForget();
    }
    return new Uint8Array(buf);
}`,
  },
  {
    file: 'codec/number.js',
    why: 'one byte view per output buffer (import)',
    from: 'export const uint8Encoder = (n) => [',
    to: 'import { sdkppViewOf } from "./tlsEncoder.js";\nexport const uint8Encoder = (n) => [',
  },
  {
    file: 'codec/number.js',
    why: 'one byte view per output buffer (integers)',
    from: 'const view = new DataView(buffer);',
    to: 'const view = sdkppViewOf(buffer);',
    count: 4,
  },
  {
    file: 'codec/optional.js',
    why: 'one byte view per output buffer (import)',
    from: 'import { uint8Decoder } from "./number.js";',
    to: 'import { uint8Decoder } from "./number.js";\nimport { sdkppViewOf } from "./tlsEncoder.js";',
  },
  {
    file: 'codec/optional.js',
    why: 'one byte view per output buffer (presence byte)',
    from: 'const view = new DataView(buffer);',
    to: 'const view = sdkppViewOf(buffer);',
    count: 2,
  },
  {
    file: 'codec/variableLength.js',
    why: 'one byte view per output buffer (import)',
    from: 'import { contramapBufferEncoder, contramapBufferEncoders } from "./tlsEncoder.js";',
    to: 'import { contramapBufferEncoder, contramapBufferEncoders, sdkppBytesOf } from "./tlsEncoder.js";',
  },
  {
    file: 'codec/variableLength.js',
    why: 'one byte view per output buffer (lengths and opaque data)',
    from: 'const view = new Uint8Array(buffer);',
    to: 'const view = sdkppBytesOf(buffer);',
    count: 4,
  },
  {
    file: 'crypto/kdf.js',
    // Speed (issue 35): the KDFLabel encoder was composed and the label text encoded on every call, dozens of
    // times per commit; both are now made once (labels are the protocol's fixed strings).
    why: 'KDF labels encoded once (speed)',
    from: `export function expandWithLabel(secret, label, context, length, kdf) {
    const infoEncoder = composeBufferEncoders([uint16Encoder, varLenDataEncoder, varLenDataEncoder]);
    return kdf.expand(secret, encode(infoEncoder, [length, new TextEncoder().encode(\`MLS 1.0 \${label}\`), context]), length);
}`,
    to: `const sdkppInfoEncoder = composeBufferEncoders([uint16Encoder, varLenDataEncoder, varLenDataEncoder]);
const sdkppLabels = new Map();
export function expandWithLabel(secret, label, context, length, kdf) {
    let labelBytes = sdkppLabels.get(label);
    if (labelBytes === undefined) {
        labelBytes = new TextEncoder().encode(\`MLS 1.0 \${label}\`);
        if (sdkppLabels.size < 256)
            sdkppLabels.set(label, labelBytes);
    }
    return kdf.expand(secret, encode(sdkppInfoEncoder, [length, labelBytes, context]), length);
}`,
  },
  {
    file: 'clientState.js',
    // Speed (issue 35): every commit gathered every secret of the dropped epoch's secret tree into a list,
    // and built a second map, and returned neither (the result is the last epochs' map and an empty list).
    why: 'dropping an old epoch gathers nothing it throws away (speed)',
    from: `function removeOldHistoricalReceiverData(historicalReceiverData, max) {
    const sortedEpochs = [...historicalReceiverData.keys()].sort((a, b) => (a < b ? -1 : 1));
    const cutoff = sortedEpochs.length - max;
    const toBeDeleted = new Array();
    const map = new Map();
    for (const [n, epoch] of sortedEpochs.entries()) {
        const data = historicalReceiverData.get(epoch);
        if (n < cutoff) {
            toBeDeleted.push(...allSecretTreeValues(data.secretTree));
        }
        else {
            map.set(epoch, data);
        }
    }
    return [new Map(sortedEpochs.slice(-max).map((epoch) => [epoch, historicalReceiverData.get(epoch)])), []];
}`,
    to: `function removeOldHistoricalReceiverData(historicalReceiverData, max) {
    const sortedEpochs = [...historicalReceiverData.keys()].sort((a, b) => (a < b ? -1 : 1));
    return [new Map(sortedEpochs.slice(-max).map((epoch) => [epoch, historicalReceiverData.get(epoch)])), []];
}`,
  },
  {
    file: 'clientState.js',
    // Speed (issue 35): a member joining checks every leaf's signature, one after the other, most of a join's
    // time. The checks now all start before the first is awaited, so a signature provider can run them side
    // by side (sdkpp's runs concurrent verifications on libuv's thread pool, src/dave/nodeP256.ts); they are
    // awaited in tree order after the structural checks, and the first failure is returned as before (for a
    // tree that is wrong in two ways, a structural error now wins over a bad signature).
    why: 'leaf signatures of a received tree are checked concurrently (speed: start)',
    from: `export async function validateRatchetTree(tree, groupContext, config, authService, treeHash, cs) {
    const hpkeKeys = new Set();`,
    to: `export async function validateRatchetTree(tree, groupContext, config, authService, treeHash, cs) {
    const sdkppLeafChecks = [];
    const hpkeKeys = new Set();`,
  },
  {
    file: 'clientState.js',
    why: 'leaf signatures of a received tree are checked concurrently (speed: each leaf)',
    from: `            const err = n.leaf.leafNodeSource === leafNodeSources.key_package
                ? await validateLeafNodeKeyPackage(n.leaf, groupContext, false, config, authService, cs.signature)
                : await validateLeafNodeUpdateOrCommit(n.leaf, nodeToLeafIndex(nodeIndex), groupContext, authService, cs.signature);
            if (err !== undefined)
                return err;`,
    to: `            const check = n.leaf.leafNodeSource === leafNodeSources.key_package
                ? validateLeafNodeKeyPackage(n.leaf, groupContext, false, config, authService, cs.signature)
                : validateLeafNodeUpdateOrCommit(n.leaf, nodeToLeafIndex(nodeIndex), groupContext, authService, cs.signature);
            check.catch(() => { }); // awaited below; no unhandled rejection if an earlier return skips it
            sdkppLeafChecks.push(check);`,
  },
  {
    file: 'clientState.js',
    why: 'leaf signatures of a received tree are checked concurrently (speed: results)',
    from: `    const parentHashesVerified = await verifyParentHashes(tree, cs.hash);
    if (!parentHashesVerified)
        return new CryptoVerificationError("Unable to verify parent hash");`,
    to: `    for (const check of sdkppLeafChecks) {
        const err = await check;
        if (err !== undefined)
            return err;
    }
    const parentHashesVerified = await verifyParentHashes(tree, cs.hash);
    if (!parentHashesVerified)
        return new CryptoVerificationError("Unable to verify parent hash");`,
  },
  {
    file: 'clientState.js',
    // Speed (issue 35): a key package's two signatures (its leaf node's and its own) were verified one after
    // the other; both now start together so the signature provider can run them side by side. Which error is
    // returned for a package wrong in both ways is unchanged (the leaf node's first).
    why: "a key package's two signatures are checked concurrently (speed)",
    from: `    const leafNodeError = await validateLeafNodeKeyPackage(kp.leafNode, groupContext, sentByClient, config, authService, s);
    if (leafNodeError !== undefined)
        return leafNodeError;
    const signatureValid = await verifyKeyPackage(kp, s);`,
    to: `    const leafNodeCheck = validateLeafNodeKeyPackage(kp.leafNode, groupContext, sentByClient, config, authService, s);
    const signatureCheck = verifyKeyPackage(kp, s);
    signatureCheck.catch(() => { }); // awaited below; no unhandled rejection if the leaf node check returns first
    const leafNodeError = await leafNodeCheck;
    if (leafNodeError !== undefined)
        return leafNodeError;
    const signatureValid = await signatureCheck;`,
  },
  {
    file: 'util/byteArray.js',
    // Speed (issue 35): the random fill before zeroing is a crypto call per secret; the XOR with itself
    // that followed left zeros anyway, which is what remains.
    why: 'secrets are zeroed without a random fill first (speed)',
    from: `export function zeroOutUint8Array(buf) {
    crypto.getRandomValues(buf);
    for (let i = 0; i < buf.length; i++) {
        buf[i] ^= buf[i];
    }
}`,
    to: `export function zeroOutUint8Array(buf) {
    buf.fill(0);
}`,
  },
  {
    file: 'treeHash.js',
    // Speed, not interop (issue 18): ts-mls hashes the whole tree from scratch several times per commit
    // (the new group context, the parent-hash checks, the Welcome). A subtree's hash is kept by the identity
    // of what it is computed from: the leaf object and leaf index, or the parent node object (or blank) and
    // its children's hashes, which are themselves the kept objects. Tree nodes are replaced, never changed
    // in place, so an unchanged subtree finds its hash without encoding or hashing; WeakMaps let a kept hash
    // go with the last tree that used it.
    why: 'tree hashes are kept per unchanged subtree (speed)',
    from: `export async function treeHash(tree, subtreeIndex, h) {
    if (isLeaf(subtreeIndex)) {
        const leafNode = tree[subtreeIndex];
        if (leafNode?.nodeType === nodeTypes.parent)
            throw new InternalError("Somehow found parent node in leaf position");
        const input = encode(leafNodeHashInputEncoder, {
            nodeType: nodeTypes.leaf,
            leafIndex: nodeToLeafIndex(subtreeIndex),
            leafNode: leafNode?.leaf,
        });
        return await h.digest(input);
    }
    else {
        const parentNode = tree[subtreeIndex];
        if (parentNode?.nodeType === nodeTypes.leaf)
            throw new InternalError("Somehow found leaf node in parent position");
        const leftHash = await treeHash(tree, left(subtreeIndex), h);
        const rightHash = await treeHash(tree, right(subtreeIndex), h);
        const input = {
            nodeType: nodeTypes.parent,
            parentNode: parentNode?.parent,
            leftHash: leftHash,
            rightHash: rightHash,
        };
        return await h.digest(encode(parentNodeHashInputEncoder, input));
    }
}`,
    to: `const sdkppBlank = {};
const sdkppTreeHashes = new WeakMap();
function sdkppRemembered(h, node, a, b) {
    let byNode = sdkppTreeHashes.get(h);
    if (byNode === undefined)
        sdkppTreeHashes.set(h, (byNode = new WeakMap()));
    let byA = byNode.get(node);
    if (byA === undefined)
        byNode.set(node, (byA = new WeakMap()));
    let byB = byA.get(a);
    if (byB === undefined)
        byA.set(a, (byB = new WeakMap()));
    return byB;
}
const sdkppLeafIndexKeys = new Map();
function sdkppLeafIndexKey(leafIndex) {
    let key = sdkppLeafIndexKeys.get(leafIndex);
    if (key === undefined) {
        if (sdkppLeafIndexKeys.size >= 65536)
            sdkppLeafIndexKeys.clear();
        sdkppLeafIndexKeys.set(leafIndex, (key = {}));
    }
    return key;
}
export async function treeHash(tree, subtreeIndex, h) {
    if (isLeaf(subtreeIndex)) {
        const leafNode = tree[subtreeIndex];
        if (leafNode?.nodeType === nodeTypes.parent)
            throw new InternalError("Somehow found parent node in leaf position");
        const leafIndex = nodeToLeafIndex(subtreeIndex);
        const key = sdkppLeafIndexKey(leafIndex);
        const remembered = sdkppRemembered(h, leafNode?.leaf ?? sdkppBlank, key, key);
        const known = remembered.get(key);
        if (known !== undefined)
            return known;
        const input = encode(leafNodeHashInputEncoder, {
            nodeType: nodeTypes.leaf,
            leafIndex,
            leafNode: leafNode?.leaf,
        });
        const hash = await h.digest(input);
        remembered.set(key, hash);
        return hash;
    }
    else {
        const parentNode = tree[subtreeIndex];
        if (parentNode?.nodeType === nodeTypes.leaf)
            throw new InternalError("Somehow found leaf node in parent position");
        const leftHash = await treeHash(tree, left(subtreeIndex), h);
        const rightHash = await treeHash(tree, right(subtreeIndex), h);
        const remembered = sdkppRemembered(h, parentNode?.parent ?? sdkppBlank, leftHash, rightHash);
        const known = remembered.get(rightHash);
        if (known !== undefined)
            return known;
        const input = {
            nodeType: nodeTypes.parent,
            parentNode: parentNode?.parent,
            leftHash: leftHash,
            rightHash: rightHash,
        };
        const hash = await h.digest(encode(parentNodeHashInputEncoder, input));
        remembered.set(rightHash, hash);
        return hash;
    }
}`,
  },
];

/** The error thrown when ts-mls is not the version or text the patches were written for. */
export class TsMlsPatchError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'TsMlsPatchError';
  }
}

/**
 * The installed ts-mls package folder, resolved from `packageRoot` as the package's own imports resolve it.
 * @param {string} packageRoot
 */
function findTsMls(packageRoot) {
  const require = createRequire(path.join(packageRoot, 'package.json'));
  // ts-mls exports only its entry (dist/src/index.js): its root is three levels up.
  return path.resolve(path.dirname(require.resolve('ts-mls')), '..', '..');
}

/**
 * Builds the patched copy if it is missing (or `force`) and returns the path of its entry module.
 * Safe against concurrent callers: the copy is staged under a temporary name and renamed into place.
 * @param {{ packageRoot: string; force?: boolean }} options
 * @returns {string} the absolute path of the patched `dist/src/index.js`
 */
export function ensurePatchedTsMls({ packageRoot, force = false }) {
  const tsMlsRoot = findTsMls(packageRoot);
  const { version } = JSON.parse(readFileSync(path.join(tsMlsRoot, 'package.json'), 'utf8'));
  if (version !== TS_MLS_VERSION) {
    throw new TsMlsPatchError(
      `sdkpp: ts-mls ${version} is installed, but sdkpp's DAVE patches are written for ts-mls ` +
        `${TS_MLS_VERSION}; reinstall sdkpp's pinned ts-mls (and check for an npm override).`,
    );
  }
  const target = path.join(packageRoot, 'node_modules', '.sdkpp-ts-mls', `${version}-${PATCH_SET}`);
  const entry = path.join(target, 'dist', 'src', 'index.js');
  if (existsSync(entry) && !force) return entry;

  const staging = `${target}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    cpSync(path.join(tsMlsRoot, 'dist', 'src'), path.join(staging, 'dist', 'src'), { recursive: true });
    writeFileSync(
      path.join(staging, 'package.json'),
      `${JSON.stringify({ name: 'sdkpp-ts-mls-patched', version, type: 'module', private: true }, null, 2)}\n`,
    );
    const texts = new Map();
    for (const patch of PATCHES) {
      const file = path.join(staging, 'dist', 'src', patch.file);
      const text = texts.get(file) ?? readFileSync(file, 'utf8');
      const found = text.split(patch.from).length - 1;
      const expected = patch.count ?? 1;
      if (found !== expected) {
        throw new TsMlsPatchError(
          `sdkpp: the ts-mls patch "${patch.why}" no longer applies: dist/src/${patch.file} of ts-mls ` +
            `${version} contains the expected text ${found} times, not ${expected}.`,
        );
      }
      texts.set(file, text.split(patch.from).join(patch.to));
    }
    for (const [file, text] of texts) writeFileSync(file, text);
    writeFileSync(
      path.join(staging, 'SDKPP-PATCHES.txt'),
      `ts-mls ${version} (MIT, https://github.com/LukaJCB/ts-mls) with sdkpp's patches:\n` +
        PATCHES.map((p) => `- dist/src/${p.file}: ${p.why}\n`).join(''),
    );
    if (force) rmSync(target, { recursive: true, force: true });
    try {
      renameSync(staging, target);
    } catch (error) {
      // Another process built it at the same time: theirs is as good as ours.
      if (!existsSync(entry)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return entry;
}

/** True when `packageRoot` is a checkout of the sdkpp repository rather than an installed dependency. */
function isRepository(packageRoot) {
  return !packageRoot.split(path.sep).includes('node_modules');
}

const isMain =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  try {
    const entry = ensurePatchedTsMls({ packageRoot, force: process.argv.includes('--force') });
    process.stdout.write(`sdkpp: patched ts-mls ready at ${path.relative(packageRoot, entry)}\n`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isRepository(packageRoot)) {
      process.stderr.write(`${message}\nsdkpp: fix scripts/patch-ts-mls.mjs before going on.\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(
        `${message}\nsdkpp: installing anyway; voice calls with DAVE end-to-end encryption will fail ` +
          'with this message until ts-mls matches.\n',
      );
    }
  }
}
