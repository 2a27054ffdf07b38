import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type KeyObject,
} from 'node:crypto';

/** Claims of an ID token. */
export interface IdTokenClaims {
  /** The issuer: the emulator's HTTP origin. */
  iss: string;
  /** The user id. */
  sub: string;
  /** The application id. */
  aud: string;
  /** Issued at, Unix seconds. */
  iat: number;
  /** Expiry, Unix seconds. */
  exp: number;
  /** The authorize request's nonce, when it had one. */
  nonce?: string;
}

/** A fresh P-256 private key as a JWK, to keep in the store. */
export function generateSigningJwk(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...privateKey.export({ format: 'jwk' }) };
}

function base64urlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/**
 * Signs ID tokens with ES256 and publishes the public key as a JWKS, all with node:crypto. The key id is
 * the RFC 7638 thumbprint of the public key, so it is stable for a given key.
 */
export class IdTokenSigner {
  readonly #privateKey: KeyObject;
  readonly #publicJwk: Record<string, unknown>;
  /** The key id placed in each token header and in the JWKS. */
  readonly kid: string;

  constructor(privateJwk: Record<string, unknown>) {
    this.#privateKey = createPrivateKey({ key: privateJwk as never, format: 'jwk' });
    const full = createPublicKey(this.#privateKey).export({ format: 'jwk' });
    this.#publicJwk = { kty: full.kty, crv: full.crv, x: full.x, y: full.y };
    // RFC 7638: SHA-256 over the required members in lexicographic order, no whitespace.
    const canonical = JSON.stringify({ crv: full.crv, kty: full.kty, x: full.x, y: full.y });
    this.kid = createHash('sha256').update(canonical).digest('base64url');
  }

  /** A compact JWS: `header.payload.signature`, the signature in the raw r‖s form JWS requires. */
  sign(claims: IdTokenClaims): string {
    const header = base64urlJson({ alg: 'ES256', typ: 'JWT', kid: this.kid });
    const payload = base64urlJson(claims);
    const input = `${header}.${payload}`;
    const signature = sign('sha256', Buffer.from(input), {
      key: this.#privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return `${input}.${signature.toString('base64url')}`;
  }

  /** The JSON Web Key Set that verifies tokens from {@link IdTokenSigner.sign}. */
  jwks(): { keys: Record<string, unknown>[] } {
    return { keys: [{ ...this.#publicJwk, kid: this.kid, use: 'sig', alg: 'ES256' }] };
  }
}
