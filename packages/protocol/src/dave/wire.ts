import { createHash } from 'node:crypto';

import { VoiceOpcode } from '../voiceGateway.js';

// The few byte-level pieces of RFC 9420's TLS presentation language that DAVE's wire needs outside of
// ts-mls: variable-length integer prefixes (<V>), big/little-endian ids, and ProposalRef. Shared by the
// client session (sdkpp's src/media/dave/session) and the emulator's voice gateway (its src/voice/dave).

/** DAVE opcodes of the voice gateway (dave-e2ee.md §1.2), by their DAVE names; the numbers are the gateway's. */
export const DaveOp = {
  PrepareTransition: VoiceOpcode.DavePrepareTransition,
  ExecuteTransition: VoiceOpcode.DaveExecuteTransition,
  TransitionReady: VoiceOpcode.DaveTransitionReady,
  PrepareEpoch: VoiceOpcode.DavePrepareEpoch,
  ExternalSender: VoiceOpcode.DaveMlsExternalSender,
  KeyPackage: VoiceOpcode.DaveMlsKeyPackage,
  Proposals: VoiceOpcode.DaveMlsProposals,
  CommitWelcome: VoiceOpcode.DaveMlsCommitWelcome,
  AnnounceCommit: VoiceOpcode.DaveMlsAnnounceCommitTransition,
  Welcome: VoiceOpcode.DaveMlsWelcome,
  InvalidCommitWelcome: VoiceOpcode.DaveMlsInvalidCommitWelcome,
} as const;

/** The DAVE protocol version this implementation speaks (and the highest it supports). */
export const DAVE_PROTOCOL_VERSION = 1;

/** The `<V>` length prefix of `length` (1, 2 or 4 bytes). */
export function varintPrefix(length: number): Uint8Array {
  if (length < 0x40) return Uint8Array.of(length);
  if (length < 0x4000) return Uint8Array.of(0x40 | (length >> 8), length & 0xff);
  if (length < 0x40000000) {
    return Uint8Array.of(0x80 | (length >>> 24), (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff);
  }
  throw new RangeError(`MLS vector too long: ${length}`);
}

/** `bytes` with its `<V>` length prefix. */
export function withLength(bytes: Uint8Array): Uint8Array {
  return concatBytes(varintPrefix(bytes.length), bytes);
}

/**
 * Reads a `<V>` vector at `offset`: its body and the offset after it, or `undefined` when the input is too
 * short or the prefix is not minimal-length valid.
 */
export function readVector(
  bytes: Uint8Array,
  offset: number,
): { body: Uint8Array; next: number } | undefined {
  const first = bytes[offset];
  if (first === undefined) return undefined;
  const prefix = 1 << (first >> 6);
  if (prefix === 8 || offset + prefix > bytes.length) return undefined;
  let length = first & 0x3f;
  for (let i = 1; i < prefix; i++) length = length * 256 + (bytes[offset + i] ?? 0);
  const start = offset + prefix;
  if (start + length > bytes.length) return undefined;
  return { body: bytes.subarray(start, start + length), next: start + length };
}

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Byte equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A snowflake (decimal string) as 8 bytes big-endian: DAVE's group id and credential identity. */
export function snowflakeBE64(id: string): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt.asUintN(64, BigInt(id)));
  return out;
}

/** A snowflake as 8 bytes little-endian: the MLS exporter context of a sender key. */
export function snowflakeLE64(id: string): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt.asUintN(64, BigInt(id)), true);
  return out;
}

/** The user id (decimal) of an 8-byte big-endian credential identity, or `undefined` for another length. */
export function identityToUserId(identity: Uint8Array): string | undefined {
  if (identity.length !== 8) return undefined;
  return new DataView(identity.buffer, identity.byteOffset, 8).getBigUint64(0).toString();
}

/** A big-endian u16. */
export function u16(value: number): Uint8Array {
  return Uint8Array.of((value >> 8) & 0xff, value & 0xff);
}

/**
 * RFC 9420 ProposalRef of a proposal sent as a PublicMessage: `RefHash("MLS 1.0 Proposal Reference",
 * AuthenticatedContent)`, where AuthenticatedContent is the MLSMessage without its 2-byte version.
 */
export function proposalRef(mlsMessage: Uint8Array): Uint8Array {
  const label = new TextEncoder().encode('MLS 1.0 Proposal Reference');
  return new Uint8Array(
    createHash('sha256')
      .update(withLength(label))
      .update(withLength(mlsMessage.subarray(2)))
      .digest(),
  );
}

/** Base64 of bytes: the key ts-mls uses for `unappliedProposals`. */
export function refKey(ref: Uint8Array): string {
  return Buffer.from(ref.buffer, ref.byteOffset, ref.byteLength).toString('base64');
}

/** The user id of a basic credential (8-byte big-endian identity); `undefined` for any other credential. */
export function credentialUserId(credential: { credentialType: number }): string | undefined {
  if (credential.credentialType !== 1 || !('identity' in credential)) return undefined;
  const { identity } = credential as { identity: unknown };
  return identity instanceof Uint8Array ? identityToUserId(identity) : undefined;
}
