import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { CiphersuiteImpl } from 'ts-mls';

import { findPackageRoot } from '../base/packageRoot.js';
import { hpkeP256, nodeHpkeP256 } from './nodeHpke.js';
import { nodeHkdfSha256, nodeP256Signature, nodeSha256, sessionP256Signature } from './nodeP256.js';
import { p256Signature, type P256Primitives } from './p256.js';

/** The ts-mls module namespace (sdkpp's patched copy of ts-mls 2.0.0-rc.10). */
export type TsMls = typeof import('ts-mls');

/** What scripts/patch-ts-mls.mjs exports (it is plain JS, so its shape is written down here). */
interface PatchScript {
  ensurePatchedTsMls: (options: { packageRoot: string; force?: boolean }) => string;
}

let loading: Promise<TsMls> | undefined;

/**
 * Imports sdkpp's patched copy of ts-mls, which the install script writes into
 * `node_modules/.sdkpp-ts-mls/` of the @sdkpp/protocol package (see scripts/patch-ts-mls.mjs for the two interop
 * patches and why). When the copy is missing (installed with `--ignore-scripts`, or a fresh checkout), it is
 * built here on first use by the same script. Rejects with the script's explanation when ts-mls is not the
 * version the patches were written for; never falls back to the unpatched ts-mls, which cannot share a
 * group with libdave or davey.
 */
export function loadTsMls(): Promise<TsMls> {
  loading ??= (async () => {
    const packageRoot = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)), '@sdkpp/protocol');
    if (packageRoot === undefined)
      throw new Error('sdkpp: cannot find the @sdkpp/protocol package folder for ts-mls');
    const script = path.join(packageRoot, 'scripts', 'patch-ts-mls.mjs');
    if (!existsSync(script)) throw new Error(`sdkpp: ${script} is missing; reinstall @sdkpp/protocol`);
    const { ensurePatchedTsMls } = (await import(pathToFileURL(script).href)) as PatchScript;
    const entry = ensurePatchedTsMls({ packageRoot });
    return (await import(pathToFileURL(entry).href)) as TsMls;
  })();
  loading.catch(() => {
    loading = undefined; // let a later call retry (e.g. after the user fixed the install)
  });
  return loading;
}

let suite: Promise<CiphersuiteImpl> | undefined;

/**
 * DAVE's MLS cipher suite 2 (`MLS_128_DHKEMP256_AES128GCM_SHA256_P256`) for ts-mls, with every primitive
 * done synchronously by node:crypto (OpenSSL) instead of ts-mls's defaults: P-256 ECDSA (@noble/curves in JS:
 * 0.7 ms per signature and 2.8 ms per verification, against 0.03 and 0.07 ms), SHA-256/HMAC/HKDF (WebCrypto:
 * an asynchronous thread-pool hop per call) and HPKE (@hpke/core: 2 ms per seal or open). ts-mls's own
 * implementation object only supplies the remaining field (`rng`) and the suite id. Each call gives a new
 * object for one session: its signature checker remembers what it verified (see sessionP256Signature).
 *
 * With `p256`, the P-256 steps (signatures and HPKE's key agreement) run on those primitives instead (the
 * sdkpp addon's: OpenSSL's EC methods without node:crypto's per-call key import, 2-3 times faster each).
 */
export async function daveCipherSuite(p256?: P256Primitives): Promise<CiphersuiteImpl> {
  const shared = await sharedSuite();
  if (!p256) return { ...shared, signature: sessionP256Signature() };
  let hpke = hpkeOn.get(p256);
  if (!hpke) {
    hpke = hpkeP256(p256);
    hpkeOn.set(p256, hpke);
  }
  return { ...shared, hpke, signature: sessionP256Signature(p256Signature(p256)) };
}

/** The HPKE of each set of primitives given to daveCipherSuite (one, in practice: the addon's). */
const hpkeOn = new WeakMap<P256Primitives, CiphersuiteImpl['hpke']>();

function sharedSuite(): Promise<CiphersuiteImpl> {
  suite ??= (async () => {
    const mls = await loadTsMls();
    const base = await mls.getCiphersuiteImpl('MLS_128_DHKEMP256_AES128GCM_SHA256_P256');
    return {
      ...base,
      signature: nodeP256Signature,
      hash: nodeSha256,
      kdf: nodeHkdfSha256,
      hpke: nodeHpkeP256,
    };
  })();
  suite.catch(() => {
    suite = undefined;
  });
  return suite;
}
