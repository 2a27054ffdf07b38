import type { CiphersuiteImpl, ClientState, KeyPackage, PrivateKeyPackage } from 'ts-mls';

import { generateP256KeyPair } from '@sdkpp/protocol/dave';
import { EpochSenderKeys } from '@sdkpp/protocol/dave';
import type { TsMls } from '@sdkpp/protocol/dave';
import { credentialUserId, snowflakeBE64 } from '@sdkpp/protocol/dave';

/** A member of a DAVE group: its user id and leaf signature key. */
export interface GroupMember {
  /** The member's user id (snowflake). */
  userId: string;
  /** The leaf's signature public key (the verification code's source). */
  signatureKey: Uint8Array;
}

/** Our key package with its private half. */
export interface OwnKeyPackage {
  /** What op 26 sends. */
  publicPackage: KeyPackage;
  /** The keys joining or creating a group needs. */
  privatePackage: PrivateKeyPackage;
}

/** A fresh key package for `userId` with a new P-256 signature key, shaped as DAVE's leaf must be. */
export function generateDaveKeyPackage(
  mls: TsMls,
  cipherSuite: CiphersuiteImpl,
  userId: string,
): Promise<OwnKeyPackage> {
  return mls.generateKeyPackageWithKey({
    credential: { credentialType: mls.defaultCredentialTypes.basic, identity: snowflakeBE64(userId) },
    // DAVE's leaf (dave-e2ee.md §1.6): MLS 1.0, suite 2, basic credentials, no GREASE, lifetime 0..2^64-1.
    capabilities: { versions: [1], ciphersuites: [2], extensions: [], proposals: [], credentials: [1] },
    lifetime: { notBefore: 0n, notAfter: 2n ** 64n - 1n },
    extensions: [],
    signatureKeyPair: generateP256KeyPair(),
    cipherSuite,
  });
}

/** The DAVE members of a group in leaf order (none for no group). */
export function groupMembers(state: ClientState | undefined): GroupMember[] {
  if (!state) return [];
  const out: GroupMember[] = [];
  for (const node of state.ratchetTree) {
    if (node?.nodeType !== 1) continue;
    const userId = credentialUserId(node.leaf.credential);
    if (userId !== undefined) out.push({ userId, signatureKey: node.leaf.signaturePublicKey });
  }
  return out;
}

const epochKeys = new WeakMap<ClientState, EpochSenderKeys>();

/**
 * `userId`'s 16-byte media base secret in the epoch of `state` (DAVE protocol version 1). The epoch's
 * exporter step is kept with the state (a WeakMap, so it goes with the state), and each member then costs
 * three SHA-256 calls (see EpochSenderKeys).
 */
export function exportSenderKey(state: ClientState, userId: string): Uint8Array {
  let keys = epochKeys.get(state);
  if (!keys) {
    keys = new EpochSenderKeys(state.keySchedule.exporterSecret);
    epochKeys.set(state, keys);
  }
  return keys.keyFor(userId);
}
