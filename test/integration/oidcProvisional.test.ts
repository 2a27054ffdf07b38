/**
 * The OIDC provisional path as the document states it, against a real OpenID Connect issuer on loopback
 * (discovery + JWKS served over HTTP, ID tokens signed with real ES256 and RS256 keys): the emulator verifies
 * the signature after discovery without following redirects and applies the issuer hostname rules; a
 * refresh token is returned but its grant is deprecated (it still works, marked with a Deprecation header and
 * a warning); renewal is re-authenticating and UpdateToken; and UpdateProvisionalAccountDisplayName.
 */
import { afterEach, describe, expect, it } from 'vitest';

import {
  AuthenticationExternalAuthType as BindingsAuthType,
  AuthorizationTokenType as BindingsTokenType,
  Client as BindingsClient,
  ClientResult,
  ClientStatus as BindingsStatus,
  ResetCallbacks,
} from '../../packages/sdkpp/bindings/index.js';
import {
  AuthenticationExternalAuthType,
  AuthorizationTokenType,
  ExternalIdentityProviderType,
  HttpError,
  ValidationError,
} from '../../packages/sdkpp/src/index.js';
import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { issuerUrlProblem } from '../../packages/emulator/src/oauth/oidcIssuer.js';
import { pumpUntil } from './bindingsHelpers.js';
import { allLogLines, allSecrets, clientFor, emulatorFor, linkAndConnect, userAt } from './helpers.js';
import { startLocalIssuer, type LocalIssuer } from './oidcIssuer.js';

const OIDC = AuthenticationExternalAuthType.OIDC;
const AUDIENCE = 'game-client-id';
const issuers: LocalIssuer[] = [];

afterEach(async () => {
  await Promise.all(issuers.splice(0).map((i) => i.close()));
});

async function setUp(): Promise<{ emulator: Emulator; idp: LocalIssuer }> {
  const idp = await startLocalIssuer();
  issuers.push(idp);
  const emulator = await emulatorFor({
    allowLoopbackOidcIssuers: true,
    oidcProviders: [
      { issuer: idp.issuer, audience: AUDIENCE },
      { issuer: idp.redirectingIssuer },
      { issuer: idp.jwksRedirectIssuer },
      { issuer: idp.ipJwksIssuer },
    ],
  });
  return { emulator, idp };
}

function idTokenOf(
  idp: LocalIssuer,
  sub: string,
  extra: Record<string, unknown> = {},
  alg: 'ES256' | 'RS256' = 'ES256',
): string {
  const token = idp.idToken({ sub, aud: AUDIENCE, preferred_username: 'Nova', ...extra }, { alg });
  allSecrets.add(token);
  return token;
}

async function refusal(run: () => Promise<unknown>): Promise<HttpError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('OIDC provisional accounts against a real issuer', () => {
  it('verifies ES256 and RS256 ID tokens after discovery; the profile names the issuer', async () => {
    const { emulator, idp } = await setUp();
    const client = clientFor(emulator);
    const es = await client.getProvisionalToken({
      externalAuthType: OIDC,
      externalAuthToken: idTokenOf(idp, 'player-1'),
    });
    const rs = await client.getProvisionalToken({
      externalAuthType: OIDC,
      externalAuthToken: idTokenOf(idp, 'player-1', {}, 'RS256'),
    });
    for (const t of [es, rs]) {
      allSecrets.add(t.accessToken);
      allSecrets.add(t.refreshToken);
    }
    expect((await client.fetchCurrentUser(es.accessToken)).id).toBe(
      (await client.fetchCurrentUser(rs.accessToken)).id,
    );
    expect(idp.hits.get('/.well-known/openid-configuration')).toBe(2);
    expect(idp.hits.get('/jwks')).toBe(2);
    await client.updateToken(AuthorizationTokenType.Bearer, es.accessToken);
    await client.connect();
    const [profile] = client.getUserApplicationProfiles();
    expect(profile).toMatchObject({
      providerType: ExternalIdentityProviderType.OIDC,
      providerId: idp.issuer,
      providerIssuedUserId: 'player-1',
      username: 'Nova',
    });
  });

  it('refuses a bad signature, an unknown issuer, a wrong audience and an expired token', async () => {
    const { emulator, idp } = await setUp();
    const client = clientFor(emulator);
    const ask = (externalAuthToken: string) =>
      client.getProvisionalToken({ externalAuthType: OIDC, externalAuthToken });
    const good = idTokenOf(idp, 'player-2');
    const [head, payload] = good.split('.');
    const forged = idp.idToken({ sub: 'player-2', aud: AUDIENCE }, { key: 'foreign' });
    const tampered = `${head}.${Buffer.from(JSON.stringify({ iss: idp.issuer, sub: 'someone-else', aud: AUDIENCE, exp: 9e9 })).toString('base64url')}.${good.split('.')[2]}`;
    expect(payload).toBeDefined();
    for (const [token, message] of [
      [forged, 'the signature does not match'],
      [tampered, 'the signature does not match'],
      [idTokenOf(idp, 'p', { iss: 'https://idp.example.com' }), 'is not a configured identity provider'],
      [idTokenOf(idp, 'p', { aud: 'another-game' }), 'claim does not name the application'],
      [`${head}.${payload}.`, 'not a signed JWT'],
    ] as const) {
      allSecrets.add(token);
      const error = await refusal(() => ask(token));
      expect([error.status, error.code]).toEqual([400, 530020]);
      expect(error.responseBody).toContain(message);
    }
    const expired = await refusal(() => ask(idTokenOf(idp, 'p', { exp: Math.floor(Date.now() / 1000) - 5 })));
    expect(expired.code).toBe(530001);
    expect(allLogLines.some((l) => l.includes('ID token refused'))).toBe(true);
  });

  it('does not follow HTTP redirects during OIDC configuration or JWKS discovery', async () => {
    const { emulator, idp } = await setUp();
    const client = clientFor(emulator);
    const token = (issuer: string): string => {
      const t = idp.idToken({ sub: 'p', iss: issuer });
      allSecrets.add(t);
      return t;
    };
    const configRedirect = await refusal(() =>
      client.getProvisionalToken({ externalAuthType: OIDC, externalAuthToken: token(idp.redirectingIssuer) }),
    );
    expect(configRedirect.code).toBe(530020);
    expect(configRedirect.responseBody).toContain(
      'answered with a redirect (302); redirects are not followed',
    );
    const jwksRedirect = await refusal(() =>
      client.getProvisionalToken({
        externalAuthType: OIDC,
        externalAuthToken: token(idp.jwksRedirectIssuer),
      }),
    );
    expect(jwksRedirect.responseBody).toContain('the JWKS at');
    expect(jwksRedirect.responseBody).toContain('answered with a redirect (301)');
    // Not followed: the redirect targets were never asked for.
    expect(idp.hits.get('/.well-known/openid-configuration')).toBeUndefined();
    expect(idp.hits.get('/jwks')).toBeUndefined();
    const ipJwks = await refusal(() =>
      client.getProvisionalToken({ externalAuthType: OIDC, externalAuthToken: token(idp.ipJwksIssuer) }),
    );
    expect(ipJwks.responseBody).toContain('the JWKS URI http://10.0.0.7/jwks must use https');
  });

  it('applies the stricter issuer hostname rules when providers are configured', async () => {
    const strict = { allowLoopback: false };
    const loopback = { allowLoopback: true };
    expect(issuerUrlProblem('https://login.example.com/tenant', strict)).toBeNull();
    expect(issuerUrlProblem('http://login.example.com', strict)).toBe('must use https');
    expect(issuerUrlProblem('https://10.1.2.3', loopback)).toBe('must name a host, not an IP address');
    expect(issuerUrlProblem('https://[fd00::1]', loopback)).toBe('must name a host, not an IP address');
    expect(issuerUrlProblem('https://127.0.0.1', strict)).toBe('must name a host, not an IP address');
    expect(issuerUrlProblem('http://127.0.0.1:8080', loopback)).toBeNull();
    expect(issuerUrlProblem('https://localhost', strict)).toBe('must not be localhost');
    expect(issuerUrlProblem('https://idp.localhost', loopback)).toBe('must not be localhost');
    expect(issuerUrlProblem('https://intranet', strict)).toBe('must have a fully qualified host name');
    expect(issuerUrlProblem('https://idp.example.com.', strict)).toBe('has an invalid host name');
    expect(issuerUrlProblem('https://-bad.example.com', strict)).toBe('has an invalid host name');
    expect(issuerUrlProblem('https://idp.example.c0m', strict)).toBe('has an invalid top-level domain');
    expect(issuerUrlProblem('https://user:pw@idp.example.com', strict)).toBe(
      'must not carry a user name or password',
    );
    expect(issuerUrlProblem('https://idp.example.com/?tenant=1', strict)).toBe(
      'must not have a query or fragment',
    );
    // Configuration is refused at start-up, as the developer portal refuses such an edit.
    await expect(
      startEmulator({ port: 0, oidcProviders: [{ issuer: 'http://127.0.0.1:9' }] }),
    ).rejects.toThrow('EmulatorOptions.oidcProviders[0].issuer must use https');
    await expect(
      startEmulator({
        port: 0,
        allowLoopbackOidcIssuers: true,
        oidcProviders: [{ issuer: 'https://192.168.1.10' }],
      }),
    ).rejects.toThrow('must name a host, not an IP address');
  });

  it('returns a refresh token whose grant is deprecated: it still refreshes, with a Deprecation header and warnings', async () => {
    const { emulator, idp } = await setUp();
    const client = clientFor(emulator);
    const first = await client.getProvisionalToken({
      externalAuthType: OIDC,
      externalAuthToken: idTokenOf(idp, 'player-3'),
    });
    allSecrets.add(first.accessToken);
    allSecrets.add(first.refreshToken);
    expect(first.refreshToken.length).toBeGreaterThan(20);
    const refreshed = await client.refreshToken({ refreshToken: first.refreshToken });
    allSecrets.add(refreshed.accessToken);
    allSecrets.add(refreshed.refreshToken);
    expect(refreshed.scopes).toBe('sdk.social_layer');
    expect(
      allLogLines.some((l) => l.includes('refreshToken: the platform marks this refresh as deprecated')),
    ).toBe(true);
    expect(allLogLines.some((l) => l.includes('refresh_token grant for the OIDC provisional account'))).toBe(
      true,
    );
    // The header itself, as any HTTP client sees it.
    const raw = await fetch(`${emulator.api}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: emulator.applicationId,
        refresh_token: refreshed.refreshToken,
      }),
    });
    const body = (await raw.json()) as { access_token: string; refresh_token: string };
    allSecrets.add(body.access_token);
    allSecrets.add(body.refresh_token);
    expect([raw.status, raw.headers.get('deprecation')]).toEqual([200, '@0']);
    // Other providers' provisional tokens still come without one.
    const steam = await client.getProvisionalToken({
      externalAuthType: AuthenticationExternalAuthType.SteamSessionTicket,
      externalAuthToken: 'steam-ticket-oidc-test',
    });
    allSecrets.add(steam.accessToken);
    expect(steam.refreshToken).toBe('');
  });

  it('renews by re-authenticating with the provider and UpdateToken, then renames the account', async () => {
    const { emulator, idp } = await setUp();
    const client = clientFor(emulator);
    const first = await client.getProvisionalToken({
      externalAuthType: OIDC,
      externalAuthToken: idTokenOf(idp, 'player-4'),
    });
    allSecrets.add(first.accessToken);
    allSecrets.add(first.refreshToken);
    await client.updateToken(AuthorizationTokenType.Bearer, first.accessToken);
    await client.connect();
    const id = client.getCurrentUser()?.id;
    const again = await client.getProvisionalToken({
      externalAuthType: OIDC,
      externalAuthToken: idTokenOf(idp, 'player-4'),
    });
    allSecrets.add(again.accessToken);
    allSecrets.add(again.refreshToken);
    await client.updateToken(AuthorizationTokenType.Bearer, again.accessToken);
    expect((await client.fetchCurrentUser(again.accessToken)).id).toBe(id);

    const updated = client.waitFor('userUpdated');
    await client.updateProvisionalAccountDisplayName('Nova Star');
    expect(client.getCurrentUser()?.displayName).toBe('Nova Star');
    await updated;
    await expect(client.updateProvisionalAccountDisplayName('   ')).rejects.toBeInstanceOf(ValidationError);
    await expect(client.updateProvisionalAccountDisplayName('x'.repeat(33))).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});

describe('UpdateProvisionalAccountDisplayName', () => {
  it('Client.UpdateProvisionalAccountDisplayName answers through its callback; a full account is refused', async () => {
    const emulator = await emulatorFor();
    const client = new BindingsClient({ apiBase: emulator.api, webBase: emulator.http, localClient: false });
    try {
      let token = '';
      client.GetProvisionalToken(
        BigInt(emulator.applicationId),
        BindingsAuthType.SteamSessionTicket,
        'steam-ticket-rename',
        (result, accessToken) => {
          token = accessToken;
          if (result.Successful())
            client.UpdateToken(BindingsTokenType.Bearer, accessToken, () => client.Connect());
        },
      );
      await pumpUntil(() => client.GetStatus() === BindingsStatus.Ready);
      allSecrets.add(token);
      const results: ClientResult[] = [];
      client.UpdateProvisionalAccountDisplayName('Ranger Rae', (r) => results.push(r));
      await pumpUntil(() => results.length === 1);
      expect(results[0]?.Successful()).toBe(true);
      expect(client.GetCurrentUserV2()?.DisplayName()).toBe('Ranger Rae');
    } finally {
      await client.core.destroy();
      ResetCallbacks();
    }
    // A linked (full) account: refused locally by the SDK, and by the platform for a raw request.
    const full = await linkAndConnect(emulator, userAt(emulator, 0));
    await expect(full.client.updateProvisionalAccountDisplayName('Mallory')).rejects.toBeInstanceOf(
      ValidationError,
    );
    const raw = await fetch(`${emulator.api}/users/@me/account`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${full.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ global_name: 'Mallory' }),
    });
    expect(raw.status).toBe(403);
    expect(((await raw.json()) as { code: number }).code).toBe(50001);
  });
});
