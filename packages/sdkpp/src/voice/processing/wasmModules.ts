/**
 * The two WebAssembly libraries of the voice processing, loaded on first use: WebRTC's AEC3 echo canceller
 * (`@ennuicastr/webrtcaec3.js`, BSD-3) and RNNoise (`@echogarden/rnnoise-wasm`, BSD-3). Each is compiled
 * once per process and shared by every client.
 */

/** The part of an AEC3 instance the echo canceller uses (48 kHz, mono render and capture). */
export interface Aec3Instance {
  analyze(render: Float32Array[]): void;
  processSize(capture: Float32Array[]): number;
  process(out: Float32Array[], capture: Float32Array[]): void;
  free(): void;
}

/** The AEC3 module: makes instances. */
export interface Aec3Module {
  AEC3: new (sampleRate: number, renderChannels: number, captureChannels: number) => Aec3Instance;
}

/** The RNNoise module's C API, as Emscripten exports it. */
export interface RnnoiseModule {
  HEAPF32: Float32Array;
  _rnnoise_create(model: number): number;
  _rnnoise_destroy(state: number): void;
  _rnnoise_process_frame(state: number, out: number, input: number): number;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

/** RNNoise's package (ESM, no types). */
const RNNOISE_PACKAGE: string = '@echogarden/rnnoise-wasm';

let aec3: Promise<Aec3Module> | undefined;
let rnnoise: Promise<RnnoiseModule> | undefined;

/** The AEC3 module, compiled on first call. */
export async function loadAec3(): Promise<Aec3Module> {
  aec3 ??= import('@ennuicastr/webrtcaec3.js').then(async (mod) => {
    const factory = (mod as unknown as { default: () => Promise<Aec3Module> }).default;
    return factory();
  });
  return aec3;
}

/** The RNNoise module, compiled on first call. */
export async function loadRnnoise(): Promise<RnnoiseModule> {
  // The package ships no types: the specifier is a variable so the compiler does not look for them, and
  // RnnoiseModule above types what is used.
  const specifier = RNNOISE_PACKAGE;
  rnnoise ??= (import(specifier) as Promise<{ default: () => Promise<RnnoiseModule> }>).then(async (mod) =>
    mod.default(),
  );
  return rnnoise;
}
