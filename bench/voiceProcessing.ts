// The capture path's voice processing (src/voice/processing), on espeak-ng speech, one JSON line each:
//   apm-aec-erle     dB of echo removed (echo return loss enhancement) by WebRTC's AEC3 from a leak of the
//                    playout at −6 dB, 50 ms, with two reflections; measured once converged. No peer: npm has
//                    no other echo canceller that runs in Node.
//   apm-ns-snr-gain  dB of SNR gained on speech in steady noise at 5 dB SNR (estimatedSnr: speech power less
//                    noise power, over noise power, from the signal alone), ours (@echogarden/rnnoise-wasm)
//                    vs @jitsi/rnnoise-wasm, the build Jitsi Meet ships
//   apm-ns-frame     µs per 10 ms block of noise suppression, ours vs the same Jitsi build
//   apm-frame        µs per 10 ms block with echo cancellation, noise suppression and gain control all on
//                    (our whole chain, through VoiceProcessor as the audio pump calls it); no peer
// Run: npx tsx bench/voiceProcessing.ts
import { synthesizeSpeech } from '../packages/emulator/src/testing/speech.js';
import { echoReturnLossEnhancement, snrGain } from '../packages/emulator/src/testing/voiceMetrics.js';
import { VoiceProcessor } from '../packages/sdkpp/src/voice/processing/VoiceProcessor.js';
import { recordingLog } from '../test/fakes/recordingLog.js';
import { echoOf, inSteadyNoise, mono, runFrames } from '../test/unit/voice/voiceSignals.js';
import { qualityResult, report, result } from './lib/report.js';

const BLOCK = 480;
const quiet = recordingLog().log;

const far = mono((await synthesizeSpeech('The castle gate is open, bring the torch and the map.')).pcm);
const near = mono(
  (await synthesizeSpeech('I hear you, I am on my way to the bridge now.', { voice: 'en+m3' })).pcm,
);

// Echo: far-end speech plays and leaks back.
const mic = echoOf(far);
const aec = new VoiceProcessor(quiet);
await aec.set({ echoCancellation: true });
const echo = runFrames(aec, mic, far);
report(
  qualityResult(
    'apm-aec-erle',
    'dB',
    echoReturnLossEnhancement(mic, echo.out, far.length >> 1, far.length),
    'none in Node on npm',
    0,
  ),
);
aec.close();

// Noise: near-end speech in steady noise at 5 dB SNR, a second of noise alone each side.
const { noisy, pad } = inSteadyNoise(near, 5);
const ns = new VoiceProcessor(quiet);
await ns.set({ noiseSuppression: true });
runFrames(ns, noisy); // warm-up, as for the peer below
const ours = runFrames(ns, noisy);
ns.close();

interface Rnnoise {
  HEAPF32: Float32Array;
  _rnnoise_create(model: number): number;
  _rnnoise_process_frame(state: number, out: number, input: number): number;
  _malloc(bytes: number): number;
}
const jitsiFactory = (
  (await import('@jitsi/rnnoise-wasm/dist/rnnoise-sync.js')) as { default: () => Promise<Rnnoise> }
).default;
const jitsi = await jitsiFactory();
const state = jitsi._rnnoise_create(0);
const pin = jitsi._malloc(BLOCK * 4);
const pout = jitsi._malloc(BLOCK * 4);
const peerOut = new Float32Array(noisy.length);
function peerPass(): number {
  const t0 = process.hrtime.bigint();
  for (let start = 0; start + BLOCK <= noisy.length; start += BLOCK) {
    for (let i = 0; i < BLOCK; i++)
      jitsi.HEAPF32[(pin >> 2) + i] = Math.round((noisy[start + i] ?? 0) * 32767);
    jitsi._rnnoise_process_frame(state, pout, pin);
    for (let i = 0; i < BLOCK; i++) peerOut[start + i] = (jitsi.HEAPF32[(pout >> 2) + i] ?? 0) / 32768;
  }
  return Number(process.hrtime.bigint() - t0) / 1000 / Math.floor(noisy.length / BLOCK);
}
peerPass();
const peerUs = peerPass();
report(
  qualityResult(
    'apm-ns-snr-gain',
    'dB',
    snrGain(noisy, ours.out, pad, pad + near.length),
    '@jitsi/rnnoise-wasm 0.2',
    snrGain(noisy, peerOut, pad, pad + near.length),
  ),
);
report(result('apm-ns-frame', 'µs', ours.usPerBlock, '@jitsi/rnnoise-wasm 0.2', peerUs));

// The whole chain on the echo-and-noise mix.
const all = new VoiceProcessor(quiet);
await all.set({ echoCancellation: true, noiseSuppression: true, automaticGainControl: true });
const mixed = noisy.map((s, i) => s + (mic[i] ?? 0));
runFrames(all, mixed, far); // warm-up: the WebAssembly code is compiled to its optimised tier as it runs
const chain = runFrames(all, mixed, far);
report(result('apm-frame', 'µs', chain.usPerBlock, 'none', 0));
all.close();
