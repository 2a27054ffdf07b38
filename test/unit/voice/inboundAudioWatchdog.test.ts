import { describe, expect, it } from 'vitest';

import {
  INBOUND_STALL_MS,
  InboundAudioWatchdog,
  MAX_INBOUND_RECOVERIES,
  type InboundVerdict,
} from '../../../packages/sdkpp/src/voice/connection/InboundAudioWatchdog.js';

/** Polls every 20 ms from `from` to `to` with a fixed counter; returns the verdicts that were not ok. */
function run(
  dog: InboundAudioWatchdog,
  from: number,
  to: number,
  received: number,
  othersSpeaking: boolean,
): [number, InboundVerdict][] {
  const out: [number, InboundVerdict][] = [];
  for (let t = from; t <= to; t += 20) {
    const verdict = dog.observe({ nowMs: t, received, othersSpeaking });
    if (verdict.kind !== 'ok') out.push([t, verdict]);
  }
  return out;
}

describe('InboundAudioWatchdog', () => {
  it('says nothing while nobody speaks, however long nothing arrives', () => {
    const dog = new InboundAudioWatchdog();
    dog.resetCount(0);
    expect(run(dog, 0, 60_000, 5, false)).toEqual([]);
  });

  it('reports a stall once others spoke for the stall time with nothing arriving, then backs off and gives up', () => {
    const dog = new InboundAudioWatchdog();
    dog.resetCount(0);
    run(dog, 0, 1000, 0, false);
    const verdicts = run(dog, 1020, 60_000, 0, true);
    // Waits of 2.5 s, 5 s and 10 s, then it gives up at the next 20 s and stays quiet.
    expect(verdicts.map(([t, v]) => [t - 1020, v.kind])).toEqual([
      [INBOUND_STALL_MS, 'stalled'],
      [INBOUND_STALL_MS * 3, 'stalled'],
      [INBOUND_STALL_MS * 7, 'stalled'],
      [INBOUND_STALL_MS * 15, 'gave-up'],
    ]);
    expect(verdicts.filter(([, v]) => v.kind === 'stalled')).toHaveLength(MAX_INBOUND_RECOVERIES);
  });

  it('reports audio flowing again, with how long it was missing, and starts over', () => {
    const dog = new InboundAudioWatchdog(1000);
    dog.resetCount(0);
    expect(run(dog, 0, 1000, 7, true).map(([t, v]) => [t, v.kind])).toEqual([[1000, 'stalled']]);
    // The recovery brings a new transport, counting from zero.
    dog.resetCount(1100);
    expect(dog.observe({ nowMs: 1100, received: 0, othersSpeaking: true }).kind).toBe('ok');
    expect(dog.observe({ nowMs: 1300, received: 3, othersSpeaking: true })).toEqual({
      kind: 'recovered',
      stalledMs: 1300,
    });
    expect(run(dog, 1320, 2200, 3, true)).toEqual([]);
    expect(run(dog, 2220, 2400, 3, true).map(([, v]) => v.kind)).toEqual(['stalled']);
  });

  it('counts the wait from when others start speaking, not from the last packet of a quiet spell', () => {
    const dog = new InboundAudioWatchdog(1000);
    dog.resetCount(0);
    run(dog, 0, 10_000, 4, false);
    expect(run(dog, 10_020, 10_980, 4, true)).toEqual([]);
    expect(run(dog, 11_000, 11_040, 4, true).map(([, v]) => v.kind)).toEqual(['stalled']);
  });
});
