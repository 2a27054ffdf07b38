import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

import { concatBytes, u16, withLength } from '@sdkpp/protocol/dave';

// The voice server's MLS external sender (dave-e2ee.md §4.1): a P-256 key of its own, the op 25 package that
// tells members about it, and the external Add/Remove proposals it signs. The bytes are built here by hand
// (they are a few fields of RFC 9420's PublicMessage) and checked by ts-mls and davey in the tests.

const PROTOCOL_MLS10 = u16(1);
const WIRE_PUBLIC_MESSAGE = u16(1);
const SENDER_EXTERNAL = 2;
const CONTENT_PROPOSAL = 2;
const PROPOSAL_ADD = 1;
const PROPOSAL_REMOVE = 3;
const CREDENTIAL_BASIC = u16(1);
const TBS_LABEL = new TextEncoder().encode('MLS 1.0 FramedContentTBS');

/** An external proposal's content: Add a member's bare KeyPackage, or Remove a leaf. */
export type ExternalProposal = { add: Uint8Array } | { remove: number };

/** One external sender identity (one per call). */
export class ExternalSender {
  readonly #privateKey: KeyObject;
  /** The 65-byte uncompressed P-256 public key. */
  readonly publicKey: Uint8Array;
  /** The basic credential's identity: one zero byte, as in Discord's captures. */
  readonly identity = Uint8Array.of(0);
  /** The op 25 payload: RFC 9420 `ExternalSender` (signature key, basic credential). */
  readonly package: Uint8Array;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    const spki = publicKey.export({ format: 'der', type: 'spki' });
    this.publicKey = new Uint8Array(spki.subarray(spki.length - 65));
    this.package = concatBytes(withLength(this.publicKey), CREDENTIAL_BASIC, withLength(this.identity));
  }

  /**
   * A signed PublicMessage (as an MLSMessage) proposing `proposal` to group `groupId` at `epoch`, from
   * external sender index 0, with empty authenticated data and no membership tag.
   */
  propose(groupId: Uint8Array, epoch: bigint, proposal: ExternalProposal): Uint8Array {
    const epochBytes = new Uint8Array(8);
    new DataView(epochBytes.buffer).setBigUint64(0, epoch);
    const body =
      'add' in proposal
        ? concatBytes(u16(PROPOSAL_ADD), proposal.add)
        : concatBytes(u16(PROPOSAL_REMOVE), u32(proposal.remove));
    const framedContent = concatBytes(
      withLength(groupId),
      epochBytes,
      Uint8Array.of(SENDER_EXTERNAL),
      u32(0),
      withLength(new Uint8Array(0)),
      Uint8Array.of(CONTENT_PROPOSAL),
      body,
    );
    // FramedContentTBS of a non-member sender carries no GroupContext.
    const tbs = concatBytes(PROTOCOL_MLS10, WIRE_PUBLIC_MESSAGE, framedContent);
    const signature = sign('sha256', concatBytes(withLength(TBS_LABEL), withLength(tbs)), this.#privateKey);
    return concatBytes(PROTOCOL_MLS10, WIRE_PUBLIC_MESSAGE, framedContent, withLength(signature));
  }
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}
