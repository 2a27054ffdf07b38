// Jitsi's RNNoise build ships no types; the voice processing bench types what it uses.
declare module '@jitsi/rnnoise-wasm/dist/rnnoise-sync.js';
