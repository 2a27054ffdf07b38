import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { emulatorBrowser, emulatorInfoAt } from '../../packages/emulator/src/index.js';
import { allSecrets, clientFor, emulatorFor } from './helpers.js';

// A game in another terminal knows only the emulator's address; these helpers use nothing but its HTTP.
describe('an emulator in another process', () => {
  it('emulatorInfoAt reads the addresses, the application id and public key, and the users', async () => {
    const emulator = await emulatorFor({ users: 3 });
    expect(await emulatorInfoAt(emulator.http)).toEqual({
      http: emulator.http,
      api: emulator.api,
      gateway: emulator.gateway,
      dashboard: emulator.dashboard,
      applicationId: emulator.applicationId,
      applicationPublicKey: emulator.applicationPublicKey,
      autoConsent: false,
      users: emulator.users.map(({ id, username }) => ({ id, username })),
    });
  });

  it('emulatorInfoAt says clearly when nothing, or something else, answers', async () => {
    const emulator = await emulatorFor();
    const closedPort = new URL(emulator.http).port;
    await emulator.close();
    await expect(emulatorInfoAt(`http://127.0.0.1:${closedPort}`)).rejects.toThrow(
      `no emulator answers at http://127.0.0.1:${closedPort}`,
    );

    const other = createServer((_req, res) => res.end('<html>not an emulator</html>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      await expect(emulatorInfoAt(origin)).rejects.toThrow(
        `${origin} does not answer like an sdkpp emulator`,
      );
    } finally {
      other.close();
    }
  });

  it('emulatorBrowser signs in on the consent page and through auto-consent, and names a missing user', async () => {
    for (const autoConsent of [false, true]) {
      const emulator = await emulatorFor({ autoConsent });
      const client = clientFor(emulator, { openUrl: emulatorBrowser(emulator.http, 'bob') });
      const pkce = client.createAuthorizationCodeVerifier();
      const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
      allSecrets.add(code);
      const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
      allSecrets.add(tokens.accessToken);
      expect((await client.fetchCurrentUser(tokens.accessToken)).username).toBe('bob');

      const stranger = clientFor(emulator, { openUrl: emulatorBrowser(emulator.http, 'mallory') });
      const failed = await stranger
        .authorize({ codeChallenge: stranger.createAuthorizationCodeVerifier().challenge })
        .catch((error: unknown) => error);
      expect(String(failed)).toMatch(/has no user "mallory" \(it has alice, bob\)/);
    }
  });

  it("emulatorBrowser can press Cancel, and the client's authorize fails as the player declined", async () => {
    const emulator = await emulatorFor();
    const client = clientFor(emulator, {
      openUrl: emulatorBrowser(emulator.http, 'alice', { action: 'cancel' }),
    });
    await expect(
      client.authorize({ codeChallenge: client.createAuthorizationCodeVerifier().challenge }),
    ).rejects.toMatchObject({ code: 'access_denied', message: 'The user cancelled the authorization' });
  });
});
