import { webcrypto } from 'node:crypto';
import type { EmulatorLog } from '../log.js';
import { ExternalTokenError, type ExternalIdentityClaim } from './externalIdentity.js';
import { issuerUrlProblem, type IssuerRules, type OidcProvider } from './oidcIssuer.js';

/** Every discovery fetch has a bound in time and size. */
const FETCH_TIMEOUT_MS = 5_000;
const MAX_DOCUMENT_BYTES = 256 * 1024;
/** Clock skew allowed on `nbf` and `iat`, as identity providers' clocks drift. */
const SKEW_SECONDS = 60;

/** The signature algorithms the emulator verifies, with their WebCrypto parameters. */
const ALGORITHMS = {
  RS256: {
    kty: 'RSA',
    importParams: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    verifyParams: { name: 'RSASSA-PKCS1-v1_5' },
  },
  ES256: {
    kty: 'EC',
    importParams: { name: 'ECDSA', namedCurve: 'P-256' },
    verifyParams: { name: 'ECDSA', hash: 'SHA-256' },
  },
} as const;
type Algorithm = keyof typeof ALGORITHMS;

type Json = Record<string, unknown>;

function invalid(message: string): ExternalTokenError {
  return new ExternalTokenError(530020, `Invalid OIDC JWT: ${message}`);
}

function decodePart(part: string): Json | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

/**
 * Verifies OpenID Connect ID tokens against the configured providers, as the platform describes for
 * provisional accounts: the token's issuer must be a configured one; its discovery document
 * (`<issuer>/.well-known/openid-configuration`) and JWKS are fetched without following HTTP redirects, and
 * the JWKS URI must pass the same hostname rules as the issuer; the signature (RS256 or ES256) is checked
 * with WebCrypto against the JWKS key, then `iss`, `aud`, `exp`, `nbf` and `sub`. Nothing is cached: each
 * token is checked against what the provider serves now. Failures are 530020 (530001 for an expired token),
 * with the reason in the message and a log line.
 */
export class OidcVerifier {
  readonly #providers: readonly OidcProvider[];
  readonly #rules: IssuerRules;
  readonly #log: EmulatorLog;

  constructor(providers: readonly OidcProvider[], rules: IssuerRules, log: EmulatorLog) {
    this.#providers = providers;
    this.#rules = rules;
    this.#log = log;
  }

  /** True when providers are configured, so OIDC tokens are verified (otherwise they are only decoded). */
  get enabled(): boolean {
    return this.#providers.length > 0;
  }

  /** The identity an ID token names, once verified. */
  async verify(token: string, nowMs: number): Promise<ExternalIdentityClaim> {
    try {
      return await this.#verify(token, nowMs);
    } catch (error) {
      if (error instanceof ExternalTokenError) this.#log.line('oidc', `ID token refused: ${error.message}`);
      throw error;
    }
  }

  async #verify(token: string, nowMs: number): Promise<ExternalIdentityClaim> {
    const parts = token.split('.');
    if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p)))
      throw invalid('not a signed JWT');
    const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
    const header = decodePart(headerPart);
    const claims = decodePart(payloadPart);
    if (!header || !claims) throw invalid('the header or payload is not a JSON object');
    const alg = header.alg;
    if (typeof alg !== 'string' || !Object.hasOwn(ALGORITHMS, alg)) {
      throw invalid(`the signature algorithm ${JSON.stringify(alg)} is not RS256 or ES256`);
    }
    const provider = this.#providers.find((p) => p.issuer === claims.iss);
    if (!provider)
      throw invalid(`the issuer ${JSON.stringify(claims.iss)} is not a configured identity provider`);
    const jwks = await this.#discover(provider.issuer);
    const key = await this.#key(jwks, alg as Algorithm, header.kid);
    const signed = Buffer.from(`${headerPart}.${payloadPart}`, 'ascii');
    const signature = Buffer.from(signaturePart, 'base64url');
    const ok = await webcrypto.subtle.verify(
      ALGORITHMS[alg as Algorithm].verifyParams,
      key,
      signature,
      signed,
    );
    if (!ok) throw invalid('the signature does not match the issuer’s key');
    return checkClaims(claims, provider, nowMs);
  }

  /** The issuer's JWKS, found through its discovery document. */
  async #discover(issuer: string): Promise<Json> {
    const configUrl = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const config = await this.#fetchJson(configUrl, 'the OIDC configuration');
    if (config.issuer !== issuer) {
      throw invalid(
        `the OIDC configuration names the issuer ${JSON.stringify(config.issuer)}, not ${issuer}`,
      );
    }
    const jwksUri = config.jwks_uri;
    if (typeof jwksUri !== 'string') throw invalid('the OIDC configuration has no jwks_uri');
    const problem = issuerUrlProblem(jwksUri, this.#rules);
    if (problem !== null) throw invalid(`the JWKS URI ${jwksUri} ${problem}`);
    return this.#fetchJson(jwksUri, 'the JWKS');
  }

  /** GET one JSON document; a redirect is refused, not followed; bounded in time and size. */
  async #fetchJson(url: string, what: string): Promise<Json> {
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: 'manual',
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        headers: { accept: 'application/json' },
      });
    } catch (error) {
      throw invalid(`${what} at ${url} could not be fetched (${(error as Error).message})`);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw invalid(
        `${what} at ${url} answered with a redirect (${response.status}); redirects are not followed`,
      );
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw invalid(`${what} at ${url} answered ${response.status}`);
    }
    const text = await readBounded(response).catch((error: unknown) => {
      throw invalid(`${what} at ${url} could not be read (${(error as Error).message})`);
    });
    if (text === null) throw invalid(`${what} at ${url} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    const value = (() => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return null;
      }
    })();
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalid(`${what} at ${url} is not a JSON object`);
    }
    return value as Json;
  }

  /** The JWKS key for `alg` and `kid` (the only key of that type when the token names none). */
  async #key(jwks: Json, alg: Algorithm, kid: unknown): Promise<webcrypto.CryptoKey> {
    const keys = Array.isArray(jwks.keys) ? jwks.keys.slice(0, 100) : [];
    const candidates = keys.filter(
      (k): k is Json =>
        typeof k === 'object' &&
        k !== null &&
        (k as Json).kty === ALGORITHMS[alg].kty &&
        ((k as Json).use === undefined || (k as Json).use === 'sig') &&
        ((k as Json).alg === undefined || (k as Json).alg === alg),
    );
    const matching =
      typeof kid === 'string'
        ? candidates.filter((k) => k.kid === kid)
        : candidates.length === 1
          ? candidates
          : [];
    const jwk = matching[0];
    if (!jwk)
      throw invalid(
        `the JWKS has no ${alg} key${typeof kid === 'string' ? ` with kid ${JSON.stringify(kid)}` : ''}`,
      );
    try {
      return await webcrypto.subtle.importKey(
        'jwk',
        jwk as webcrypto.JsonWebKey,
        ALGORITHMS[alg].importParams,
        false,
        ['verify'],
      );
    } catch {
      throw invalid('the JWKS key cannot be used');
    }
  }
}

function checkClaims(claims: Json, provider: OidcProvider, nowMs: number): ExternalIdentityClaim {
  const now = Math.floor(nowMs / 1000);
  const { sub, exp, nbf, aud } = claims;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 256)
    throw invalid('the "sub" claim is missing');
  if (typeof exp !== 'number') throw invalid('the "exp" claim is missing');
  if (exp <= now) throw new ExternalTokenError(530001, 'Expired ID token');
  if (typeof nbf === 'number' && nbf > now + SKEW_SECONDS)
    throw invalid('the token is not valid yet ("nbf")');
  if (provider.audience !== null) {
    const audiences = Array.isArray(aud) ? aud : [aud];
    if (!audiences.includes(provider.audience))
      throw invalid('the "aud" claim does not name the application');
  }
  const name = claims.preferred_username;
  return {
    provider: 'OIDC',
    subject: sub,
    issuer: provider.issuer,
    displayName: typeof name === 'string' && name.length >= 1 && name.length <= 32 ? name : null,
  };
}

/** The body as text, or null when it exceeds {@link MAX_DOCUMENT_BYTES}. */
async function readBounded(response: Response): Promise<string | null> {
  const body = response.body as AsyncIterable<Uint8Array> | null;
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    // Leaving the loop cancels the stream, so the rest is never read.
    if (size > MAX_DOCUMENT_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
