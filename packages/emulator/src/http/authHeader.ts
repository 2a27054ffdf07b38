import type { IncomingMessage } from 'node:http';

/** A parsed `Authorization` header. */
export type Credentials =
  | { scheme: 'bearer'; token: string }
  | { scheme: 'bot'; token: string }
  | { scheme: 'basic'; username: string; password: string }
  | { scheme: 'none' }
  | { scheme: 'invalid' };

function decodeBasicPart(text: string): string | null {
  // RFC 6749 §2.3.1: client id and secret are form-encoded before being joined with ":".
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** Parses the Authorization header of a request; an unknown or garbled scheme gives `invalid`. */
export function readCredentials(req: IncomingMessage): Credentials {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') return { scheme: 'none' };
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!match) return { scheme: 'invalid' };
  const scheme = (match[1] ?? '').toLowerCase();
  const value = match[2] ?? '';
  if (scheme === 'bearer') return { scheme: 'bearer', token: value };
  if (scheme === 'bot') return { scheme: 'bot', token: value };
  if (scheme === 'basic') {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return { scheme: 'invalid' };
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { scheme: 'invalid' };
    const username = decodeBasicPart(decoded.slice(0, colon));
    const password = decodeBasicPart(decoded.slice(colon + 1));
    if (username === null || password === null) return { scheme: 'invalid' };
    return { scheme: 'basic', username, password };
  }
  return { scheme: 'invalid' };
}
