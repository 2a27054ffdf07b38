import type { ClientState, Credential, MlsMessage, MlsPublicMessage } from 'ts-mls';

import type { TsMls } from '@sdkpp/protocol/dave';
import { bytesEqual, credentialUserId } from '@sdkpp/protocol/dave';

/** The voice server's MLS external sender, as op 25 announced it. */
export interface ExternalSenderInfo {
  /** The sender's signature public key. */
  signaturePublicKey: Uint8Array;
  /** The sender's basic credential. */
  credential: Credential;
}

/** What a refused DAVE input leads to: `recover` sends op 31 and rejoins; `ignore` only logs. */
export type RefusalAction = 'recover' | 'ignore';

/** Why a DAVE input was refused, and what the session does about it. */
export class Refusal extends Error {
  /**
   * @param message - Logged as the reason.
   * @param action - Whether the session recovers or only logs.
   */
  constructor(
    message: string,
    readonly action: RefusalAction,
  ) {
    super(message);
  }
}

/** The identity bytes of a basic credential, or undefined for any other kind. */
export function credentialBytes(credential: Credential): Uint8Array | undefined {
  return 'identity' in credential ? credential.identity : undefined;
}

/** An error as one log-safe line. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * DAVE's credential rule: a member carries a basic credential whose identity is an 8-byte user id; the
 * only other identity allowed is the voice server's external sender from op 25.
 */
export function isDaveCredential(
  credential: Credential,
  signaturePublicKey: Uint8Array,
  sender: ExternalSenderInfo | undefined,
): boolean {
  const identity = credentialBytes(credential);
  const senderIdentity = sender ? credentialBytes(sender.credential) : undefined;
  const isSender =
    sender !== undefined &&
    identity !== undefined &&
    senderIdentity !== undefined &&
    bytesEqual(identity, senderIdentity) &&
    bytesEqual(signaturePublicKey, sender.signaturePublicKey);
  return isSender || credentialUserId(credential) !== undefined;
}

/**
 * DAVE's proposal rules (dave-e2ee.md §1.5, §3.2 item 3): a public Add or Remove from the external sender,
 * for our group and epoch, an Add only of a user the call announced. Throws a {@link Refusal} to ignore
 * the batch.
 */
export function checkProposal(
  mls: TsMls,
  state: ClientState,
  message: MlsMessage,
  recognized: ReadonlySet<string>,
): void {
  if (message.wireformat !== mls.wireformats.mls_public_message)
    throw new Refusal('not a PublicMessage', 'ignore');
  const { content } = message.publicMessage;
  if (content.contentType !== mls.contentTypes.proposal) throw new Refusal('not a proposal', 'ignore');
  if (content.sender.senderType !== mls.senderTypes.external || content.sender.senderIndex !== 0) {
    throw new Refusal('proposal not from the external sender', 'ignore');
  }
  if (!bytesEqual(content.groupId, state.groupContext.groupId)) throw new Refusal('another group', 'ignore');
  if (content.epoch !== state.groupContext.epoch) {
    throw new Refusal(`proposal for epoch ${content.epoch}, we are at ${state.groupContext.epoch}`, 'ignore');
  }
  const { proposal } = content;
  if (proposal.proposalType === mls.defaultProposalTypes.add && 'add' in proposal) {
    const userId = credentialUserId(proposal.add.keyPackage.leafNode.credential);
    if (userId === undefined) throw new Refusal('Add without a DAVE credential', 'ignore');
    if (!recognized.has(userId)) throw new Refusal(`Add of unrecognized user ${userId}`, 'ignore');
  } else if (proposal.proposalType !== mls.defaultProposalTypes.remove) {
    throw new Refusal(`proposal type ${proposal.proposalType}`, 'ignore');
  }
}

/**
 * DAVE's rules for another member's commit (op 29), before MLS processes it: a public commit by a member
 * of our group at `epoch`, referencing the external sender's proposals only (never carrying one by value).
 * Throws a {@link Refusal}; a commit for another group or epoch is ignored, a malformed one recovers.
 */
export function checkCommit(
  mls: TsMls,
  message: MlsMessage,
  groupId: Uint8Array,
  epoch: bigint,
): asserts message is MlsPublicMessage {
  if (message.wireformat !== mls.wireformats.mls_public_message) {
    throw new Refusal('commit is not a PublicMessage', 'recover');
  }
  const { content } = message.publicMessage;
  if (content.contentType !== mls.contentTypes.commit) throw new Refusal('not a commit', 'recover');
  if (!bytesEqual(content.groupId, groupId)) throw new Refusal('commit for another group', 'ignore');
  if (content.epoch !== epoch) {
    throw new Refusal(`commit for epoch ${content.epoch}, we are at ${epoch}`, 'ignore');
  }
  if (content.sender.senderType !== mls.senderTypes.member)
    throw new Refusal('commit not from a member', 'recover');
  if (content.commit.proposals.some((p) => p.proposalOrRefType !== mls.proposalOrRefTypes.reference)) {
    throw new Refusal('commit carries a proposal by value', 'recover');
  }
}

/**
 * The group a Welcome put us in must be ours and name exactly one external sender, op 25's; throws a
 * {@link Refusal} that recovers otherwise.
 */
export function checkWelcomedGroup(
  mls: TsMls,
  state: ClientState,
  groupId: Uint8Array,
  sender: ExternalSenderInfo,
): void {
  if (!bytesEqual(state.groupContext.groupId, groupId))
    throw new Refusal('Welcome to another group', 'recover');
  const senders = state.groupContext.extensions.filter(
    (e) => e.extensionType === mls.defaultExtensionTypes.external_senders,
  );
  const only = senders[0]?.extensionData as ExternalSenderInfo | undefined;
  // The patched codec refuses any count but one inside the extension; here: one extension, op 25's sender.
  const onlyIdentity = only ? credentialBytes(only.credential) : undefined;
  const expectedIdentity = credentialBytes(sender.credential);
  if (
    senders.length !== 1 ||
    !only ||
    !bytesEqual(only.signaturePublicKey, sender.signaturePublicKey) ||
    onlyIdentity === undefined ||
    expectedIdentity === undefined ||
    !bytesEqual(onlyIdentity, expectedIdentity)
  ) {
    throw new Refusal('the group’s external sender is not the voice server’s', 'recover');
  }
}

/** DAVE's roster rule: every leaf a DAVE user, each user once; throws a {@link Refusal} that recovers. */
export function checkRoster(state: ClientState): void {
  const seen = new Set<string>();
  for (const node of state.ratchetTree) {
    if (node?.nodeType !== 1) continue;
    const userId = credentialUserId(node.leaf.credential);
    if (userId === undefined) throw new Refusal('a member without a DAVE credential', 'recover');
    if (seen.has(userId)) throw new Refusal(`duplicate identity ${userId} in the roster`, 'recover');
    seen.add(userId);
  }
}
