import { createHash, randomBytes } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

import type WebSocket from 'ws';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { QueuedSocket } from './queuedSocket.js';

/** A PKCE pair. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Options of {@link authorizeUrl}. */
export interface AuthorizeParams {
  redirectUri: string;
  challenge?: string;
  scope?: string;
  state?: string;
  extra?: Record<string, string>;
}

/** An authorize URL for the emulator's application. */
export function authorizeUrl(emu: Emulator, params: AuthorizeParams): string {
  const url = new URL('/oauth2/authorize', emu.http);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', emu.applicationId);
  url.searchParams.set('scope', params.scope ?? 'openid sdk.social_layer');
  url.searchParams.set('redirect_uri', params.redirectUri);
  if (params.state !== undefined) url.searchParams.set('state', params.state);
  if (params.challenge !== undefined) {
    url.searchParams.set('code_challenge', params.challenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  for (const [k, v] of Object.entries(params.extra ?? {})) url.searchParams.set(k, v);
  return url.toString();
}

/** The query parameters of a redirect `Location`. */
export function locationParams(response: Response): URLSearchParams {
  const location = response.headers.get('location');
  if (location === null) throw new Error(`no Location (status ${response.status})`);
  return new URL(location).searchParams;
}

/** An authorization code with the PKCE verifier and redirect URI it was issued for. */
export interface CodeGrant {
  code: string;
  verifier: string;
  redirectUri: string;
}

/** Gets a code through auto-consent (the emulator must run with autoConsent). */
export async function getCode(
  emu: Emulator,
  options: { user?: string; redirectUri?: string; scope?: string; nonce?: string } = {},
): Promise<CodeGrant> {
  const { verifier, challenge } = pkce();
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:53682/callback';
  const extra: Record<string, string> = { login_hint: options.user ?? 'alice' };
  if (options.nonce !== undefined) extra.nonce = options.nonce;
  const response = await fetch(
    authorizeUrl(emu, {
      redirectUri,
      challenge,
      state: 'st',
      extra,
      ...(options.scope ? { scope: options.scope } : {}),
    }),
    { redirect: 'manual' },
  );
  const params = locationParams(response);
  const code = params.get('code');
  if (code === null) throw new Error(`authorize failed: ${params.toString()}`);
  return { code, verifier, redirectUri };
}

/** POSTs a form. */
export function postForm(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** POSTs JSON. */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The token endpoint's JSON answer. */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
  scope: string;
  id_token?: string;
}

/**
 * POSTs the exchange of `grant` as a public client, with `extra` form fields, to `url` (the API's token
 * endpoint unless given); resolves with the response as it came.
 */
export function postCodeExchange(
  emu: Emulator,
  grant: CodeGrant,
  extra: Record<string, string> = {},
  url = `${emu.api}/oauth2/token`,
): Promise<Response> {
  return postForm(url, {
    grant_type: 'authorization_code',
    client_id: emu.applicationId,
    code: grant.code,
    code_verifier: grant.verifier,
    redirect_uri: grant.redirectUri,
    ...extra,
  });
}

/** Exchanges a code as a public client; throws unless 200. */
export async function exchange(emu: Emulator, grant: CodeGrant): Promise<TokenResponse> {
  const response = await postCodeExchange(emu, grant);
  if (response.status !== 200)
    throw new Error(`token exchange failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as TokenResponse;
}

/** Signs in `user` end to end and returns the tokens. */
export async function signIn(emu: Emulator, user = 'alice', scope?: string): Promise<TokenResponse> {
  return exchange(emu, await getCode(emu, { user, ...(scope ? { scope } : {}) }));
}

/** The usernames of the first ten seed users, as docs/emulator.md describes them (written out, not imported from the emulator). */
export const FIRST_TEN_USERNAMES: readonly string[] = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
  'player9',
  'player10',
];

/** A gateway payload. */
export interface Payload {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

/** A small gateway client for tests: queues every (text) payload and records the close. */
export class TestGateway extends QueuedSocket<Payload> {
  constructor(url: string, options: WebSocket.ClientOptions = {}) {
    super(url, options, {
      closed: 'socket closed while waiting for a payload',
      timedOut: 'timed out waiting for a payload',
    });
  }

  protected parse(data: Buffer, isBinary: boolean): Payload | undefined {
    return isBinary ? undefined : (JSON.parse(data.toString('utf8')) as Payload);
  }

  /** Opens a connection with the standard query. */
  static async connect(emu: Emulator, query = 'v=10&encoding=json'): Promise<TestGateway> {
    const client = new TestGateway(`${emu.gateway}?${query}`);
    await client.opened;
    return client;
  }

  /** The next dispatch named `t`. */
  dispatch(t: string, timeoutMs?: number): Promise<Payload> {
    return this.next((p) => p.op === 0 && p.t === t, timeoutMs);
  }

  /** Identifies with `token`; resolves with READY. */
  async identify(token: string): Promise<Payload> {
    await this.next((p) => p.op === 10);
    this.send(2, { token, properties: { os: 'linux', browser: 'sdkpp-test', device: 'sdkpp-test' } });
    return this.dispatch('READY');
  }
}

/** A loopback HTTP listener standing in for the SDK's redirect receiver; records each request URL. */
export async function loopbackListener(): Promise<{
  redirectUri: string;
  hits: URL[];
  close(): Promise<void>;
}> {
  const hits: URL[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

/** A raw HTTP request to the emulator, with headers fetch will not let us set (Host). */
export function rawRequest(
  emulator: Emulator,
  options: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const url = new URL(emulator.http);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * One raw HTTP/1.1 exchange with a loopback port: the request line and headers go out exactly as written (no
 * client normalises the target or the Host), and the answer is everything read until the server closes.
 */
export function rawExchange(port: number, head: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write([...head, '', ''].join('\r\n'));
  });
}
