// Voice through the system's devices on a busy machine (issue 35, "Voice on a busy machine"): the sentence of
// test/integration/systemAudio.test.ts spoken into Alice's microphone and recorded from Bob's speaker, on a
// real PulseAudio server with virtual devices, in a DAVE call through the emulator, as the test runs it; once
// on the machine as it is, then again while other work runs beside it (bench/lib/machineLoad.ts, `busy`: a
// headless Chromium rendering, `npm install` from the npm cache over and over, and two shells starting short
// processes, the neighbours the test had when it failed). One JSON line per result:
//
//   system-audio-under-load           the loaded sentence's segment correlation (matchAudio), higher is better;
//                                     peer: the same sentence in the same call on the machine without the
//                                     load, just before. Target ≥ 0.9.
//   system-audio-under-load-glitches  slips in the loaded sentence: steps of more than 1 ms in the delay
//                                     between neighbouring quarter-seconds that both matched (correlation
//                                     ≥ 0.6), each a gap the path inserted or audio it skipped; lower is
//                                     better; no peer (the quiet sentence's count is printed on stderr).
//
// The devices' own counters (underruns, dropped samples, late callbacks, the device thread's priority) are
// printed on stderr. The load is stopped on every way out (an error, a signal, the 55 s watchdog).
// `--load=<kind>` runs another kind of load (cpu, forks, io, memory, chromium, npm, busy).
// Run: npx tsx bench/systemAudio.ts, or npm run bench -- systemAudio
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { LoggingSeverity, type Call } from '../packages/sdkpp/src/index.js';
import {
  matchAudio,
  synthesizeSpeech,
  writeWavFile,
  type AudioMatch,
} from '../packages/emulator/src/index.js';
import { playAndRecord, startPulseServer, type PulseServer } from '../test/integration/pulseServer.js';
import { unpackedChromium } from '../test/setup/chromium.js';
import { connected, playersInALobby, sameEpoch, until, type BenchLobby } from './lib/callSetup.js';
import { LOAD_KINDS, startLoad, stopAllLoads, type LoadKind } from './lib/machineLoad.js';
import { qualityResult, report } from './lib/report.js';

const SENTENCE = 'Hello Bob, can you hear me? The castle is over the hill, bring the torch and the map.';
/** The whole bench, load included, ends within this (then the load is stopped and the run fails). */
const WATCHDOG_MS = 55_000;
/** The load runs this long before the sentence, so that it is in its stride (npm resolving, Chromium up). */
const LOAD_LEAD_MS = 3000;
/** A segment judged for slips must match at least this well (silence and breath match nothing). */
const CLEAR_SEGMENT = 0.6;
const SEGMENT_MS = 250;

const asked = process.argv.find((a) => a.startsWith('--load='))?.slice('--load='.length) ?? 'busy';
if (!LOAD_KINDS.includes(asked as LoadKind)) {
  throw new Error(`--load=${asked}: one of ${LOAD_KINDS.join(', ')}`);
}
const loadKind = asked as LoadKind;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Steps in the delay between neighbouring segments that both matched clearly: gaps inserted, audio skipped. */
function slips(match: AudioMatch): number {
  let count = 0;
  const segments = match.segments;
  for (let i = 1; i < segments.length; i++) {
    const before = segments[i - 1];
    const after = segments[i];
    if (!before || !after || after.startMs - before.startMs > SEGMENT_MS + 1) continue;
    if (before.correlation < CLEAR_SEGMENT || after.correlation < CLEAR_SEGMENT) continue;
    if (Math.abs(after.delayMs - before.delayMs) > 1) count++;
  }
  return count;
}

interface Heard {
  readonly match: AudioMatch;
  readonly slips: number;
}

async function sentence(
  pulse: PulseServer,
  spoken: string,
  reference: Int16Array,
  dir: string,
  label: string,
  calls: readonly Call[],
): Promise<Heard> {
  const before = calls.map((call) => call.getTransportStats());
  const heard = await playAndRecord(
    pulse,
    'bob_speaker.monitor',
    'alice_mic_feed',
    spoken,
    path.join(dir, `${label}.wav`),
  );
  const match = matchAudio(reference, heard);
  const late = calls.map((call, i) => {
    const now = call.getTransportStats();
    return `${(now?.lateTicks ?? 0) - (before[i]?.lateTicks ?? 0)} late ticks (latest ${((now?.maxLatenessUs ?? 0) / 1000).toFixed(1)} ms so far)`;
  });
  const result = { match, slips: slips(match) };
  process.stderr.write(
    `${label}: segment correlation ${match.segmentCorrelation.toFixed(3)}, ${result.slips} slips, ` +
      `delay ${match.segmentDelayRangeMs.map((ms) => ms.toFixed(1)).join('–')} ms; ` +
      `transport threads: Alice ${late[0]}, Bob ${late[1]}\n`,
  );
  return result;
}

async function main(): Promise<void> {
  const chromium = await unpackedChromium();
  const pulse = await startPulseServer();
  process.env.PULSE_SERVER = pulse.server;
  pulse.addMicrophone('alice_mic', 'Bench-Mic');
  pulse.addSink('bob_speaker', 'Bench-Speaker');
  const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-bench-system-audio-'));
  let lobby: BenchLobby | undefined;
  try {
    const speech = await synthesizeSpeech(SENTENCE);
    const spoken = path.join(dir, 'says.wav');
    writeWavFile(spoken, speech.pcm);
    // The devices' counters arrive in the line each client logs when a device closes (debug mode).
    const deviceLines: string[] = [];
    lobby = await playersInALobby(2, 'native', (i) => ({
      debug: true,
      logSeverity: LoggingSeverity.Info,
      logCallback: (message) => {
        if (/audio (input|output) .* closed/.test(message))
          deviceLines.push(`${i ? 'Bob' : 'Alice'}: ${message}`);
      },
    }));
    const [alice, bob] = lobby.players;
    if (!alice || !bob) throw new Error('two players expected');
    // As in the test: the devices' own path, without voice processing, linked to the transports' threads.
    await alice.client.setEchoCancellation(false);
    await alice.client.setNoiseSuppression(false);
    await alice.client.setAutomaticGainControl(false);
    await alice.client.setInputDevice('pulseaudio:alice_mic');
    await alice.client.setOutputDevice('null');
    await bob.client.setOutputDevice('pulseaudio:bob_speaker');
    const aliceCall = alice.client.startCall(lobby.lobbyId);
    const bobCall = bob.client.startCall(lobby.lobbyId);
    await connected(aliceCall);
    await connected(bobCall);
    await sameEpoch([aliceCall, bobCall]);
    await until(() => aliceCall.getTransportStats()?.devicesLinked === 1, 3000, 'the microphone linked');
    await until(() => bobCall.getTransportStats()?.devicesLinked === 2, 3000, 'the speaker linked');

    const calls = [aliceCall, bobCall];
    const quiet = await sentence(pulse, spoken, speech.pcm, dir, 'quiet', calls);
    const load = startLoad(loadKind, chromium);
    let loaded: Heard;
    try {
      await sleep(LOAD_LEAD_MS);
      loaded = await sentence(pulse, spoken, speech.pcm, dir, `under ${loadKind} load`, calls);
    } finally {
      load.stop();
    }
    await alice.client.setInputDevice('null');
    await bob.client.setOutputDevice('null');
    process.stderr.write(`devices over both sentences:\n  ${deviceLines.join('\n  ')}\n`);

    const peer = 'quiet machine, same run';
    report(
      qualityResult(
        'system-audio-under-load',
        'correlation',
        loaded.match.segmentCorrelation,
        peer,
        quiet.match.segmentCorrelation,
        3,
      ),
    );
    process.stderr.write(`slips in the quiet sentence: ${quiet.slips}\n`);
    report(qualityResult('system-audio-under-load-glitches', 'slips', loaded.slips, 'none', 0, 0));
  } finally {
    stopAllLoads();
    await lobby?.close();
    await pulse.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const watchdog = setTimeout(() => {
  stopAllLoads();
  process.stderr.write(`systemAudio: not done after ${WATCHDOG_MS / 1000} s; the load is stopped\n`);
  process.exit(1);
}, WATCHDOG_MS);
try {
  await main();
} finally {
  clearTimeout(watchdog);
  stopAllLoads();
}
