import { describe, expect, it } from 'vitest';

import {
  AuthorizationTokenType,
  Client,
  HttpError,
  SdkError,
  ValidationError,
  type Activity,
  type AuthorizationArgs,
} from '../../packages/sdkpp/src/index.js';
import { clientFor, emulatorFor } from './helpers.js';

/** What a call threw or rejected with. */
async function failure(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('one error family at the surface', () => {
  it('bad client options are a ValidationError naming the option', async () => {
    for (const [options, named] of [
      [{ apiBase: 'not a url' }, 'apiBase'],
      [{ apiBase: 'ftp://example.com/api' }, 'apiBase'],
      [{ webBase: '/relative' }, 'webBase'],
      [{ gatewayUrl: 'https://gateway.example/' }, 'gatewayUrl'],
      [{ applicationId: 'my-game' }, 'applicationId'],
      [{ callJoinTimeoutMs: -1 }, 'callJoinTimeoutMs'],
    ] as const) {
      const error = await failure(() => new Client({ ...options, localClient: false }));
      expect(error, named).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain(named);
    }
  });

  it('updateRichPresence(null) and other non-objects are a ValidationError', async () => {
    const emulator = await emulatorFor();
    const client = clientFor(emulator);
    for (const activity of [null, undefined, 'Playing', 3]) {
      const error = await failure(() => client.updateRichPresence(activity as unknown as Activity));
      expect(error, String(activity)).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain('clearRichPresence');
    }
    const party = await failure(() =>
      client.updateRichPresence({ type: 0, party: null } as unknown as Activity),
    );
    expect(party).toBeInstanceOf(ValidationError);
  });

  it('a code challenge of the wrong shape says what to pass', async () => {
    const emulator = await emulatorFor();
    const opened: string[] = [];
    const client = clientFor(emulator, {
      openUrl: (url) => {
        opened.push(url);
        return Promise.resolve();
      },
    });
    const error = await failure(() =>
      client.authorize({ codeChallenge: 'x' } as unknown as AuthorizationArgs),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain('createAuthorizationCodeVerifier()');
    expect((error as Error).message).not.toContain('S256 method');
    expect(opened).toEqual([]);
  });

  it('a refused token says what happened and what to do, and connect() does not claim none was given', async () => {
    const emulator = await emulatorFor();
    const client = clientFor(emulator);
    const error = await failure(() =>
      client.updateToken(AuthorizationTokenType.Bearer, 'not-a-real-token-0123456789'),
    );
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.status).toBe(401);
    expect(http.name).toBe('HTTPError');
    expect(http.message).toMatch(/refused this access token/);
    expect(http.message).toMatch(/refreshToken\(\)|authorize again/);
    expect(http.message).not.toContain('/oauth2');
    expect(http.message).not.toMatch(/401: 401/);
    const connect = await failure(() => client.connect());
    expect(connect).toBeInstanceOf(ValidationError);
    expect((connect as Error).message).toContain('refused');
    expect((connect as Error).message).not.toMatch(/^no token/);
    expect(connect).toBeInstanceOf(SdkError);
  });
});

describe('voice errors are SdkErrors too', () => {
  it('getVerificationCode before the call connects, and for someone not in the group, is a ValidationError', async () => {
    const { linkAndConnect, userAt, eventually } = await import('./helpers.js');
    const { CallStatus } = await import('../../packages/sdkpp/src/index.js');
    const emulator = await emulatorFor({ autoConsent: true, users: 2 });
    const { client } = await linkAndConnect(emulator, userAt(emulator, 0));
    const lobbyId = await client.createOrJoinLobby('verification-lobby');
    const call = client.startCall(lobbyId);
    const early = await failure(() => call.getVerificationCode(userAt(emulator, 1).id));
    expect(early).toBeInstanceOf(ValidationError);
    expect((early as Error).message).toContain('not connected yet');
    await eventually(() => call.getStatus() === CallStatus.Connected, 10_000, 'the call to connect');
    const stranger = await failure(() => call.getVerificationCode(userAt(emulator, 1).id));
    expect(stranger).toBeInstanceOf(ValidationError);
    expect((stranger as Error).message).toContain('privacyCodeChanged');
  });
});
