import type { IncomingMessage } from 'node:http';

import type { KeyObject } from 'node:crypto';

import { readBoundedBody, type BodyReadFailure } from '@sdkpp/protocol';
import type { ReplayGuard } from './ReplayGuard.js';
import { SIGNATURE_HEADER, signatureValid, TIMESTAMP_HEADER, type SignatureRefusal } from './signature.js';

/** What one signed request came to: its parsed JSON body, or why it was refused and with which HTTP status. */
export type SignedRequest =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly status: number; readonly reason: SignatureRefusal | ReadRefusal };

/** Why a body could not be taken: not read (see readBoundedBody), not JSON, or no room against replays. */
export type ReadRefusal = BodyReadFailure | 'not-json' | 'busy';

/** The checks every signed request passes, shared by both receivers. */
export interface SignedRequestRules {
  readonly key: KeyObject;
  readonly maxBodyBytes: number;
  readonly toleranceMs: number;
  readonly readTimeoutMs: number;
  readonly replays: ReplayGuard;
  readonly now: () => number;
}

/** Reads, authenticates and parses one request. Never throws; the body is read to at most `maxBodyBytes`. */
export async function readSignedRequest(
  request: IncomingMessage,
  rules: SignedRequestRules,
): Promise<SignedRequest> {
  const signature = headerValue(request, SIGNATURE_HEADER);
  const timestamp = headerValue(request, TIMESTAMP_HEADER);
  const body = await readBoundedBody(request, rules.maxBodyBytes, rules.readTimeoutMs);
  if (!Buffer.isBuffer(body)) return refuse(body === 'too-large' ? 413 : 408, body);
  if (signature === undefined || timestamp === undefined) return refuse(401, 'missing-headers');
  if (!/^\d{1,12}$/.test(timestamp)) return refuse(401, 'malformed');
  if (!signatureValid(rules.key, signature, timestamp, body)) return refuse(401, 'bad-signature');
  const signedAtMs = Number(timestamp) * 1000;
  const nowMs = rules.now();
  if (Math.abs(nowMs - signedAtMs) > rules.toleranceMs) return refuse(401, 'stale');
  const admitted = rules.replays.admit(signature.toLowerCase(), signedAtMs, nowMs);
  if (admitted === 'replayed') return refuse(401, 'replayed');
  if (admitted === 'full') return refuse(503, 'busy');
  try {
    return { ok: true, body: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return refuse(400, 'not-json');
  }
}

function refuse(status: number, reason: SignatureRefusal | ReadRefusal): SignedRequest {
  return { ok: false, status, reason };
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
