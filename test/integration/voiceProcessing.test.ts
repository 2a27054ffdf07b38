import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { matchAudio, readWavFile, synthesizeSpeech, writeWavFile } from '../../src/emulator/index.js';
import { tempDir, twoInALobby } from './callHelpers.js';
import { eventually } from './helpers.js';

describe('voice processing in a call', () => {
  it('gain control on the microphone path lifts a quiet talker at the other player by 10 dB or more', async () => {
    const { alice, bob, lobbyId } = await twoInALobby();
    const dir = tempDir();
    const quiet = path.join(dir, 'quiet.wav');
    const speech = await synthesizeSpeech('Over here, behind the old mill, I found the key.');
    // About −40 dBFS: a player far from the microphone.
    writeWavFile(
      quiet,
      speech.pcm.map((s) => Math.round(s * 0.06)),
    );
    // Bob measures what arrives from Alice, frame by frame, before his mix.
    let energy = 0;
    const bobCall = bob.client.startCallWithAudioCallbacks(
      lobbyId,
      (userId, samples) => {
        if (userId !== alice.user.id) return;
        for (const s of samples) energy += s * s;
      },
      () => undefined,
    );
    const aliceCall = alice.client.startCall(lobbyId);
    await eventually(
      () => aliceCall.getStatus() === 'Connected' && bobCall.getStatus() === 'Connected',
      10_000,
      'both connected',
    );
    const phase = async (): Promise<number> => {
      energy = 0;
      await alice.client.setInputDevice(`wav-in:${quiet}`);
      await new Promise((resolve) => setTimeout(resolve, speech.durationMs + 600));
      return energy;
    };
    expect(alice.client.getAutomaticGainControl()).toBe(false);
    const plain = await phase();
    await alice.client.setAutomaticGainControl(true);
    const levelled = await phase();
    await Promise.all([alice.client.endCall(lobbyId), bob.client.endCall(lobbyId)]);
    expect(plain).toBeGreaterThan(0);
    expect(10 * Math.log10(levelled / plain)).toBeGreaterThanOrEqual(10);
  });

  it('processes the game’s own microphone (pushAudioInput with microphone: true), and leaves its finished audio alone', async () => {
    const { alice, bob, lobbyId } = await twoInALobby();
    const speech = await synthesizeSpeech('Over here, behind the old mill, I found the key.');
    const quiet = speech.pcm.map((s) => Math.round(s * 0.06));
    let energy = 0;
    const bobCall = bob.client.startCallWithAudioCallbacks(
      lobbyId,
      (userId, samples) => {
        if (userId !== alice.user.id) return;
        for (const s of samples) energy += s * s;
      },
      () => undefined,
    );
    const aliceCall = alice.client.startCall(lobbyId);
    await eventually(
      () => aliceCall.getStatus() === 'Connected' && bobCall.getStatus() === 'Connected',
      10_000,
      'both connected',
    );
    await alice.client.setAutomaticGainControl(true);
    // Alice's game pushes the quiet sentence in real time, as its engine captured it.
    const push = async (options: { microphone?: boolean }): Promise<number> => {
      energy = 0;
      const started = performance.now();
      let sent = 0;
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          const due = Math.min(quiet.length / 2, Math.floor(((performance.now() - started) / 1000) * 48_000));
          if (due > sent) alice.client.pushAudioInput(quiet.subarray(sent * 2, due * 2), 48_000, 2, options);
          sent = due;
          if (performance.now() - started > speech.durationMs + 600) {
            clearInterval(timer);
            resolve();
          }
        }, 10);
      });
      return energy;
    };
    const asIs = await push({});
    const processed = await push({ microphone: true });
    await Promise.all([alice.client.endCall(lobbyId), bob.client.endCall(lobbyId)]);
    expect(asIs).toBeGreaterThan(0);
    expect(10 * Math.log10(processed / asIs)).toBeGreaterThanOrEqual(10);
  }, 30_000);

  it('echo cancellation: Bob’s speakers leaking into his microphone (a room, 50 ms at −6 dB) reach Alice 20 dB quieter, and Bob’s own voice still arrives', async () => {
    const { alice, bob, lobbyId } = await twoInALobby();
    const said = await synthesizeSpeech('The castle gate is open, bring the torch and the map.');
    const saidFile = path.join(tempDir(), 'alice-says.wav');
    writeWavFile(saidFile, said.pcm);
    const bobSays = await synthesizeSpeech('I hear you, I am on my way to the bridge now.', {
      voice: 'en+m3',
    });
    const bobCall = bob.client.startCall(lobbyId);
    // Bob's microphone hears his room: what his speakers play, 50 ms later at −6 dB.
    await bob.client.setInputDevice('room:50:-6');
    let energy = 0;
    const aliceCall = alice.client.startCallWithAudioCallbacks(
      lobbyId,
      (userId, samples) => {
        if (userId !== bob.user.id) return;
        for (const v of samples) energy += v * v;
      },
      () => undefined,
    );
    await eventually(
      () => aliceCall.getStatus() === 'Connected' && bobCall.getStatus() === 'Connected',
      10_000,
      'both connected',
    );
    const aliceSpeaks = async (): Promise<number> => {
      energy = 0;
      await alice.client.setInputDevice(`wav-in:${saidFile}`);
      await new Promise((resolve) => setTimeout(resolve, said.durationMs + 700));
      return energy;
    };
    const echoed = await aliceSpeaks();
    await bob.client.setEchoCancellation(true);
    await aliceSpeaks(); // the canceller learns the room
    const cancelled = await aliceSpeaks();
    expect(echoed).toBeGreaterThan(0);
    expect(10 * Math.log10(echoed / Math.max(1, cancelled))).toBeGreaterThanOrEqual(20);

    // Bob talks while Alice is silent: his voice (a microphone his game captures, in the same room) passes
    // the canceller. Alice's speaker records it from here on.
    const aliceHears = path.join(tempDir(), 'alice-hears.wav');
    await alice.client.setOutputDevice(`wav-out:${aliceHears}`);
    const pcm = bobSays.pcm;
    const started = performance.now();
    let sent = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const due = Math.min(pcm.length / 2, Math.floor(((performance.now() - started) / 1000) * 48_000));
        if (due > sent)
          bob.client.pushAudioInput(pcm.subarray(sent * 2, due * 2), 48_000, 2, { microphone: true });
        sent = due;
        if (performance.now() - started > bobSays.durationMs + 800) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });
    await Promise.all([alice.client.endCall(lobbyId), bob.client.endCall(lobbyId)]);
    expect(matchAudio(bobSays.pcm, readWavFile(aliceHears)).segmentCorrelation).toBeGreaterThanOrEqual(0.85);
  }, 40_000);

  it('takes the three switches at run time and refuses what is not a boolean', async () => {
    const { alice } = await twoInALobby();
    await alice.client.setEchoCancellation(true);
    await alice.client.setAutomaticGainControl(true);
    expect(alice.client.getEchoCancellation()).toBe(true);
    expect(alice.client.getAutomaticGainControl()).toBe(true);
    expect(alice.client.getNoiseSuppression()).toBe(false);
    await alice.client.setEchoCancellation(false);
    expect(alice.client.getEchoCancellation()).toBe(false);
    await expect(alice.client.setNoiseSuppression('yes' as unknown as boolean)).rejects.toThrow(
      'voice processing switches are booleans',
    );
  });
});
