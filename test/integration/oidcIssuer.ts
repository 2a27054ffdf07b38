import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real OpenID Connect issuer on loopback: discovery, JWKS, and keys that sign ID tokens. */
export interface LocalIssuer {
  /** `http://127.0.0.1:<port>`: the issuer that serves its discovery document and JWKS directly. */
  issuer: string;
  /** An issuer whose discovery document answers with a redirect to the good one. */
  redirectingIssuer: string;
  /** An issuer whose discovery names a JWKS URI that redirects. */
  jwksRedirectIssuer: string;
  /** An issuer whose discovery names a JWKS URI on a private IP literal. */
  ipJwksIssuer: string;
  /** How many requests each path got. */
  hits: Map<string, number>;
  /** A signed ID token. */
  idToken(
    claims: Record<string, unknown>,
    options?: { alg?: 'ES256' | 'RS256'; key?: 'own' | 'foreign' },
  ): string;
  close(): Promise<void>;
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Starts the issuer on 127.0.0.1 with an EC P-256 and an RSA key in its JWKS. */
export async function startLocalIssuer(): Promise<LocalIssuer> {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const foreign = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const hits = new Map<string, number>();
  let base = '';
  const jwks = {
    keys: [
      { ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec-1', use: 'sig', alg: 'ES256' },
      { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'rsa-1', use: 'sig', alg: 'RS256' },
    ],
  };
  const json = (value: unknown): [number, Record<string, string>, string] => [
    200,
    { 'content-type': 'application/json' },
    JSON.stringify(value),
  ];
  const config = (issuer: string, jwksUri: string): unknown => ({
    issuer,
    jwks_uri: jwksUri,
    id_token_signing_alg_values_supported: ['ES256', 'RS256'],
  });
  const routes: Record<string, () => [number, Record<string, string>, string]> = {
    '/.well-known/openid-configuration': () => json(config(base, `${base}/jwks`)),
    '/jwks': () => json(jwks),
    '/redirecting/.well-known/openid-configuration': () => [
      302,
      { location: `${base}/.well-known/openid-configuration` },
      '',
    ],
    '/jwks-redirect/.well-known/openid-configuration': () =>
      json(config(`${base}/jwks-redirect`, `${base}/jwks-moved`)),
    '/jwks-moved': () => [301, { location: `${base}/jwks` }, ''],
    '/ip-jwks/.well-known/openid-configuration': () =>
      json(config(`${base}/ip-jwks`, 'http://10.0.0.7/jwks')),
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    const [status, headers, body] = route ? route() : [404, {}, ''];
    res.writeHead(status, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer: base,
    redirectingIssuer: `${base}/redirecting`,
    jwksRedirectIssuer: `${base}/jwks-redirect`,
    ipJwksIssuer: `${base}/ip-jwks`,
    hits,
    idToken(claims, options = {}) {
      const alg = options.alg ?? 'ES256';
      const kid = alg === 'ES256' ? 'ec-1' : 'rsa-1';
      const key: KeyObject =
        options.key === 'foreign' ? foreign.privateKey : alg === 'ES256' ? ec.privateKey : rsa.privateKey;
      const now = Math.floor(Date.now() / 1000);
      const input = `${b64({ alg, typ: 'JWT', kid })}.${b64({ iss: base, iat: now, exp: now + 600, ...claims })}`;
      const signature = sign('sha256', Buffer.from(input), {
        key,
        ...(alg === 'ES256' ? { dsaEncoding: 'ieee-p1363' as const } : {}),
      });
      return `${input}.${signature.toString('base64url')}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
