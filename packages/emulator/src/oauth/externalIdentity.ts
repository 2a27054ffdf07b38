import { sha256Base64Url } from '../random.js';
import type { ExternalAuthType, IdentityProvider } from '../store/types.js';

/** Who an external token names, as far as the emulator can tell without calling the provider. */
export interface ExternalIdentityClaim {
  provider: IdentityProvider;
  subject: string;
  issuer: string | null;
  displayName: string | null;
}

/** Why an external token was refused; the codes are the platform's provisional-account codes. */
export class ExternalTokenError extends Error {
  constructor(
    readonly code: 530001 | 530020,
    message: string,
  ) {
    super(message);
    this.name = 'ExternalTokenError';
  }
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

function decodeJwtPayload(token: string): Record<string, unknown> | null {
  if (!JWT_SHAPE.test(token)) return null;
  const part = token.split('.')[1] ?? '';
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The identity key under which the store keeps an identity. */
export function identityKey(provider: IdentityProvider, subject: string): string {
  return `${provider}:${subject}`;
}

/**
 * Reads the identity behind an external token (not `DISCORD_BOT_ISSUED_ACCESS_TOKEN`, which names one of
 * the emulator's own tokens). The emulator cannot verify third-party tokens, so a JWT-looking token is
 * decoded without checking its signature: its `sub` is the identity and `preferred_username` the display
 * name. Any other token is itself the identity; only its hash is kept, so the store never holds it.
 */
export function readExternalToken(
  type: Exclude<ExternalAuthType, 'DISCORD_BOT_ISSUED_ACCESS_TOKEN'>,
  token: string,
  nowMs: number,
): ExternalIdentityClaim {
  const claims = decodeJwtPayload(token);
  if (claims) {
    const sub = claims.sub;
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > 256) {
      throw new ExternalTokenError(530020, 'Invalid OIDC JWT: the "sub" claim is missing');
    }
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= nowMs) {
      throw new ExternalTokenError(530001, 'Expired ID token');
    }
    const name = claims.preferred_username;
    const displayName = typeof name === 'string' && name.length >= 1 && name.length <= 32 ? name : null;
    const issuer = typeof claims.iss === 'string' ? claims.iss : null;
    return { provider: type, subject: sub, issuer, displayName };
  }
  return {
    provider: type,
    subject: `opaque-${sha256Base64Url(`${type}\n${token}`)}`,
    issuer: null,
    displayName: null,
  };
}
