import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import {
  getCode,
  postCodeExchange,
  postForm,
  postJson,
  signIn,
  TestGateway,
  type TokenResponse,
} from './helpers.js';

interface ProvisionalToken {
  token_type: string;
  access_token: string;
  expires_in: number;
  scope: string;
  id_token: string;
  refresh_token?: string;
}

interface WireUser {
  id: string;
  username: string;
  global_name: string | null;
  flags: number;
}

/** An unsigned JWT-shaped token; the emulator reads its claims without verifying the signature. */
function fakeJwt(claims: Record<string, unknown>): string {
  const part = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'RS256', kid: 'k1' })}.${part(claims)}.c2ln`;
}

describe('provisional accounts', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true, users: 6, clientSecret: 'shh' });
  });
  afterAll(async () => {
    await emu.close();
  });

  const external = (type: string, token: string, extra: Record<string, unknown> = {}): Promise<Response> =>
    postJson(`${emu.api}/partner-sdk/token`, {
      client_id: emu.applicationId,
      external_auth_type: type,
      external_auth_token: token,
      ...extra,
    });
  const bot = (body: Record<string, unknown>, path = '/partner-sdk/token/bot'): Promise<Response> =>
    postJson(`${emu.api}${path}`, body, { Authorization: `Bot ${emu.botToken}` });
  const me = async (token: string): Promise<{ status: number; user: WireUser }> => {
    const response = await fetch(`${emu.api}/users/@me`, { headers: { Authorization: `Bearer ${token}` } });
    return { status: response.status, user: (await response.json()) as WireUser };
  };
  const merge = async (user: string, type: string, token: string): Promise<Response> => {
    const grant = await getCode(emu, { user });
    return postCodeExchange(emu, grant, { external_auth_type: type, external_auth_token: token });
  };

  it('creates a provisional account for a new identity and returns it again for the same identity', async () => {
    const first = await external('STEAM_SESSION_TICKET', 'ticket-abc');
    expect(first.status).toBe(200);
    const body = (await first.json()) as ProvisionalToken;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'sdk.social_layer' });
    expect(body.id_token.split('.')).toHaveLength(3);
    expect(body.refresh_token).toBeUndefined();
    const { status, user } = await me(body.access_token);
    expect(status).toBe(200);
    expect(user.flags).toBe(1 << 23);
    expect(user.username).toMatch(/^provisional_/);

    const again = (await (await external('STEAM_SESSION_TICKET', 'ticket-abc')).json()) as ProvisionalToken;
    expect(again.access_token).not.toBe(body.access_token);
    expect((await me(again.access_token)).user.id).toBe(user.id);
    const other = (await (await external('STEAM_SESSION_TICKET', 'ticket-xyz')).json()) as ProvisionalToken;
    expect((await me(other.access_token)).user.id).not.toBe(user.id);
  });

  it('reads sub and preferred_username from a JWT-looking token', async () => {
    const first = (await (
      await external('OIDC', fakeJwt({ sub: 'u-1', preferred_username: 'Hero' }))
    ).json()) as ProvisionalToken;
    const { user } = await me(first.access_token);
    expect(user.global_name).toBe('Hero');
    const second = (await (
      await external('OIDC', fakeJwt({ sub: 'u-1', iat: 5 }))
    ).json()) as ProvisionalToken;
    expect((await me(second.access_token)).user.id).toBe(user.id);
    const expired = await external('OIDC', fakeJwt({ sub: 'u-2', exp: 1000 }));
    expect(expired.status).toBe(400);
    expect(((await expired.json()) as { code: number }).code).toBe(530001);
  });

  it('validates the body with 50035 and the client with 10002 / 530007', async () => {
    const badType = await external('FACEBOOK', 'x');
    expect(badType.status).toBe(400);
    const body = (await badType.json()) as {
      code: number;
      message: string;
      errors: Record<string, { _errors: unknown[] }>;
    };
    expect(body.code).toBe(50035);
    expect(body.message).toBe('Invalid Form Body');
    expect(body.errors.external_auth_type?._errors).toHaveLength(1);
    expect(((await (await external('OIDC', 'x'.repeat(10_241))).json()) as { code: number }).code).toBe(
      50035,
    );
    expect(((await (await external('OIDC', '')).json()) as { code: number }).code).toBe(50035);
    const missing = (await (await postJson(`${emu.api}/partner-sdk/token`, {})).json()) as {
      errors: Record<string, unknown>;
    };
    expect(Object.keys(missing.errors).sort()).toEqual([
      'client_id',
      'external_auth_token',
      'external_auth_type',
    ]);
    const unknownApp = await postJson(`${emu.api}/partner-sdk/token`, {
      client_id: '1',
      external_auth_type: 'OIDC',
      external_auth_token: 'x',
    });
    expect(unknownApp.status).toBe(404);
    expect(((await unknownApp.json()) as { code: number }).code).toBe(10002);
    const secret = await external('OIDC', 'x', { client_secret: 'wrong' });
    expect(((await secret.json()) as { code: number }).code).toBe(530007);
    expect((await external('OIDC', 'x', { client_secret: 'shh' })).status).toBe(200);
    const badJson = await fetch(`${emu.api}/partner-sdk/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"client_id":',
    });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { code: number }).code).toBe(50109);
    const notObject = await postJson(`${emu.api}/partner-sdk/token`, [1, 2]);
    expect(((await notObject.json()) as { code: number }).code).toBe(50035);
  });

  it('serves the bot endpoint, which needs the bot token', async () => {
    const denied = await postJson(`${emu.api}/partner-sdk/token/bot`, { external_user_id: 'p1' });
    expect(denied.status).toBe(401);
    const response = await bot({ external_user_id: 'p1', preferred_global_name: 'Player One' });
    expect(response.status).toBe(200);
    const token = (await response.json()) as ProvisionalToken;
    expect(token.scope).toBe('sdk.social_layer');
    const { user } = await me(token.access_token);
    expect(user.global_name).toBe('Player One');
    expect(user.flags).toBe(1 << 23);
    // A bot-issued access token is itself an external credential for the same account.
    const viaToken = (await (
      await external('DISCORD_BOT_ISSUED_ACCESS_TOKEN', token.access_token)
    ).json()) as ProvisionalToken;
    expect((await me(viaToken.access_token)).user.id).toBe(user.id);
    const bad = await external('DISCORD_BOT_ISSUED_ACCESS_TOKEN', 'not-a-token');
    expect(bad.status).toBe(403);
    expect(((await bad.json()) as { code: number }).code).toBe(50025);
    expect(((await (await bot({ preferred_global_name: 'x' })).json()) as { code: number }).code).toBe(50035);
  });

  it('merges a bot-issued provisional account, answers 530010 afterwards, and unmerges to a new account', async () => {
    const provisional = (await (
      await bot({ external_user_id: 'p-merge', preferred_global_name: 'Merger' })
    ).json()) as ProvisionalToken;
    const provisionalUser = (await me(provisional.access_token)).user;
    const merged = await merge('alice', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', provisional.access_token);
    expect(merged.status).toBe(200);
    const tokens = (await merged.json()) as TokenResponse;
    expect((await me(tokens.access_token)).user.username).toBe('alice');
    expect((await me(provisional.access_token)).status).toBe(401);

    const again = await bot({ external_user_id: 'p-merge' });
    expect(again.status).toBe(400);
    const alice = emu.users.find((u) => u.username === 'alice');
    expect(await again.json()).toEqual({
      message: 'User account is non-provisional and should be authed through OAuth2',
      code: 530010,
      user_id: alice?.id,
      provider_type: 'DISCORD_BOT',
      provider_id: emu.applicationId,
      provider_issued_user_id: 'p-merge',
    });

    const unmerged = await bot(
      { external_user_id: 'p-merge' },
      '/partner-sdk/provisional-accounts/unmerge/bot',
    );
    expect(unmerged.status).toBe(204);
    expect((await me(tokens.access_token)).status).toBe(401);
    const fresh = (await (await bot({ external_user_id: 'p-merge' })).json()) as ProvisionalToken;
    const freshUser = (await me(fresh.access_token)).user;
    expect(freshUser.flags).toBe(1 << 23);
    expect(freshUser.id).not.toBe(provisionalUser.id);
    expect(freshUser.id).not.toBe(alice?.id);
    expect(freshUser.global_name).toBe('Merger');
  });

  it("closes the provisional account's gateway sessions on merge and tells the full account", async () => {
    const provisional = (await (await bot({ external_user_id: 'p-gateway' })).json()) as ProvisionalToken;
    const provisionalGw = await TestGateway.connect(emu);
    const ready = await provisionalGw.identify(provisional.access_token);
    const provisionalId = (ready.d as { user: WireUser }).user.id;
    expect((ready.d as { user: WireUser }).user.flags).toBe(1 << 23);
    const frank = await signIn(emu, 'frank');
    const frankGw = await TestGateway.connect(emu);
    await frankGw.identify(frank.access_token);
    expect((await merge('frank', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', provisional.access_token)).status).toBe(
      200,
    );
    expect((await provisionalGw.closed).code).toBe(4004);
    const done = await frankGw.dispatch('USER_MERGE_OPERATION_COMPLETED');
    expect(done.d).toMatchObject({
      source_user_id: provisionalId,
      merge_operation_id: expect.stringMatching(/^\d+$/) as unknown,
    });
    frankGw.ws.close(1000);
  });

  it('unmerges through the public endpoint and treats revocation as an unmerge', async () => {
    const steam = 'steam-ticket-for-bob';
    await external('STEAM_SESSION_TICKET', steam);
    expect((await merge('bob', 'STEAM_SESSION_TICKET', steam)).status).toBe(200);
    expect((await external('STEAM_SESSION_TICKET', steam)).status).toBe(400);
    const unmerge = await postJson(`${emu.api}/partner-sdk/provisional-accounts/unmerge`, {
      client_id: emu.applicationId,
      external_auth_type: 'STEAM_SESSION_TICKET',
      external_auth_token: steam,
    });
    expect(unmerge.status).toBe(204);
    expect((await external('STEAM_SESSION_TICKET', steam)).status).toBe(200);

    // Merge again, then revoke bob's tokens: the link is severed the same way.
    const merged = (await (await merge('bob', 'STEAM_SESSION_TICKET', steam)).json()) as TokenResponse;
    expect((await external('STEAM_SESSION_TICKET', steam)).status).toBe(400);
    await postForm(`${emu.api}/oauth2/token/revoke`, {
      client_id: emu.applicationId,
      token: merged.access_token,
    });
    expect((await external('STEAM_SESSION_TICKET', steam)).status).toBe(200);
  });

  it('answers unmerge errors: 10013 unknown identity, 50229 still provisional', async () => {
    const unknown = await bot(
      { external_user_id: 'never-seen' },
      '/partner-sdk/provisional-accounts/unmerge/bot',
    );
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: number }).code).toBe(10013);
    await bot({ external_user_id: 'still-provisional' });
    const provisional = await bot(
      { external_user_id: 'still-provisional' },
      '/partner-sdk/provisional-accounts/unmerge/bot',
    );
    expect(provisional.status).toBe(400);
    expect(((await provisional.json()) as { code: number }).code).toBe(50229);
  });

  it('answers merge errors 530014, 530016, 530023 and 50025', async () => {
    const oidc = fakeJwt({ sub: 'merge-errors' });
    await external('OIDC', oidc);
    expect((await merge('carol', 'OIDC', oidc)).status).toBe(200);
    const notProvisional = await merge('dave', 'OIDC', oidc);
    expect(notProvisional.status).toBe(400);
    expect(((await notProvisional.json()) as { code: number }).code).toBe(530014);
    // carol already has an identity for this application.
    await external('OIDC', fakeJwt({ sub: 'second' }));
    expect(
      ((await (await merge('carol', 'OIDC', fakeJwt({ sub: 'second' }))).json()) as { code: number }).code,
    ).toBe(530023);
    // Merging into a provisional account.
    const p = (await (await bot({ external_user_id: 'dest-provisional' })).json()) as ProvisionalToken;
    const pUser = (await me(p.access_token)).user;
    const toProvisional = await merge(pUser.username, 'OIDC', fakeJwt({ sub: 'third' }));
    expect(((await toProvisional.json()) as { code: number }).code).toBe(530016);
    const badToken = await merge('dave', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', 'garbage');
    expect(badToken.status).toBe(403);
    expect(((await badToken.json()) as { code: number }).code).toBe(50025);
  });

  it('bans: tokens die at once, the identity moves to a restricted provisional account, merges fail with 530017', async () => {
    const token = 'epic-token-erin';
    await external('EPIC_ONLINE_SERVICES_ACCESS_TOKEN', token);
    const erinTokens = (await (
      await merge('erin', 'EPIC_ONLINE_SERVICES_ACCESS_TOKEN', token)
    ).json()) as TokenResponse;
    const erin = emu.users.find((u) => u.username === 'erin');
    emu.banUser(erin?.id ?? '');
    expect((await me(erinTokens.access_token)).status).toBe(401);
    const refreshed = await postForm(`${emu.api}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: emu.applicationId,
      refresh_token: erinTokens.refresh_token,
    });
    expect(((await refreshed.json()) as { error: string }).error).toBe('invalid_grant');
    // The identity now has a (restricted) provisional account of its own.
    const restricted = await external('EPIC_ONLINE_SERVICES_ACCESS_TOKEN', token);
    expect(restricted.status).toBe(200);
    const merged = await merge('dave', 'EPIC_ONLINE_SERVICES_ACCESS_TOKEN', token);
    expect(merged.status).toBe(400);
    expect(((await merged.json()) as { code: number }).code).toBe(530017);
    // A banned user cannot sign in again.
    await expect(signIn(emu, 'erin')).rejects.toThrow();
  });
});
