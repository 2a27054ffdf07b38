import path from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { createMediaEngine, type Call } from '../../packages/sdkpp/src/index.js';
import {
  ProcessingWorker,
  processingWorkerScript,
} from '../../packages/sdkpp/src/voice/processing/ProcessingWorker.js';
import {
  matchAudio,
  readWavFile,
  synthesizeSpeech,
  writeWavFile,
} from '../../packages/emulator/src/index.js';
import { connected, sameEpoch, tempDir, twoInALobby } from './callHelpers.js';
import { eventually } from './helpers.js';
import type { PulseServer } from './pulseServer.js';
import { usePulseServer } from './pulseSetup.js';

// Issue 17: voice processing between the system devices and the transport's thread, on a worker thread, on
// a real PulseAudio server. Bob's speaker (a null sink) leaks into his microphone through a loopback at
// −6 dB and about 50 ms, as laptop speakers do; Alice hears what Bob sends.

const server = usePulseServer();
let pulse: PulseServer;
beforeAll(() => {
  pulse = server();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Blocks this thread (the game's event loop) for `ms`, as a long frame of game logic would. */
function blockEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('voice processing on the worker thread (PulseAudio, native engine)', () => {
  it('cancels the echo of Bob’s speakers by 20 dB and more, passes his own voice, and keeps sending while the event loop is blocked', async () => {
    pulse.addMicrophone('bob_mic', 'Bob-Laptop-Mic');
    pulse.addSink('bob_speaker', 'Bob-Laptop-Speakers');
    // The room: what Bob's speakers play reaches his microphone 50 ms later at −6 dB.
    pulse.addRoomEcho('bob_speaker', 'bob_mic', { latencyMs: 50, gainDb: -6 });

    const { alice, bob, lobbyId } = await twoInALobby({ mediaEngine: 'native' });
    if (process.env.SDKPP_DEBUG_SPEECH) bob.client.addLogCallback((line) => console.log('bob:', line));
    await bob.client.setInputDevice('pulseaudio:bob_mic');
    await bob.client.setOutputDevice('pulseaudio:bob_speaker');
    // A system microphone gets all three by default, as in the C++ SDK; the echo is measured without them
    // first, and then with echo cancellation alone.
    expect(bob.client.getEchoCancellation()).toBe(true);
    expect(bob.client.getNoiseSuppression()).toBe(true);
    expect(bob.client.getAutomaticGainControl()).toBe(true);
    await bob.client.setEchoCancellation(false);
    await bob.client.setNoiseSuppression(false);
    await bob.client.setAutomaticGainControl(false);

    // Alice measures what comes back from Bob, frame by frame.
    let heard: Int16Array[] = [];
    const aliceCall = alice.client.startCallWithAudioCallbacks(
      lobbyId,
      (userId, samples) => {
        if (userId === bob.user.id) heard.push(Int16Array.from(samples));
      },
      () => undefined,
    );
    const bobCall: Call = bob.client.startCall(lobbyId);
    await connected(aliceCall);
    await connected(bobCall);
    await sameEpoch(aliceCall, bobCall);
    const energy = (): number => heard.reduce((sum, f) => sum + f.reduce((s, v) => s + v * v, 0), 0);

    const said = await synthesizeSpeech('The castle gate is open, bring the torch and the map.');
    const saidFile = path.join(tempDir(), 'alice-says.wav');
    writeWavFile(saidFile, said.pcm);
    const aliceSpeaks = async (): Promise<number> => {
      heard = [];
      await alice.client.setInputDevice(`wav-in:${saidFile}`);
      await sleep(said.durationMs + 800);
      return energy();
    };

    // Without processing, both devices are linked to Bob's transport thread directly, and Alice hears
    // herself through Bob's room.
    await eventually(() => bobCall.getTransportStats()?.devicesLinked === 3, 3000, 'Bob’s devices linked');
    const echoed = await aliceSpeaks();
    // With echo cancellation on, the devices stay linked: through the processing worker, whose canceller
    // takes the playout from the transport's thread (on the event loop, it would need the speaker too).
    await bob.client.setEchoCancellation(true);
    // (Bit 2: the microphone passes the worker.)
    await eventually(
      () => bobCall.getTransportStats()?.devicesLinked === 7,
      5000,
      'Bob’s devices linked through the worker',
    );
    // The canceller learns the room: over two sentences, since after one it was short of converged now and
    // then (15 dB measured once).
    await aliceSpeaks();
    await aliceSpeaks();
    const cancelled = await aliceSpeaks();
    const erle = 10 * Math.log10(echoed / Math.max(1, cancelled));
    if (process.env.SDKPP_DEBUG_SPEECH) console.log('erle', erle.toFixed(1));
    expect(echoed).toBeGreaterThan(0);
    expect(erle).toBeGreaterThanOrEqual(20);

    // Bob talks while Alice is silent: his voice passes the canceller, and then all three (the defaults).
    const bobSays = await synthesizeSpeech(
      'I hear you, I am on my way to the bridge now, wait for me there.',
      {
        voice: 'en+m3',
      },
    );
    const bobFile = path.join(tempDir(), 'bob-says.wav');
    writeWavFile(bobFile, bobSays.pcm);
    const bobSpeaks = async (what: string): Promise<number> => {
      const aliceHears = path.join(tempDir(), `alice-hears-${what}.wav`);
      await alice.client.setOutputDevice(`wav-out:${aliceHears}`);
      const sent0 = bobCall.getTransportStats()?.voiceFramesSent ?? 0;
      await pulse.play('bob_mic_feed', bobFile);
      // Sent through the worker: each voice frame is one the worker processed.
      expect((bobCall.getTransportStats()?.voiceFramesSent ?? 0) - sent0).toBeGreaterThan(50);
      await sleep(1000);
      await alice.client.setOutputDevice('null'); // the file is complete
      const match = matchAudio(bobSays.pcm, readWavFile(aliceHears));
      if (process.env.SDKPP_DEBUG_SPEECH) console.log(what, JSON.stringify(match));
      return match.segmentCorrelation;
    };
    expect(await bobSpeaks('near end, echo cancellation')).toBeGreaterThanOrEqual(0.85);
    await bob.client.setNoiseSuppression(true);
    await bob.client.setAutomaticGainControl(true);
    expect(await bobSpeaks('near end, all three')).toBeGreaterThanOrEqual(0.85);
    expect(bobCall.getTransportStats()?.devicesLinked).toBe(7);

    // Again, with his game's event loop blocked for a second in the middle of it: the transport goes on
    // sending what the worker processed. (What Alice receives meanwhile waits for the same event loop, which
    // also runs the emulator here, so only the sending is judged.)
    const played = pulse.play('bob_mic_feed', bobFile);
    await sleep(500);
    const before = bobCall.getTransportStats()?.voiceFramesSent ?? 0;
    blockEventLoop(1000);
    const during = (bobCall.getTransportStats()?.voiceFramesSent ?? 0) - before;
    await played;
    if (process.env.SDKPP_DEBUG_SPEECH) console.log('frames sent while blocked', during);
    // 50 frames a second while he speaks (43 measured; the pauses between words send none). On the event
    // loop, the transport would have sent only the two frames of its backlog.
    expect(during).toBeGreaterThanOrEqual(25);

    // Off again: the microphone is linked directly, and the worker goes.
    await bob.client.setEchoCancellation(false);
    await bob.client.setNoiseSuppression(false);
    await bob.client.setAutomaticGainControl(false);
    await eventually(() => bobCall.getTransportStats()?.devicesLinked === 3, 3000, 'linked directly again');
    expect(bobCall.getTransportStats()?.devicesLinked).toBe(3);
    await Promise.all([alice.client.endCall(lobbyId), bob.client.endCall(lobbyId)]);
  }, 90_000);
});

describe('the processing worker’s failures', () => {
  it('reports a worker that cannot load the addon, and the link it made is freed', async () => {
    const system = createMediaEngine({ prefer: 'native' }).openSystemAudio();
    const lines: string[] = [];
    const log = {
      verbose: () => undefined,
      info: (line: string) => lines.push(line),
      warn: (line: string) => lines.push(line),
      error: (line: string) => lines.push(line),
      secret: () => undefined,
      child: () => log,
    };
    const script = processingWorkerScript();
    if (!script) throw new Error('the worker script is built by `npm test` (npm run build:ts)');
    const worker = new ProcessingWorker({
      system,
      addonPath: path.join(tempDir(), 'no-such-addon.node'),
      script,
      settings: { echoCancellation: true, noiseSuppression: true, automaticGainControl: true },
      log,
    });
    await eventually(() => worker.failed, 10_000, 'the worker to fail');
    expect(worker.ready).toBe(false);
    expect(
      lines.some((l) => l.startsWith('voice processing worker failed, processing on the main thread')),
    ).toBe(true);
    const id = worker.link.id;
    worker.close();
    // Nobody holds the link any more: it cannot be opened by its id.
    expect(() => createMediaEngine({ prefer: 'native' }).openProcessingLink(id)).toThrow(
      expect.objectContaining({ code: 'ERR_PROCESSING_LINK_NOT_FOUND' }),
    );
    // A link can be read only while a transport links it for capture: a bare one yields nothing, at once.
    const bare = system.createProcessingLink();
    const started = performance.now();
    expect(bare.readCapture(new Int16Array(960), 20)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
    expect(() => bare.readCapture(new Int16Array(960), 101)).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }),
    );
    bare.dispose();
    expect(() => bare.stats()).toThrow(expect.objectContaining({ code: 'ERR_PROCESSING_LINK_DISPOSED' }));
    system.dispose();
  });
});
