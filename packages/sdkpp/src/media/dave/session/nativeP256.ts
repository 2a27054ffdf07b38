import { p256Scalar32, type P256Primitives } from '@sdkpp/protocol/dave';

import { loadNativeAddon } from '../../addon/loader.js';

let primitives: P256Primitives | null | undefined;

/**
 * The native addon's P-256 as the MLS cipher suite's primitives, or undefined when the addon is not built or
 * its libcrypto has no EC (the session then stays on node:crypto). Each operation is two to three times
 * faster than node:crypto's on Node 20-24 (mostly because no key is imported per call), which is most of the
 * cryptography in a commit. Looked up once per process.
 */
export function nativeP256(): P256Primitives | undefined {
  if (primitives === undefined) primitives = lookUp() ?? null;
  return primitives ?? undefined;
}

function lookUp(): P256Primitives | undefined {
  const loaded = loadNativeAddon();
  if (!loaded.ok) return undefined;
  const { p256Sign, p256Verify, p256SharedSecret, p256Generate, p256PublicPoint } = loaded.addon;
  if (!p256Sign || !p256Verify || !p256SharedSecret || !p256Generate || !p256PublicPoint) return undefined;
  return {
    sign: (scalar, message) => p256Sign(p256Scalar32(scalar), message),
    verify: p256Verify,
    sharedSecret: (scalar, point) => p256SharedSecret(p256Scalar32(scalar), point),
    generate: () => {
      const [scalar, point] = p256Generate();
      return { scalar, point };
    },
    publicPoint: (scalar) => p256PublicPoint(p256Scalar32(scalar)),
  };
}
