// The SDK's virtual devices (`null`, `wav-in:` a file) on the native engine are served by the call's
// transport thread itself (issue 35): the audio pump links them and sleeps, so the JavaScript thread does no
// work per frame. These tests check what a game sees of that: the link, the audio that arrives whole, and
// the pump taking the frames back (and from the same place in the file) when the game needs them.
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { allLogLines, eventually } from './helpers.js';
import {
  bothInCall,
  frameLevels,
  medianFrameTone,
  readWav,
  sameEpoch,
  tempDir,
  twoInALobby,
  writeToneWav,
} from './callHelpers.js';

/** The frames of a recording louder than a quiet room, as indices. */
function loudFrames(file: string): number[] {
  const wav = readWav(file);
  return frameLevels(wav.samples)
    .map((level, i) => ({ level, i }))
    .filter((f) => f.level > 2000)
    .map((f) => f.i);
}

/** Waits until both players' transports encrypt with their DAVE sender keys (logged since `from`). */
async function senderKeysInUse(from: number): Promise<void> {
  await eventually(
    () => allLogLines.slice(from).filter((line) => line.includes('DAVE sender key in use')).length >= 2,
    5000,
    'both DAVE sender keys in use',
  );
}

describe('virtual devices on the transport thread', () => {
  it('links the null speaker and a file microphone to the transport, and the whole file arrives', async () => {
    const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true, mediaEngine: 'native' });
    const dir = tempDir();
    const toneIn = path.join(dir, 'tone.wav');
    const heard = path.join(dir, 'bob-hears.wav');
    writeToneWav(toneIn, { hz: 440, seconds: 3 });
    await bob.client.setOutputDevice(`wav-out:${heard}`);
    const linesBefore = allLogLines.length;
    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    // No frame of the file may meet a missing DAVE key: the sender key reaches the transport a little
    // after both show the epoch's privacy code.
    await sameEpoch(aliceCall, bobCall);
    await senderKeysInUse(linesBefore);

    // The null devices are linked as soon as the call carries audio.
    await eventually(() => aliceCall.getTransportStats()?.devicesLinked === 3, 5000, 'null devices linked');
    await alice.client.setInputDevice(`wav-in:${toneIn}`);
    await eventually(
      () =>
        allLogLines
          .slice(linesBefore)
          .some((line) =>
            line.includes('virtual audio linked to the transport thread (microphone and speaker)'),
          ),
      5000,
      'the virtual link logged',
    );
    await eventually(
      () => (aliceCall.getTransportStats()?.voiceFramesSent ?? 0) >= 150,
      8000,
      'the file sent',
    );
    expect(aliceCall.getTransportStats()?.devicesLinked).toBe(3);
    // Sent by the transport thread from the ring: 3 s of tone is 150 frames, none lost, none repeated.
    await eventually(() => bob.client.getCalls().length === 1, 1000, "Bob's call");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(aliceCall.getTransportStats()?.voiceFramesSent).toBe(150);
    await bob.client.endCall(lobbyId);
    // What Bob's file speaker got: on a busy machine his pump may miss a few frames (its own, not the sender's).
    const loud = loudFrames(heard);
    expect(loud.length).toBeGreaterThanOrEqual(130);
    expect(loud.length).toBeLessThanOrEqual(152);
    const wav = readWav(heard);
    expect(medianFrameTone(wav.samples, loud, 440)).toBeGreaterThan(
      8 * medianFrameTone(wav.samples, loud, 1000),
    );
  });

  it('hands the file back to the pump mid-way, from the same place, when the game needs its frames', async () => {
    const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true, mediaEngine: 'native' });
    const dir = tempDir();
    const toneIn = path.join(dir, 'tone.wav');
    const heard = path.join(dir, 'bob-hears.wav');
    writeToneWav(toneIn, { hz: 440, seconds: 4 });
    await bob.client.setOutputDevice(`wav-out:${heard}`);
    const linesBefore = allLogLines.length;
    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    await sameEpoch(aliceCall, bobCall);
    await senderKeysInUse(linesBefore);
    const detected: boolean[] = [];
    alice.client.on('audioInputDetected', (inputDetected) => detected.push(inputDetected));
    await alice.client.setInputDevice(`wav-in:${toneIn}`);
    await eventually(
      () => (aliceCall.getTransportStats()?.voiceFramesSent ?? 0) >= 50,
      5000,
      'a second sent',
    );
    expect(aliceCall.getTransportStats()?.devicesLinked).toBe(3);

    // The no-audio-input detector needs each microphone frame on this thread: the microphone comes back to
    // the pump (the speaker stays linked), which reads on from where the transport was in the file.
    alice.client.setNoAudioInputThreshold(-40);
    await eventually(
      () => aliceCall.getTransportStats()?.devicesLinked === 2,
      2000,
      'the microphone unlinked',
    );
    await eventually(() => detected.includes(true), 2000, 'input detected on this thread');
    await eventually(
      () => (aliceCall.getTransportStats()?.voiceFramesSent ?? 0) >= 200,
      8000,
      'the file sent',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    // 4 s of tone: 200 frames whichever side read them.
    expect(aliceCall.getTransportStats()?.voiceFramesSent).toBe(200);

    // Detection off: the microphone goes back to the transport.
    alice.client.setNoAudioInputThreshold(-100);
    await eventually(() => aliceCall.getTransportStats()?.devicesLinked === 3, 2000, 'relinked');
    await bob.client.endCall(lobbyId);
    const loud = loudFrames(heard);
    expect(loud.length).toBeGreaterThanOrEqual(175);
    expect(loud.length).toBeLessThanOrEqual(202);
  });

  it('keeps the frames on the pump for a wav-out speaker, and for the JS engine', async () => {
    const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true, mediaEngine: 'native' });
    const dir = tempDir();
    const aliceHears = path.join(dir, 'alice-hears.wav');
    await alice.client.setOutputDevice(`wav-out:${aliceHears}`);
    const { aliceCall } = await bothInCall(alice.client, bob.client, lobbyId);
    // A file speaker is written on this thread; the null microphone still links.
    await eventually(() => aliceCall.getTransportStats()?.devicesLinked === 1, 5000, 'microphone only');
    await alice.client.setOutputDevice('null');
    await eventually(() => aliceCall.getTransportStats()?.devicesLinked === 3, 2000, 'both linked');

    const js = await twoInALobby({ allowNonDave: true, mediaEngine: 'js' });
    const jsCalls = await bothInCall(js.alice.client, js.bob.client, js.lobbyId);
    await eventually(
      () => jsCalls.aliceCall.getStatus() === aliceCall.getStatus(),
      2000,
      'JS call connected',
    );
    expect(jsCalls.aliceCall.getTransportStats()?.devicesLinked).toBe(0);
  });
});
