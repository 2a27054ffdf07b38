import { createPublicKey, verify } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import {
  exchange,
  getCode,
  postCodeExchange,
  postForm,
  postJson,
  signIn,
  type CodeGrant,
  type TokenResponse,
} from './helpers.js';

async function errorOf(response: Response): Promise<{ status: number; body: Record<string, unknown> }> {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('POST /oauth2/token', () => {
  let emu: Emulator;
  let tokenUrl: string;
  const clientSecret = 'test-secret-value';
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true, clientSecret });
    tokenUrl = `${emu.api}/oauth2/token`;
  });
  afterAll(async () => {
    await emu.close();
  });

  const me = (token: string): Promise<Response> =>
    fetch(`${emu.api}/users/@me`, { headers: { Authorization: `Bearer ${token}` } });
  const refresh = (refreshToken: string): Promise<Response> =>
    postForm(tokenUrl, {
      grant_type: 'refresh_token',
      client_id: emu.applicationId,
      refresh_token: refreshToken,
    });

  it('runs the whole cycle: code → tokens → refresh (rotating) → revoke', async () => {
    const grant = await getCode(emu, { user: 'alice' });
    const response = await postCodeExchange(emu, grant);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const first = (await response.json()) as TokenResponse;
    expect(first).toMatchObject({
      token_type: 'Bearer',
      expires_in: 604800,
      scope: 'openid sdk.social_layer',
    });
    expect(first.access_token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(first.refresh_token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(typeof first.id_token).toBe('string');
    expect((await me(first.access_token)).status).toBe(200);

    const rotated = await refresh(first.refresh_token);
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as TokenResponse;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.scope).toBe('openid sdk.social_layer');
    // Both old tokens die with the rotation.
    expect((await me(first.access_token)).status).toBe(401);
    expect(await errorOf(await refresh(first.refresh_token))).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid "refresh_token" in request' },
    });
    expect((await me(second.access_token)).status).toBe(200);

    // A second grant for the same user: revoking one token kills all of them.
    const other = await signIn(emu, 'alice');
    const revoked = await postForm(`${tokenUrl}/revoke`, {
      token: second.refresh_token,
      client_id: emu.applicationId,
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({});
    expect((await me(second.access_token)).status).toBe(401);
    expect((await me(other.access_token)).status).toBe(401);
    expect((await refresh(other.refresh_token)).status).toBe(400);
  });

  it('answers revoke of an unknown token with 200 {}', async () => {
    const response = await postForm(`${tokenUrl}/revoke`, { token: 'nope', client_id: emu.applicationId });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
  });

  it('refuses a wrong code_verifier with invalid_grant, and a malformed one with invalid_request', async () => {
    const grant = await getCode(emu);
    const wrong = await exchangeRaw({ ...grant, verifier: 'a'.repeat(43) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const malformed = await exchangeRaw({ ...grant, verifier: 'short' });
    expect(malformed.body.error).toBe('invalid_request');
    const badChars = await exchangeRaw({ ...grant, verifier: `${'a'.repeat(43)}!` });
    expect(badChars.body.error).toBe('invalid_request');
    // A missing verifier is a failed PKCE check, as the platform reports it.
    const missing = await exchangeRaw({ ...grant, verifier: '' });
    expect(missing).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid "code_verifier" in request.' },
    });
    // The code survived the failed attempts.
    expect((await exchange(emu, grant)).access_token).toBeTruthy();
  });

  it('refuses a reused code and revokes the tokens issued from it', async () => {
    const grant = await getCode(emu);
    const tokens = await exchange(emu, grant);
    const refreshed = (await (await refresh(tokens.refresh_token)).json()) as TokenResponse;
    expect((await me(refreshed.access_token)).status).toBe(200);
    const again = await exchangeRaw(grant);
    expect(again).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid "code" in request.' },
    });
    expect((await me(refreshed.access_token)).status).toBe(401);
    expect((await refresh(refreshed.refresh_token)).status).toBe(400);
  });

  it('refuses a mismatched redirect_uri', async () => {
    const grant = await getCode(emu);
    const result = await exchangeRaw({ ...grant, redirectUri: 'http://127.0.0.1:1/other' });
    expect(result.status).toBe(400);
    expect(result.body.error).toBe('invalid_grant');
  });

  it('refuses JSON bodies, unknown clients, wrong secrets and unknown grant types', async () => {
    const json = await postJson(tokenUrl, { grant_type: 'authorization_code', client_id: emu.applicationId });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');

    const unknown = await postForm(tokenUrl, {
      grant_type: 'refresh_token',
      client_id: '42',
      refresh_token: 'x',
    });
    expect(await errorOf(unknown)).toEqual({ status: 401, body: { error: 'invalid_client' } });

    const wrongSecret = await postForm(tokenUrl, {
      grant_type: 'refresh_token',
      client_id: emu.applicationId,
      client_secret: 'wrong',
      refresh_token: 'x',
    });
    expect(wrongSecret.status).toBe(401);

    const basic = Buffer.from(`${emu.applicationId}:wrong`).toString('base64');
    const wrongBasic = await postForm(
      tokenUrl,
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { Authorization: `Basic ${basic}` },
    );
    expect(wrongBasic.status).toBe(401);
    expect(wrongBasic.headers.get('www-authenticate')).toMatch(/^Basic/);

    const grantType = await postForm(tokenUrl, { grant_type: 'password', client_id: emu.applicationId });
    expect((await errorOf(grantType)).body.error).toBe('unsupported_grant_type');
    const missing = await postForm(tokenUrl, { client_id: emu.applicationId });
    expect((await errorOf(missing)).body.error).toBe('invalid_request');
    const noCode = await postForm(tokenUrl, {
      grant_type: 'authorization_code',
      client_id: emu.applicationId,
    });
    expect(await errorOf(noCode)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('accepts a confidential client with HTTP Basic or client_secret in the form', async () => {
    const grant = await getCode(emu);
    const basic = Buffer.from(`${emu.applicationId}:${clientSecret}`).toString('base64');
    const response = await postForm(
      tokenUrl,
      {
        grant_type: 'authorization_code',
        code: grant.code,
        code_verifier: grant.verifier,
        redirect_uri: grant.redirectUri,
      },
      { Authorization: `Basic ${basic}` },
    );
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as TokenResponse;
    const viaForm = await postForm(tokenUrl, {
      grant_type: 'refresh_token',
      client_id: emu.applicationId,
      client_secret: clientSecret,
      refresh_token: tokens.refresh_token,
    });
    expect(viaForm.status).toBe(200);
  });

  it('refuses repeated parameters and bad percent-encoding with invalid_request', async () => {
    const repeated = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&grant_type=authorization_code&client_id=${emu.applicationId}`,
    });
    expect((await errorOf(repeated)).body.error).toBe('invalid_request');
    const badEncoding = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=%E0%A4%A',
    });
    expect(await errorOf(badEncoding)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('narrows scope on refresh and refuses widening it', async () => {
    const tokens = await signIn(emu, 'bob', 'openid sdk.social_layer_presence');
    expect(tokens.scope).toBe('openid sdk.social_layer_presence');
    const wider = await postForm(tokenUrl, {
      grant_type: 'refresh_token',
      client_id: emu.applicationId,
      refresh_token: tokens.refresh_token,
      scope: 'openid sdk.social_layer',
    });
    expect((await errorOf(wider)).body.error).toBe('invalid_scope');
  });

  async function exchangeRaw(grant: CodeGrant): Promise<{
    status: number;
    body: Record<string, unknown>;
  }> {
    return errorOf(await postCodeExchange(emu, grant));
  }
});

describe('code expiry', () => {
  it('refuses a code after codeTtlMs', async () => {
    const emu = await startEmulator({ autoConsent: true, codeTtlMs: 50 });
    try {
      const grant = await getCode(emu);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const response = await postCodeExchange(emu, grant);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
    } finally {
      await emu.close();
    }
  });
});

describe('ID tokens, /users/@me and /oauth2/@me', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true, accessTokenTtlSeconds: 3600 });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('signs id_token with ES256, verifiable against the JWKS, with the expected claims', async () => {
    const grant = await getCode(emu, { user: 'bob', nonce: 'n-123' });
    const tokens = await exchange(emu, grant);
    const [header = '', payload = '', signature = ''] = (tokens.id_token ?? '').split('.');
    const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string; kid: string };
    expect(head.alg).toBe('ES256');

    const discovery = (await (await fetch(`${emu.http}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      jwks_uri: string;
    };
    expect(discovery.issuer).toBe(emu.http);
    expect(discovery.jwks_uri).toBe(`${emu.api}/oauth2/keys`);
    const jwks = (await (await fetch(discovery.jwks_uri)).json()) as {
      keys: Array<{ kid: string } & Record<string, unknown>>;
    };
    const jwk = jwks.keys.find((k) => k.kid === head.kid);
    expect(jwk).toBeDefined();
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    const ok = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    expect(ok).toBe(true);

    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const bob = emu.users.find((u) => u.username === 'bob');
    expect(claims).toMatchObject({ iss: emu.http, sub: bob?.id, aud: emu.applicationId, nonce: 'n-123' });
    expect(claims.exp).toBe((claims.iat as number) + 3600);
  });

  it('leaves id_token out without openid', async () => {
    const tokens = await signIn(emu, 'alice', 'sdk.social_layer');
    expect(tokens.id_token).toBeUndefined();
  });

  it('serves /users/@me for Bearer and Bot, 401 otherwise', async () => {
    const tokens = await signIn(emu, 'alice');
    const response = await fetch(`${emu.api}/users/@me`, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(await response.json()).toEqual({
      id: emu.users[0]?.id,
      username: 'alice',
      global_name: 'Alice',
      discriminator: '0',
      avatar: null,
      bot: false,
      flags: 0,
      premium_type: 0,
      primary_guild: null,
    });
    const bot = await fetch(`${emu.api}/users/@me`, { headers: { Authorization: `Bot ${emu.botToken}` } });
    expect(await bot.json()).toMatchObject({ id: emu.applicationId, bot: true });
    for (const headers of [
      {},
      { Authorization: 'Bearer nope' },
      { Authorization: 'Basic !!' },
      { Authorization: `Bot ${tokens.access_token}` },
    ]) {
      const denied = await fetch(`${emu.api}/users/@me`, { headers });
      expect(denied.status).toBe(401);
      expect(await denied.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    }
  });

  it('serves /oauth2/@me with scopes and expiry', async () => {
    const tokens = await signIn(emu, 'alice', 'openid sdk.social_layer_presence');
    const before = Date.now();
    const response = await fetch(`${emu.api}/oauth2/@me`, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    const body = (await response.json()) as {
      application: unknown;
      scopes: string[];
      expires: string;
      user: { username: string };
    };
    expect(body.application).toEqual({ id: emu.applicationId, name: 'sdkpp Demo Game' });
    expect(body.scopes).toEqual(
      expect.arrayContaining(['openid', 'sdk.social_layer_presence', 'gateway.connect', 'identify']),
    );
    expect(body.scopes).not.toContain('lobbies.write');
    const expires = Date.parse(body.expires);
    expect(expires).toBeGreaterThan(before + 3500_000);
    expect(expires).toBeLessThan(before + 3700_000);
    expect(body.user.username).toBe('alice');
  });
});
