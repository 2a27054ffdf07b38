import { describe, expect, it } from 'vitest';

import {
  AuthorizationTokenType,
  ClientError,
  ClientStatus,
  ErrorType,
} from '../../packages/sdkpp/src/index.js';
import { allLogLines, clientFor, emulatorFor, linkAndConnect, userAt } from './helpers.js';

describe('link an account and connect (SDK ↔ emulator over loopback)', () => {
  it('two players link through the consent page and reach Ready as themselves', async () => {
    const emulator = await emulatorFor({ users: 2 });
    const [alice, bob] = await Promise.all([
      linkAndConnect(emulator, userAt(emulator, 0)),
      linkAndConnect(emulator, userAt(emulator, 1)),
    ]);
    expect(alice.client.getStatus()).toBe(ClientStatus.Ready);
    expect(alice.client.getCurrentUser()?.id).toBe(userAt(emulator, 0).id);
    expect(alice.client.getCurrentUser()?.username).toBe('alice');
    expect(bob.client.getCurrentUser()?.username).toBe('bob');
    expect(bob.client.getCurrentUser()?.isProvisional).toBe(false);
    expect(emulator.gatewaySessions()).toHaveLength(2);
    // A full debug-mode run logged plenty; none of it may carry a secret (checked again for the file).
    expect(allLogLines.length).toBeGreaterThan(10);
    for (const secret of [...alice.secrets, ...bob.secrets]) {
      expect(allLogLines.some((l) => l.includes(secret))).toBe(false);
    }
  });

  it('reports Connecting → Connected → Ready, and Disconnecting → Disconnected on disconnect', async () => {
    const emulator = await emulatorFor();
    const player = await linkAndConnect(emulator, userAt(emulator, 0));
    const statuses: Array<[ClientStatus, ClientError]> = [];
    player.client.on('statusChanged', (s, e) => statuses.push([s, e]));
    await player.client.disconnect();
    expect(statuses).toEqual([
      [ClientStatus.Disconnecting, ClientError.None],
      [ClientStatus.Disconnected, ClientError.None],
    ]);
    expect(player.client.getCurrentUser()).toBeUndefined();

    const seen: ClientStatus[] = [];
    player.client.on('statusChanged', (s) => seen.push(s));
    await player.client.connect();
    expect(seen).toEqual([ClientStatus.Connecting, ClientStatus.Connected, ClientStatus.Ready]);
  });

  it('getCurrentUser() returns nothing before Ready', async () => {
    const emulator = await emulatorFor();
    const client = clientFor(emulator, { openUrl: emulator.browserAs('alice') });
    expect(client.getCurrentUser()).toBeUndefined();
    const pkce = client.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
    const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
    await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    let userWhileConnecting: unknown = 'unset';
    client.on('statusChanged', (s) => {
      if (s === ClientStatus.Connected) userWhileConnecting = client.getCurrentUser();
      if (s === ClientStatus.Ready) expect(client.getCurrentUser()?.username).toBe('alice');
    });
    await client.connect();
    expect(userWhileConnecting).toBeUndefined();
  });

  it('connect() without a token is a validation error and does nothing', async () => {
    const emulator = await emulatorFor();
    const client = clientFor(emulator);
    await expect(client.connect()).rejects.toMatchObject({ type: ErrorType.ValidationError });
    expect(client.getStatus()).toBe(ClientStatus.Disconnected);
  });

  it('finds the gateway through GET /gateway', async () => {
    const emulator = await emulatorFor();
    const player = await linkAndConnect(emulator, userAt(emulator, 0));
    expect(emulator.requestCount('GET', '/gateway')).toBe(1);
    expect(player.client.getStatus()).toBe(ClientStatus.Ready);
  });
});
