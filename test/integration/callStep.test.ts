// The audio pump keeps step with the one call's transport: it hands over the microphone's frame just
// before the transport's tick (which sends it at once) and takes what a tick decoded just after it. Out of
// step, a frame waited up to two ticks to leave and up to one to be heard: 40 ms more mouth to ear.
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { eventually } from './helpers.js';
import { connected, tempDir, twoInALobby, writeToneWav } from './callHelpers.js';

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;

describe('the audio pump in step with the transport', () => {
  it.each([{ engine: 'native' as const }, { engine: 'js' as const }])(
    'reads the microphone just before a tick and hands each frame to the game just after one ($engine engine)',
    async ({ engine }) => {
      const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true, mediaEngine: engine });
      const toneIn = path.join(tempDir(), 'tone.wav');
      writeToneWav(toneIn, { hz: 440, seconds: 20, amplitude: 8000 });
      // How long before its next tick Alice's transport was when her pump read the microphone, and how
      // long after its last tick Bob's was when his pump handed him her frame (µs).
      const beforeTick: number[] = [];
      const afterTick: number[] = [];
      const aliceCall = alice.client.startCallWithAudioCallbacks(
        lobbyId,
        () => undefined,
        () => {
          const next = aliceCall.getTransportStats()?.nextTickInUs;
          if (next !== undefined) beforeTick.push(next);
        },
      );
      const bobCall = bob.client.startCallWithAudioCallbacks(
        lobbyId,
        (userId) => {
          const next = bobCall.getTransportStats()?.nextTickInUs;
          if (userId === alice.user.id && next !== undefined) afterTick.push(20_000 - next);
          return false;
        },
        () => undefined,
      );
      await connected(aliceCall);
      await connected(bobCall);
      await alice.client.setInputDevice(`wav-in:${toneIn}`);
      await eventually(() => afterTick.length >= 100, 10_000, "100 of Alice's frames at Bob");
      // Within one tick (a Node timer may fire up to a millisecond before its time, so the JS engine's
      // tick can begin a little early and its next deadline be a little over 20 ms away).
      for (const wait of [...beforeTick, ...afterTick]) {
        expect(wait).toBeGreaterThanOrEqual(-1_000);
        expect(wait).toBeLessThanOrEqual(21_000);
      }
      // Out of step each would spread over the whole 20 ms tick, with a median near 10 ms. The lead is
      // 5 ms and the lag 2 ms; a timer fires a millisecond or so late.
      expect(median(beforeTick)).toBeGreaterThan(3_000);
      expect(median(beforeTick)).toBeLessThan(6_000);
      expect(median(afterTick)).toBeLessThan(6_000);
    },
  );
});
