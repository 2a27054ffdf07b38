import type { KeyPackage, MlsMessage } from 'ts-mls';

import type { TsMls } from '@sdkpp/protocol/dave';
import { bytesEqual, credentialUserId, refKey } from '@sdkpp/protocol/dave';
import type { SentProposal } from './proposals.js';
import type { Leaf } from './roster.js';

/** What a member's commit does, once accepted: the gateway's proposals it commits, by kind. */
export interface CheckedCommit {
  /** The Removes, in commit order. */
  removes: SentProposal[];
  /** The Adds, in commit order. */
  adds: SentProposal[];
}

/** The gateway's view a commit is checked against. */
export interface CommitContext {
  /** The call's MLS group id. */
  groupId: Uint8Array;
  /** The epoch the gateway's proposals target. */
  epoch: bigint;
  /** The group's leaves (null: blank). */
  leaves: readonly (Leaf | null)[];
  /** The proposals not revoked. */
  open: readonly SentProposal[];
}

/** Why a member's key package cannot be proposed (DAVE's suite and credential), or undefined when it can. */
export function checkKeyPackage(userId: string, keyPackage: KeyPackage): string | undefined {
  if (keyPackage.cipherSuite !== 2) return `cipher suite ${keyPackage.cipherSuite}`;
  const { credential } = keyPackage.leafNode;
  if (credential.credentialType !== 1) return 'not a basic credential';
  if (credentialUserId(credential) !== userId) return 'credential is another user';
  return undefined;
}

/**
 * Gateway-side commit validity (dave-e2ee.md §1.5): a public commit by `userId`'s own leaf for the current
 * epoch, committing every open proposal by reference and nothing else, without changing the committer's
 * identity. Returns the Removes and Adds it commits, or why it is refused.
 */
export function checkCommit(
  mls: TsMls,
  userId: string,
  message: MlsMessage,
  group: CommitContext,
): string | CheckedCommit {
  if (message.wireformat !== mls.wireformats.mls_public_message) return 'not a PublicMessage';
  const { content } = message.publicMessage;
  if (content.contentType !== mls.contentTypes.commit) return 'not a commit';
  if (!bytesEqual(content.groupId, group.groupId)) return 'another group';
  if (content.epoch !== group.epoch) return `epoch ${content.epoch}, expected ${group.epoch}`;
  if (content.sender.senderType !== mls.senderTypes.member) return 'not from a member';
  const committer = group.leaves[content.sender.leafIndex];
  if (committer?.userId !== userId) return 'sender leaf is not the sending user';
  const refs: string[] = [];
  for (const item of content.commit.proposals) {
    if (item.proposalOrRefType !== mls.proposalOrRefTypes.reference) return 'a proposal by value';
    refs.push(refKey(item.reference));
  }
  if (refs.length === 0) return 'no proposals';
  const open = group.open;
  if (new Set(refs).size !== refs.length) return 'a proposal referenced twice';
  const referenced = refs.map((ref) => open.find((p) => p.ref === ref));
  if (referenced.some((p) => p === undefined)) return 'an unknown or revoked proposal';
  if (referenced.length !== open.length) return 'does not commit every proposal';
  const path = content.commit.path;
  if (path !== undefined) {
    const leaf = path.leafNode;
    if (credentialUserId(leaf.credential) !== userId) return 'committer changed its credential';
    if (committer.signatureKey && !bytesEqual(leaf.signaturePublicKey, committer.signatureKey)) {
      return 'committer changed its signature key';
    }
  }
  const chosen = referenced.filter((p): p is SentProposal => p !== undefined);
  return {
    removes: chosen.filter((p) => p.kind === 'remove'),
    adds: chosen.filter((p) => p.kind === 'add'),
  };
}
