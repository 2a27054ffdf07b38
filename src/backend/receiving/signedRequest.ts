import type { IncomingMessage } from 'node:http';

import type { KeyObject } from 'node:crypto';

import type { ReplayGuard } from './ReplayGuard.js';
import { SIGNATURE_HEADER, signatureValid, TIMESTAMP_HEADER, type SignatureRefusal } from './signature.js';

/** What one signed request came to: its parsed JSON body, or why it was refused and with which HTTP status. */
export type SignedRequest =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly status: number; readonly reason: SignatureRefusal | ReadRefusal };

/** Why a body could not be read. */
export type ReadRefusal = 'too-large' | 'timeout' | 'not-json' | 'aborted' | 'busy';

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
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > rules.maxBodyBytes) return refuse(413, 'too-large');
  const body = await readBody(request, rules.maxBodyBytes, rules.readTimeoutMs);
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

/** The whole body, or why not: at most `limit` bytes, within `timeoutMs` (a sender that stalls is cut off). */
function readBody(request: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer | ReadRefusal> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: Buffer | ReadRefusal): void => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('aborted', onError);
      if (!Buffer.isBuffer(outcome)) request.resume(); // drain and drop the rest
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish('too-large');
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(Buffer.concat(chunks));
    const onError = (): void => finish('aborted');
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onError);
  });
}
