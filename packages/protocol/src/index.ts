/**
 * `@sdkpp/protocol`: what the SDK and the emulator both speak. The wire formats (the gateway's and the voice
 * gateway's opcodes and close codes, the desktop client's frames and socket paths, signed requests, launch
 * commands, WAV files), DAVE's wire codecs and its MLS glue over a patched ts-mls, and the small base both
 * stand on: the error family, the clock seam, typed events, bounded JSON and bounded request bodies.
 *
 * A game does not import this package: `sdkpp` re-exports what its API shows (the error family).
 */
export * from './errors/index.js';
export * from './base/Clock.js';
export * from './base/TypedEmitter.js';
export * from './base/withSignal.js';
export * from './base/boundedJson.js';
export * from './base/readBody.js';
export * from './base/mutable.js';
export * from './base/packageRoot.js';
export * from './gateway.js';
export * from './voiceGateway.js';
export * from './rpcFrame.js';
export * from './rpcPaths.js';
export * from './launchRegistry.js';
export * from './signedRequests.js';
export * from './wav.js';
export * from './base/didYouMean.js';
