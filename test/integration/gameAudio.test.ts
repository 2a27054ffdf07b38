import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { eventually } from './helpers.js';
import { bothInCall, frameLevels, medianFrameTone, readWav, tempDir, twoInALobby } from './callHelpers.js';

/** Loud 20 ms frames of a WAV recording, by index. */
function loudFrames(file: string, level = 1500): { samples: Int16Array; frames: number[] } {
  const wav = readWav(file);
  const frames = frameLevels(wav.samples)
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l > level)
    .map(({ i }) => i);
  return { samples: wav.samples, frames };
}

const timers: ReturnType<typeof setInterval>[] = [];
afterEach(() => {
  for (const timer of timers.splice(0)) clearInterval(timer);
});

describe("the game's own audio in a call", () => {
  it('pushAudioInput: 44.1 kHz mono Float32 pushed in real time arrives at the other player as the same tone', async () => {
    const { alice, bob, lobbyId } = await twoInALobby();
    const dir = tempDir();
    const heard = path.join(dir, 'bob-hears.wav');
    await bob.client.setOutputDevice(`wav-out:${heard}`);
    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    const speaking: string[] = [];
    bobCall.on('speakingStatusChanged', (userId, on) => speaking.push(`${userId}:${on}`));

    // The game's voice chain: 44.1 kHz mono, pushed as the clock says, whatever the timer's jitter.
    const rate = 44_100;
    const started = performance.now();
    let sent = 0;
    timers.push(
      setInterval(() => {
        const due = Math.floor(((performance.now() - started) / 1000) * rate);
        const chunk = new Float32Array(Math.max(0, due - sent));
        for (let i = 0; i < chunk.length; i++)
          chunk[i] = 0.3 * Math.sin((2 * Math.PI * 523 * (sent + i)) / rate);
        sent += chunk.length;
        alice.client.pushAudioInput(chunk, rate, 1);
      }, 10),
    );
    await eventually(() => speaking.includes(`${alice.user.id}:true`), 5000, 'Alice speaking at Bob');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    clearInterval(timers.pop());
    await bob.client.endCall(lobbyId);
    await aliceCall.end();

    const { samples, frames } = loudFrames(heard);
    expect(frames.length).toBeGreaterThan(40);
    const tone = medianFrameTone(samples, frames, 523);
    expect(tone).toBeGreaterThan(4000);
    expect(tone).toBeGreaterThan(8 * medianFrameTone(samples, frames, 1000));
  });

  it('runs the captured callback on every frame of the silent default device, and sends what it writes', async () => {
    const { alice, bob, lobbyId } = await twoInALobby();
    const dir = tempDir();
    const heard = path.join(dir, 'bob-hears.wav');
    await bob.client.setOutputDevice(`wav-out:${heard}`);
    let phase = 0;
    let calls = 0;
    // No input device chosen (null): the callback is the microphone.
    const aliceCall = alice.client.startCallWithAudioCallbacks(
      lobbyId,
      () => false,
      (samples, samplesPerChannel) => {
        calls++;
        for (let i = 0; i < samplesPerChannel; i++, phase++) {
          const v = Math.round(8000 * Math.sin((2 * Math.PI * 660 * phase) / 48_000));
          samples[2 * i] = v;
          samples[2 * i + 1] = v;
        }
      },
    );
    const bobCall = bob.client.startCall(lobbyId);
    await eventually(
      () => aliceCall.getStatus() === 'Connected' && bobCall.getStatus() === 'Connected',
      10_000,
      'both connected',
    );
    const before = calls;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // About one call per 20 ms, though nothing was captured.
    expect(calls - before).toBeGreaterThan(50);
    await bob.client.endCall(lobbyId);
    await aliceCall.end();

    const { samples, frames } = loudFrames(heard);
    expect(frames.length).toBeGreaterThan(40);
    const tone = medianFrameTone(samples, frames, 660);
    expect(tone).toBeGreaterThan(4000);
    expect(tone).toBeGreaterThan(8 * medianFrameTone(samples, frames, 1000));
  });
});
