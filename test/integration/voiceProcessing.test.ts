import path from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  matchAudio,
  readWavFile,
  synthesizeSpeech,
  writeWavFile,
} from '../../packages/emulator/src/index.js';
import { measuredCall, pushInRealTime, tempDir, twoInALobby } from './callHelpers.js';

describe('voice processing in a call', () => {
  it('gain control on the microphone path lifts a quiet talker at the other player by 10 dB or more', async () => {
    const { alice, bob, lobbyId } = await twoInALobby();
    const quiet = path.join(tempDir(), 'quiet.wav');
    const speech = await synthesizeSpeech('Over here, behind the old mill, I found the key.');
    // About −40 dBFS: a player far from the microphone.
    writeWavFile(
      quiet,
      speech.pcm.map((s) => Math.round(s * 0.06)),
    );
    // Bob measures what arrives from Alice, frame by frame, before his mix.
    const { energy } = await measuredCall(bob, alice, lobbyId);
    const phase = async (): Promise<number> => {
      energy.total = 0;
      await alice.client.setInputDevice(`wav-in:${quiet}`);
      await new Promise((resolve) => setTimeout(resolve, speech.durationMs + 600));
      return energy.total;
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
    const { energy } = await measuredCall(bob, alice, lobbyId);
    await alice.client.setAutomaticGainControl(true);
    // Alice's game pushes the quiet sentence in real time, as its engine captured it.
    const push = async (options: { microphone?: boolean }): Promise<number> => {
      energy.total = 0;
      await pushInRealTime(alice.client, quiet, options, 600);
      return energy.total;
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
    // Bob's microphone hears his room: what his speakers play, 50 ms later at −6 dB.
    await bob.client.setInputDevice('room:50:-6');
    // Alice measures what comes back to her from Bob.
    const { energy } = await measuredCall(alice, bob, lobbyId);
    const aliceSpeaks = async (): Promise<number> => {
      energy.total = 0;
      await alice.client.setInputDevice(`wav-in:${saidFile}`);
      await new Promise((resolve) => setTimeout(resolve, said.durationMs + 700));
      return energy.total;
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
    await pushInRealTime(bob.client, bobSays.pcm, { microphone: true }, 800);
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
