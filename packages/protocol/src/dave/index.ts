/**
 * `@sdkpp/protocol/dave`: DAVE's MLS wire codecs (the binary voice gateway frames) and the MLS glue over sdkpp's
 * patched ts-mls (cipher suite 2 on node:crypto, the per-epoch sender keys). An entry of its own so that the
 * declarations of `@sdkpp/protocol` never reach ts-mls's, which need the DOM library.
 */
export * from './wire.js';
export * from './senderKeys.js';
export * from './tsMls.js';
export * from './p256.js';
export * from './nodeP256.js';
export * from './nodeHpke.js';
