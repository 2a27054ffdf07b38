import { scrypt } from 'node:crypto';

import { concatBytes, snowflakeBE64 } from '@sdkpp/protocol/dave';

/**
 * DAVE's displayable code (dave-e2ee.md §1.10): `length / groupSize` groups, each the next `groupSize` bytes
 * of `data` read as a big-endian integer, reduced modulo 10^groupSize and zero-padded.
 */
export function displayableCode(data: Uint8Array, length: number, groupSize: number): string {
  if (length % groupSize !== 0 || groupSize > 6 || data.length < length) {
    throw new RangeError('displayable code: bad length or group size');
  }
  const modulus = 10 ** groupSize;
  let out = '';
  for (let at = 0; at < length; at += groupSize) {
    let value = 0;
    for (let i = 0; i < groupSize; i++) value = value * 256 + (data[at + i] ?? 0);
    out += String(value % modulus).padStart(groupSize, '0');
  }
  return out;
}

/** The 30-digit voice privacy code of an epoch authenticator. */
export function privacyCode(epochAuthenticator: Uint8Array): string {
  return displayableCode(epochAuthenticator, 30, 5);
}

const FINGERPRINT_SALT = Buffer.from('24cab17a7af8ec2b82b412b92dab192e', 'hex');

/** One user's key fingerprint input: u16 version 0 ‖ signature key ‖ BE64 user id. */
function fingerprintInput(signatureKey: Uint8Array, userId: string): Uint8Array {
  return concatBytes(Uint8Array.of(0, 0), signatureKey, snowflakeBE64(userId));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

/**
 * The pairwise fingerprint of two members: scrypt(N 16384, r 8, p 2) over both inputs sorted, 64 bytes.
 * scrypt needs 16 MiB × 2 here, above Node's default 32 MiB `maxmem` with its overhead, so it is raised.
 */
export function pairwiseFingerprint(
  a: { signatureKey: Uint8Array; userId: string },
  b: { signatureKey: Uint8Array; userId: string },
): Promise<Uint8Array> {
  const inputs = [
    fingerprintInput(a.signatureKey, a.userId),
    fingerprintInput(b.signatureKey, b.userId),
  ].sort(compareBytes);
  return new Promise((resolve, reject) => {
    scrypt(
      concatBytes(...inputs),
      FINGERPRINT_SALT,
      64,
      { N: 16384, r: 8, p: 2, maxmem: 64 * 1024 * 1024 },
      (error, key) => {
        if (error) reject(error);
        else resolve(new Uint8Array(key));
      },
    );
  });
}

/** The 45-digit verification code of two members. */
export async function verificationCode(
  a: { signatureKey: Uint8Array; userId: string },
  b: { signatureKey: Uint8Array; userId: string },
): Promise<string> {
  return displayableCode(await pairwiseFingerprint(a, b), 45, 5);
}
