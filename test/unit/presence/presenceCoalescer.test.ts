import { describe, expect, it } from 'vitest';

import { PresenceCoalescer } from '../../../packages/sdkpp/src/presence/PresenceCoalescer.js';
import { FakeClock } from '../../fakes/FakeClock.js';

describe('PresenceCoalescer', () => {
  it('sends 5 per 20 s, coalesces the rest, and always sends the last update', () => {
    const clock = new FakeClock();
    const sent: number[] = [];
    const coalescer = new PresenceCoalescer<number>(clock, (n) => sent.push(n));
    for (let n = 1; n <= 12; n++) {
      coalescer.submit(n);
      clock.advance(100);
    }
    expect(sent).toEqual([1, 2, 3, 4, 5]);
    expect(coalescer.hasPending).toBe(true);
    clock.advance(20_000 - 1_200);
    expect(sent).toEqual([1, 2, 3, 4, 5, 12]);
    expect(coalescer.hasPending).toBe(false);
  });

  it('never exceeds the limit in any 20 s window under a steady stream', () => {
    const clock = new FakeClock();
    const times: number[] = [];
    const values: number[] = [];
    const coalescer = new PresenceCoalescer<number>(clock, (n) => {
      times.push(clock.now());
      values.push(n);
    });
    for (let n = 1; n <= 300; n++) {
      coalescer.submit(n);
      clock.advance(250);
    }
    clock.advance(40_000);
    for (const t of times)
      expect(times.filter((u) => u >= t && u < t + 20_000).length).toBeLessThanOrEqual(5);
    expect(coalescer.hasPending).toBe(false);
    expect(values.at(-1)).toBe(300);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });

  it('cancel() drops the waiting update', () => {
    const clock = new FakeClock();
    const sent: number[] = [];
    const coalescer = new PresenceCoalescer<number>(clock, (n) => sent.push(n), 1, 1000);
    coalescer.submit(1);
    coalescer.submit(2);
    coalescer.cancel();
    clock.advance(5000);
    expect(sent).toEqual([1]);
  });
});
