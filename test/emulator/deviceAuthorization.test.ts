import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { postForm, postJson } from './helpers.js';
import { closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

// The device authorization grant (RFC 8628) over real HTTP: the device's two endpoints and the
// verification page a player's browser posts to.

const { running } = closeAfterEach();
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

interface DeviceCodes {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

interface OAuthBody {
  error?: string;
  error_description?: string;
  access_token?: string;
  refresh_token?: string;
  scope?: string;
  token_type?: string;
}

async function startDevice(emu: Emulator, scope = 'openid sdk.social_layer'): Promise<DeviceCodes> {
  const response = await postForm(`${emu.api}/oauth2/device/authorize`, {
    client_id: emu.applicationId,
    scope,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toContain('no-store');
  return (await response.json()) as DeviceCodes;
}

async function poll(
  emu: Emulator,
  deviceCode: string,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: OAuthBody }> {
  const response = await postForm(`${emu.api}/oauth2/token`, {
    grant_type: DEVICE_GRANT,
    client_id: emu.applicationId,
    device_code: deviceCode,
    ...extra,
  });
  return { status: response.status, body: (await response.json()) as OAuthBody };
}

/** The hidden fields and the first select's first option of a page's form, as a browser would post them. */
function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[match[1] ?? ''] = (match[2] ?? '').replace(/&amp;/g, '&');
  }
  return fields;
}

/** Types `typed` into the verification page and returns the next page. */
async function enterCode(emu: Emulator, typed: string): Promise<Response> {
  const page = await (await fetch(`${emu.http}/activate`)).text();
  return postForm(`${emu.http}/activate`, { ...formFields(page), user_code: typed });
}

/** Enters the code, then approves as `userId` or denies. */
async function answer(emu: Emulator, typed: string, choice: { approveAs: string } | 'deny'): Promise<string> {
  const consent = await enterCode(emu, typed);
  expect(consent.status).toBe(200);
  const html = await consent.text();
  const fields = {
    ...formFields(html),
    ...(choice === 'deny' ? { action: 'deny' } : { action: 'approve', user_id: choice.approveAs }),
  };
  const done = await postForm(`${emu.http}/activate/decide`, fields);
  expect(done.status).toBe(200);
  return done.text();
}

describe('device authorization endpoint', () => {
  it("answers the platform's fields: a short user code, where to enter it, 300 s and a 5 s interval", async () => {
    const { emu, logs } = await loggedEmulator(running);
    const codes = await startDevice(emu);
    expect(codes.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(codes.device_code.length).toBeGreaterThanOrEqual(43);
    expect(codes.verification_uri).toBe(`${emu.http}/activate`);
    expect(codes.verification_uri_complete).toBe(`${emu.http}/activate?user_code=${codes.user_code}`);
    expect(codes.expires_in).toBe(300);
    expect(codes.interval).toBe(5);
    const discovery = (await (await fetch(`${emu.http}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(discovery.device_authorization_endpoint).toBe(`${emu.api}/oauth2/device/authorize`);
    expect(discovery.grant_types_supported).toContain(DEVICE_GRANT);
    // The device code is the device's secret and never reaches the log.
    expect(logs.some((line) => line.includes(codes.device_code))).toBe(false);
  });

  it('refuses an unknown client (401), a wrong secret (401) and unknown or missing scopes', async () => {
    const { emu } = await loggedEmulator(running, { clientSecret: 'shh' });
    const url = `${emu.api}/oauth2/device/authorize`;
    const unknown = await postForm(url, { client_id: '1', scope: 'identify' });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ error: 'invalid_client' });
    const wrongSecret = await postForm(url, {
      client_id: emu.applicationId,
      client_secret: 'no',
      scope: 'identify',
    });
    expect(wrongSecret.status).toBe(401);
    const confidential = await postForm(url, {
      client_id: emu.applicationId,
      client_secret: 'shh',
      scope: 'identify',
    });
    expect(confidential.status).toBe(200);
    const badScope = await postForm(url, { client_id: emu.applicationId, scope: 'identify bogus.scope' });
    expect(badScope.status).toBe(400);
    expect(((await badScope.json()) as OAuthBody).error).toBe('invalid_scope');
    const noScope = await postForm(url, { client_id: emu.applicationId });
    expect(((await noScope.json()) as OAuthBody).error).toBe('invalid_scope');
    const json = await postJson(url, { client_id: emu.applicationId, scope: 'identify' });
    expect(json.status).toBe(400);
  });
});

describe('device code grant', () => {
  it('is pending, slows a device that polls early by 5 s a time, then issues tokens once', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 2 });
    const codes = await startDevice(emu, 'identify openid');
    const first = await poll(emu, codes.device_code);
    expect(first).toEqual({
      status: 400,
      body: { error: 'authorization_pending', error_description: expect.any(String) as string },
    });
    const early = await poll(emu, codes.device_code);
    expect(early.status).toBe(400);
    expect(early.body.error).toBe('slow_down');
    expect(emu.deviceAuthorizations()[0]?.intervalSeconds).toBe(10);
    expect((await poll(emu, codes.device_code)).body.error).toBe('slow_down');
    expect(emu.deviceAuthorizations()[0]?.intervalSeconds).toBe(15);
    // After the (grown) interval, a poll is on time again.
    emu.advanceTime(15_000);
    expect((await poll(emu, codes.device_code)).body.error).toBe('authorization_pending');

    const bob = emu.users[1];
    if (!bob) throw new Error('no second user');
    // Case and dashes do not matter to the player.
    const done = await answer(emu, codes.user_code.toLowerCase().replace('-', ' '), { approveAs: bob.id });
    expect(done).toContain('Device connected');
    expect(emu.deviceAuthorizations()[0]?.status).toBe('approved');

    emu.advanceTime(15_000);
    const granted = await poll(emu, codes.device_code);
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ token_type: 'Bearer', scope: 'identify openid' });
    const me = await fetch(`${emu.api}/users/@me`, {
      headers: { Authorization: `Bearer ${granted.body.access_token ?? ''}` },
    });
    expect(((await me.json()) as { id: string }).id).toBe(bob.id);
    // A device code is good for one token reply.
    const again = await poll(emu, codes.device_code);
    expect(again.body.error).toBe('invalid_grant');
    expect(emu.deviceAuthorizations()).toEqual([]);
    const secrets = [codes.device_code, granted.body.access_token ?? '', granted.body.refresh_token ?? ''];
    expect(logs.filter((line) => secrets.some((s) => line.includes(s)))).toEqual([]);
  });

  it('answers access_denied once the player denies, and expired_token after expires_in', async () => {
    const { emu } = await loggedEmulator(running);
    const denied = await startDevice(emu);
    expect(await answer(emu, denied.user_code, 'deny')).toContain('Request denied');
    expect((await poll(emu, denied.device_code)).body.error).toBe('access_denied');
    expect((await poll(emu, denied.device_code)).body.error).toBe('invalid_grant');

    const late = await startDevice(emu);
    emu.advanceTime(300_000);
    expect((await poll(emu, late.device_code)).body.error).toBe('expired_token');
    // The expired code can no longer be entered either.
    const entered = await enterCode(emu, late.user_code);
    expect(entered.status).toBe(400);
    expect(await entered.text()).toContain('not valid or has expired');
  });

  it('merges a provisional account into the approving player (external_auth_type/token on the poll)', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    const provisional = (await (
      await postJson(`${emu.api}/partner-sdk/token`, {
        client_id: emu.applicationId,
        external_auth_type: 'STEAM_SESSION_TICKET',
        external_auth_token: 'ticket-device',
      })
    ).json()) as { access_token: string };
    const codes = await startDevice(emu);
    const merge = { external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: 'ticket-device' };
    // A malformed merge is refused before the poll counts.
    const bad = await poll(emu, codes.device_code, {
      external_auth_type: 'FACEBOOK',
      external_auth_token: 'x',
    });
    expect(bad.status).toBe(400);
    const alice = emu.users[0];
    if (!alice) throw new Error('no user');
    await answer(emu, codes.user_code, { approveAs: alice.id });
    const granted = await poll(emu, codes.device_code, merge);
    expect(granted.status).toBe(200);
    // The provisional account's token died with the merge; the identity now signs in as alice.
    const old = await fetch(`${emu.api}/users/@me`, {
      headers: { Authorization: `Bearer ${provisional.access_token}` },
    });
    expect(old.status).toBe(401);
    // The identity is the full account's now: asking for its provisional token is answered with 530010.
    const again = await postJson(`${emu.api}/partner-sdk/token`, {
      client_id: emu.applicationId,
      external_auth_type: 'STEAM_SESSION_TICKET',
      external_auth_token: 'ticket-device',
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: 530010, user_id: alice.id });
  });
});

describe('verification page', () => {
  it('prefills the code from verification_uri_complete and shows the app and its scopes', async () => {
    const { emu } = await loggedEmulator(running, { applicationName: 'Console <Quest>' });
    const codes = await startDevice(emu, 'identify sdk.social_layer');
    const page = await (await fetch(codes.verification_uri_complete)).text();
    expect(page).toContain(`value="${codes.user_code}"`);
    const consent = await (await enterCode(emu, codes.user_code)).text();
    expect(consent).toContain('Console &lt;Quest&gt;');
    expect(consent).toContain('<code>identify</code>');
    expect(consent).toContain('<code>sdk.social_layer</code>');
    expect(consent).toContain(codes.user_code);
  });

  it('limits wrong codes: after 10 in a minute even the right one waits', async () => {
    const { emu, logs } = await loggedEmulator(running);
    const codes = await startDevice(emu);
    for (let i = 0; i < 10; i += 1) {
      const wrong = await enterCode(emu, i % 2 === 0 ? 'BBBB-BBBB' : 'not a code');
      expect(wrong.status).toBe(400);
    }
    const limited = await enterCode(emu, codes.user_code);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toMatch(/Too many wrong codes\. Try again in \d+ seconds/);
    expect(logs.some((line) => line.includes(codes.user_code) || line.includes('BBBB'))).toBe(false);
    emu.advanceTime(60_000);
    expect((await enterCode(emu, codes.user_code)).status).toBe(200);
  });

  it('refuses a changed or foreign decide form and a post from another site', async () => {
    const { emu } = await loggedEmulator(running);
    const codes = await startDevice(emu);
    const alice = emu.users[0];
    if (!alice) throw new Error('no user');
    const html = await (await enterCode(emu, codes.user_code)).text();
    const fields = formFields(html);
    // The form token is bound to its user code: it cannot approve another device's code.
    const other = await startDevice(emu);
    const swapped = await postForm(`${emu.http}/activate/decide`, {
      ...fields,
      user_code: other.user_code.replace('-', ''),
      action: 'approve',
      user_id: alice.id,
    });
    expect(swapped.status).toBe(400);
    const crossSite = await postForm(
      `${emu.http}/activate/decide`,
      { ...fields, action: 'approve', user_id: alice.id },
      { Origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    expect(emu.deviceAuthorizations().every((a) => a.status === 'pending')).toBe(true);
  });
});
