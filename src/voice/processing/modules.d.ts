// RNNoise's WebAssembly build ships no types: wasmModules.ts types what it uses.
declare module '@echogarden/rnnoise-wasm';
