import type { IncomingMessage } from 'node:http';

import { readBoundedBody } from '@sdkpp/protocol';
import { BodyError } from './errors.js';

/** Request bodies above this get 413: every body the platform takes is small. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Parameters of a form body or query string: one value per name. */
export type Fields = ReadonlyMap<string, string>;

function decodeComponent(text: string): string {
  // decodeURIComponent throws URIError on bad percent-encoding; URLSearchParams would silently keep it.
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new BodyError('malformed', 'malformed percent-encoding');
  }
}

/**
 * Parses `application/x-www-form-urlencoded` text strictly: bad percent-encoding and repeated names are
 * errors (RFC 6749 §3.1 forbids repeating a parameter, and silently picking one copy hides client bugs).
 */
export function parseUrlEncoded(text: string): Fields {
  const fields = new Map<string, string>();
  if (text.length === 0) return fields;
  for (const part of text.split('&')) {
    if (part.length === 0) continue;
    const eq = part.indexOf('=');
    const name = decodeComponent(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decodeComponent(part.slice(eq + 1));
    if (fields.has(name)) throw new BodyError('malformed', `parameter "${name}" is repeated`);
    fields.set(name, value);
  }
  return fields;
}

/** The media type of a Content-Type header, lowercased, without parameters. */
export function mediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return header.split(';')[0]?.trim().toLowerCase();
}

/**
 * Reads the whole body, refusing more than `limit` bytes (see readBoundedBody): 413 for too large, and a
 * body cut off by the client is malformed.
 */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const body = await readBoundedBody(req, limit);
  if (Buffer.isBuffer(body)) return body;
  if (body === 'too-large') throw new BodyError('too_large', `the body exceeds ${limit} bytes`);
  throw new BodyError('malformed', 'the request body was cut off');
}

/** Decodes a body as UTF-8, refusing invalid byte sequences instead of replacing them. */
export function decodeUtf8(body: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new BodyError('malformed', 'the body is not valid UTF-8');
  }
}
