/**
 * A client's DAVE transition bookkeeping: the transitions announced (op 21, or entered by a commit or
 * welcome) and not yet executed, with the protocol version each leads to, and the ids op 31 needs.
 */
export class PendingTransitions {
  readonly #pending = new Map<number, number>();
  /** The last transition executed: the one a decrypt-failure recovery reports in op 31. */
  lastExecuted = 0;
  /** The op 29/30 transition being handled: the one a failed commit or welcome reports in op 31. */
  current = 0;

  /** How many transitions wait for their execution. */
  get size(): number {
    return this.#pending.size;
  }

  /** Records that transition `tid` leads to protocol `version` once executed. */
  prepare(tid: number, version: number): void {
    this.#pending.set(tid, version);
  }

  /** Whether transition `tid` was announced and not yet executed. */
  has(tid: number): boolean {
    return this.#pending.has(tid);
  }

  /**
   * Takes transition `tid` out for execution: its protocol version, or undefined when it is unknown (then
   * {@link PendingTransitions.lastExecuted} stays as it was).
   */
  take(tid: number): number | undefined {
    const version = this.#pending.get(tid);
    this.#pending.delete(tid);
    if (version !== undefined) this.lastExecuted = tid;
    return version;
  }

  /** Forgets every pending transition (they belonged to a group we left). */
  clear(): void {
    this.#pending.clear();
  }
}
