import { createHash, createPrivateKey, createPublicKey, createECDH, sign, type KeyObject } from 'node:crypto';

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

/**
 * A fresh P-256 private key as a JWK, to keep in the store. Made with ECDH rather than generateKeyPairSync +
 * export: Node 20 can hang for good when a garbage collection finalizes the generation job during the JWK
 * export of its key (see generateP256KeyPair in src/protocol/dave/nodeP256.ts).
 */
export function generateSigningJwk(): Record<string, unknown> {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const scalar = Buffer.alloc(32);
  const raw = ecdh.getPrivateKey();
  raw.copy(scalar, 32 - raw.length);
  const point = ecdh.getPublicKey(null, 'uncompressed');
  return {
    kty: 'EC',
    crv: 'P-256',
    d: scalar.toString('base64url'),
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
  };
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
