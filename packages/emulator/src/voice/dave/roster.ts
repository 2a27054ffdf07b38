import type { SentProposal } from './proposals.js';

/** A leaf of the group as the gateway sees it. */
export interface Leaf {
  /** The member's user id. */
  userId: string;
  /** The signature key from the member's key package (undefined right after a sole-member reset). */
  signatureKey: Uint8Array | undefined;
}

/**
 * The gateway's copy of the group's leaves after the last accepted commit. It holds no MLS state, only who
 * sits in which leaf, which is all a Remove proposal and the commit checks need.
 */
export class Roster {
  #leaves: (Leaf | null)[] = [];

  /** The leaves in order (null: blank). */
  get leaves(): readonly (Leaf | null)[] {
    return this.#leaves;
  }

  /** The user ids in the group, in leaf order. */
  get memberIds(): string[] {
    return this.#leaves.filter((l): l is Leaf => l !== null).map((l) => l.userId);
  }

  /** Whether no leaf is taken (no group yet, or every member removed). */
  get empty(): boolean {
    return this.#leaves.every((l) => l === null);
  }

  /** `userId`'s leaf index, or -1. */
  indexOf(userId: string): number {
    return this.#leaves.findIndex((l) => l?.userId === userId);
  }

  /** `userId`'s leaf, or undefined when not in the group. */
  leafOf(userId: string): Leaf | undefined {
    return this.#leaves.find((l): l is Leaf => l?.userId === userId);
  }

  /** Replaces the roster (a new group: none, or one founding member). */
  reset(leaves: Leaf[]): void {
    this.#leaves = leaves;
  }

  /**
   * Applies an accepted commit as RFC 9420 §12.3 does: Removes first, then Adds in commit order, each into
   * the leftmost blank leaf; trailing blanks are dropped so the next Add lands where MLS puts it.
   */
  apply(removes: readonly SentProposal[], adds: readonly SentProposal[]): void {
    for (const p of removes) if (p.leafIndex !== undefined) this.#leaves[p.leafIndex] = null;
    while (this.#leaves.length > 0 && this.#leaves[this.#leaves.length - 1] === null) this.#leaves.pop();
    for (const p of adds) {
      const leaf = { userId: p.userId, signatureKey: p.signatureKey };
      const blank = this.#leaves.indexOf(null);
      if (blank >= 0) this.#leaves[blank] = leaf;
      else this.#leaves.push(leaf);
    }
  }
}
