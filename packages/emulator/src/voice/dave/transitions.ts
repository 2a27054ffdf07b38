import type { Clock, TimerHandle } from '@sdkpp/protocol';

/** One announced transition: who takes part, and who has not answered op 23 yet. */
export interface ServerTransition {
  /** The transition id (1…65535; 0 is reserved for (re)initialisation). */
  readonly id: number;
  /** Participants whose op 23 is still missing. */
  readonly waiting: Set<string>;
  /** The members that get op 22. */
  readonly participants: Set<string>;
  /** Executes the transition anyway when it fires. */
  readonly timer: TimerHandle;
}

/** What a {@link TransitionTracker} needs from its coordinator. */
export interface TransitionTrackerOptions {
  /** Time source for the timeout. */
  clock: Clock;
  /** How long to wait for every participant's op 23. */
  timeoutMs: number;
  /** The timeout fired for `transition` (the coordinator queues it behind earlier inputs). */
  onTimeout: (transition: ServerTransition) => void;
  /** `transition` is executed: send op 22 to its participants. */
  onExecute: (transition: ServerTransition) => void;
}

/**
 * The voice server's side of DAVE transitions: at most one in flight, executed once every participant
 * answered op 23 or left, or when the timeout passes (a member that never answers must not stall the call).
 */
export class TransitionTracker {
  readonly #o: TransitionTrackerOptions;
  #current: ServerTransition | undefined;
  #nextId = 1;

  /** @param options - Clock, timeout and the coordinator's callbacks. */
  constructor(options: TransitionTrackerOptions) {
    this.#o = options;
  }

  /** The transition in flight, if any. */
  get current(): ServerTransition | undefined {
    return this.#current;
  }

  /** A fresh transition id, wrapping within 1…65535. */
  newId(): number {
    const id = this.#nextId;
    this.#nextId = id >= 0xffff ? 1 : id + 1; // 0 is reserved for (re)initialisation
    return id;
  }

  /** Waits for op 23 of every participant (or the timeout) before op 22; replaces any earlier one. */
  start(id: number, participants: Set<string>): void {
    if (this.#current) this.#o.clock.clearTimeout(this.#current.timer);
    const transition: ServerTransition = {
      id,
      waiting: new Set(participants),
      participants,
      timer: this.#o.clock.setTimeout(() => {
        this.#o.onTimeout(transition);
      }, this.#o.timeoutMs),
    };
    this.#current = transition;
  }

  /** Op 23 from `userId` for transition `id`; the last answer executes it. */
  ready(userId: string, id: number): void {
    const transition = this.#current;
    if (transition?.id !== id) return;
    transition.waiting.delete(userId);
    if (transition.waiting.size === 0) this.execute(transition);
  }

  /** Executes `transition` now. */
  execute(transition: ServerTransition): void {
    this.#o.clock.clearTimeout(transition.timer);
    if (this.#current === transition) this.#current = undefined;
    this.#o.onExecute(transition);
  }

  /** `userId` no longer takes part; if it was the last one waited for, the transition executes. */
  drop(userId: string): void {
    const transition = this.#current;
    if (!transition) return;
    transition.participants.delete(userId);
    if (transition.waiting.delete(userId) && transition.waiting.size === 0) this.execute(transition);
  }

  /** Abandons the transition in flight without op 22 (the group it was for is gone). */
  cancel(): void {
    if (this.#current) this.#o.clock.clearTimeout(this.#current.timer);
    this.#current = undefined;
  }
}
