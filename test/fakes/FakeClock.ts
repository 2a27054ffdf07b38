import type { Clock, TimerHandle } from '../../packages/protocol/src/base/Clock.js';

interface Timer {
  at: number;
  callback: () => void;
  id: number;
}

/** A clock whose time moves only when a test advances it. */
export class FakeClock implements Clock {
  #now = 1_700_000_000_000;
  #nextId = 1;
  #timers: Timer[] = [];

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer = { at: this.#now + Math.max(0, ms), callback, id: this.#nextId++ };
    this.#timers.push(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    this.#timers = this.#timers.filter((t) => t !== handle);
  }

  /** Number of pending timers. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Moves time forward, firing due timers in order (including ones they schedule). */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = due.at;
      due.callback();
    }
    this.#now = target;
  }
}
