import { describe, expect, it } from 'vitest';

import { SendBudget } from '../../../packages/sdkpp/src/gateway/SendBudget.js';
import { FakeClock } from '../../fakes/FakeClock.js';

describe('SendBudget', () => {
  it('sends up to the limit per window, then waits in order without dropping', () => {
    const clock = new FakeClock();
    const sent: string[] = [];
    const budget = new SendBudget(clock, (t) => sent.push(t), 3, 1000);
    budget.start();
    for (let i = 0; i < 7; i++) budget.enqueue(`m${i}`);
    expect(sent).toEqual(['m0', 'm1', 'm2']);
    clock.advance(999);
    expect(sent).toHaveLength(3);
    clock.advance(1);
    expect(sent).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    clock.advance(1000);
    expect(sent).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    expect(budget.pending).toBe(0);
  });

  it('holds payloads while the socket is not ready, and keeps them across a reset', () => {
    const clock = new FakeClock();
    const sent: string[] = [];
    const budget = new SendBudget(clock, (t) => sent.push(t), 3, 1000);
    budget.enqueue('early');
    expect(sent).toEqual([]);
    budget.start();
    expect(sent).toEqual(['early']);
    budget.reset();
    budget.enqueue('during-reconnect');
    expect(sent).toEqual(['early']);
    budget.start();
    expect(sent).toEqual(['early', 'during-reconnect']);
    budget.clear();
    budget.enqueue('x');
    expect(sent).toHaveLength(2);
  });
});
