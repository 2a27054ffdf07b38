import { concatBytes, proposalRef, refKey, withLength } from '@sdkpp/protocol/dave';
import type { ExternalProposal, ExternalSender } from './externalSender.js';

/** A proposal the gateway sent for the current epoch. */
export interface SentProposal {
  /** The proposal's reference (base64), as commits name it. */
  ref: string;
  /** What it proposes. */
  kind: 'add' | 'remove';
  /** The user added or removed. */
  userId: string;
  /** Add: the KeyPackage's leaf signature key. */
  signatureKey?: Uint8Array;
  /** Add: the KeyPackage proposed (a newer one from the same user revokes this proposal). */
  keyPackage?: Uint8Array;
  /** Remove: the leaf index. */
  leafIndex?: number;
  /** Withdrawn by an op 27 revoke; a commit may no longer reference it. */
  revoked: boolean;
}

/**
 * The external proposals of one epoch: each is signed by the call's external sender and remembered by its
 * reference, so that a member's commit can be matched against what the gateway actually proposed.
 */
export class ProposalLog {
  readonly #sender: ExternalSender;
  readonly #groupId: Uint8Array;
  #sent: SentProposal[] = [];

  /**
   * @param sender - Signs the proposals.
   * @param groupId - The MLS group they are for.
   */
  constructor(sender: ExternalSender, groupId: Uint8Array) {
    this.#sender = sender;
    this.#groupId = groupId;
  }

  /** The proposals not revoked: the ones a commit must reference, all of them. */
  open(): SentProposal[] {
    return this.#sent.filter((p) => !p.revoked);
  }

  /** Whether an open proposal of `kind` for `userId` is out. */
  pending(kind: 'add' | 'remove', userId: string): boolean {
    return this.#sent.some((p) => !p.revoked && p.kind === kind && p.userId === userId);
  }

  /** Signs `proposal` for `epoch` and records it; returns the MLSMessage for op 27. */
  propose(
    epoch: bigint,
    proposal: ExternalProposal,
    record: Omit<SentProposal, 'ref' | 'revoked'>,
  ): Uint8Array {
    const message = this.#sender.propose(this.#groupId, epoch, proposal);
    this.#sent.push({ ...record, ref: refKey(proposalRef(message)), revoked: false });
    return message;
  }

  /** Marks the open proposals `stale` picks as revoked; returns them. */
  revoke(stale: (p: SentProposal) => boolean): SentProposal[] {
    const revoked = this.#sent.filter((p) => !p.revoked && stale(p));
    for (const p of revoked) p.revoked = true;
    return revoked;
  }

  /** Forgets every proposal: a new epoch (or group) makes them void. */
  clear(): void {
    this.#sent = [];
  }
}

/** The op 27 payload that appends proposals: operation 0 and the MLSMessages as one vector. */
export function appendProposalsPayload(messages: Uint8Array[]): Uint8Array {
  return concatBytes(Uint8Array.of(0), withLength(concatBytes(...messages)));
}

/** The op 27 payload that revokes proposals: operation 1 and their references as one vector. */
export function revokeProposalsPayload(proposals: readonly SentProposal[]): Uint8Array {
  const refs = proposals.map((p) => withLength(Buffer.from(p.ref, 'base64')));
  return concatBytes(Uint8Array.of(1), withLength(concatBytes(...refs)));
}
