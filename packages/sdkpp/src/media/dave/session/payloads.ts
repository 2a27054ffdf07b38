import { Refusal, type ExternalSenderInfo } from './validation.js';
import { readVector, refKey } from '@sdkpp/protocol/dave';

/** The big-endian u16 at the start of `bytes` (a transition id in ops 29 and 30). */
export function readU16(bytes: Uint8Array): number {
  return (bytes[0] ?? 0) * 256 + (bytes[1] ?? 0);
}

/** Op 25's RFC 9420 `ExternalSender` (signature key, basic credential); throws a {@link Refusal} when malformed. */
export function parseExternalSender(payload: Uint8Array): ExternalSenderInfo {
  const key = readVector(payload, 0);
  const type = key ? (payload[key.next] ?? 0) * 256 + (payload[key.next + 1] ?? 0) : -1;
  const identity = key ? readVector(payload, key.next + 2) : undefined;
  if (!key || type !== 1 || !identity || identity.next !== payload.length) {
    throw new Refusal('malformed external sender package', 'ignore');
  }
  return {
    signaturePublicKey: key.body.slice(),
    credential: { credentialType: 1, identity: identity.body.slice() },
  };
}

/**
 * Op 27's envelope: `append` with the concatenated MLSMessages (decoded one by one by the caller, which
 * checks each as it goes), or `revoke` with the proposal references (as {@link refKey} strings). Throws a
 * {@link Refusal} when malformed.
 */
export function parseProposals(
  payload: Uint8Array,
): { operation: 'append'; messages: Uint8Array } | { operation: 'revoke'; refs: Set<string> } {
  const operation = payload[0];
  const vector = readVector(payload, 1);
  if (vector?.next !== payload.length || (operation !== 0 && operation !== 1)) {
    throw new Refusal('malformed proposals payload', 'ignore');
  }
  if (operation === 0) return { operation: 'append', messages: vector.body };
  const refs = new Set<string>();
  for (let at = 0; at < vector.body.length;) {
    const ref = readVector(vector.body, at);
    if (!ref) throw new Refusal('malformed revoke payload', 'ignore');
    at = ref.next;
    refs.add(refKey(ref.body));
  }
  return { operation: 'revoke', refs };
}
