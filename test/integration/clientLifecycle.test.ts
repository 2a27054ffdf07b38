import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  AbortedError,
  ActivityTypes,
  AuthorizationTokenType,
  Client,
  ClientDestroyedError,
  ClientError,
  ClientStatus,
} from '../../packages/sdkpp/src/index.js';
import { clientFor, emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';
import { TypedEmitter } from '../../packages/protocol/src/base/TypedEmitter.js';

/** Unhandled rejections seen during a test: an aborted connect() must never leave one behind. */
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

async function tokenOf(options: { httpLatencyMs?: number } = {}) {
  const emulator = await emulatorFor({ autoConsent: true, ...options });
  const { client, accessToken } = await linkAndConnect(emulator, userAt(emulator, 0));
  await client.disconnect();
  return { emulator, accessToken };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connect() with an AbortSignal', () => {
  it('an already-aborted signal rejects at once with AbortedError and starts nothing', async () => {
    const { emulator, accessToken } = await tokenOf();
    const client = clientFor(emulator);
    await client.updateToken(AuthorizationTokenType.Bearer, accessToken);
    const statuses: ClientStatus[] = [];
    client.on('statusChanged', (status) => statuses.push(status));
    await expect(client.connect({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortedError);
    await settle(300);
    expect(statuses).toEqual([]);
    expect(client.getStatus()).toBe(ClientStatus.Disconnected);
  });

  it('aborting while the gateway address is fetched rejects with AbortedError, no unhandled rejection, never Ready', async () => {
    const { emulator, accessToken } = await tokenOf({ httpLatencyMs: 300 });
    const client = clientFor(emulator);
    await client.updateToken(AuthorizationTokenType.Bearer, accessToken);
    const errors: ClientError[] = [];
    client.on('statusChanged', (_status, error) => errors.push(error));
    const controller = new AbortController();
    const connecting = client.connect({ signal: controller.signal });
    const outcome = connecting.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    setTimeout(() => {
      controller.abort();
    }, 1);
    const error = await outcome;
    expect(error).toBeInstanceOf(AbortedError);
    await settle(800);
    expect(client.getStatus()).toBe(ClientStatus.Disconnected);
    expect(errors.at(-1)).toBe(ClientError.ConnectionCanceled);
    expect(unhandled).toEqual([]);
  });

  it('aborting after the socket opened cancels the attempt: AbortedError, Disconnected, never Ready', async () => {
    const { emulator, accessToken } = await tokenOf();
    const client = clientFor(emulator, { gatewayUrl: emulator.gateway });
    await client.updateToken(AuthorizationTokenType.Bearer, accessToken);
    const statuses: ClientStatus[] = [];
    client.on('statusChanged', (status) => statuses.push(status));
    const controller = new AbortController();
    const connecting = client.connect({ signal: controller.signal });
    await new Promise<void>((resolve) => {
      client.on('statusChanged', (status) => {
        if (status === ClientStatus.Connected) resolve();
      });
    });
    controller.abort(new Error('the player closed the menu'));
    const error = await connecting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).cause).toBeInstanceOf(Error);
    await settle(500);
    expect(statuses).not.toContain(ClientStatus.Ready);
    expect(client.getStatus()).toBe(ClientStatus.Disconnected);
    // The client can connect again afterwards.
    await client.connect();
    expect(client.getStatus()).toBe(ClientStatus.Ready);
  });
});

describe('destroy()', () => {
  it('makes every method throw or reject ClientDestroyedError; connect() after destroy rejects', async () => {
    const { emulator, accessToken } = await tokenOf();
    const client = clientFor(emulator);
    await client.updateToken(AuthorizationTokenType.Bearer, accessToken);
    await client.connect();
    await client.destroy();
    await expect(client.connect()).rejects.toBeInstanceOf(ClientDestroyedError);
    // Client's methods are grouped over a chain of classes (ClientCore, SocialClient, LobbyClient, Client):
    // every class of the chain counts, up to the event emitter it extends.
    const prototypes: object[] = [];
    for (
      let p: object | null = Client.prototype;
      p && p !== TypedEmitter.prototype;
      p = Object.getPrototypeOf(p) as object | null
    )
      prototypes.push(p);
    const methods = prototypes.flatMap((prototype) =>
      Reflect.ownKeys(prototype).filter(
        (key) =>
          key !== 'constructor' &&
          key !== 'destroy' &&
          key !== Symbol.asyncDispose &&
          key !== 'getStatus' &&
          typeof Object.getOwnPropertyDescriptor(prototype, key)?.value === 'function',
      ),
    );
    expect(methods.length).toBeGreaterThan(90);
    const outcomes: string[] = [];
    for (const key of methods) {
      const method = (client as unknown as Record<PropertyKey, (...args: unknown[]) => unknown>)[key];
      let error: unknown;
      try {
        const result = method?.call(client, 'x', 'y', 'z');
        if (result instanceof Promise)
          error = await result.then(
            () => undefined,
            (e: unknown) => e,
          );
      } catch (e) {
        error = e;
      }
      if (!(error instanceof ClientDestroyedError)) outcomes.push(String(key));
    }
    expect(outcomes).toEqual([]);
    expect(client.getStatus()).toBe(ClientStatus.Disconnected);
    await client.destroy(); // twice is fine
  });

  it('rejects a pending connect() and pending waitFor() with ClientDestroyedError', async () => {
    const { emulator, accessToken } = await tokenOf({ httpLatencyMs: 300 });
    const client = clientFor(emulator);
    await client.updateToken(AuthorizationTokenType.Bearer, accessToken);
    const connecting = client.connect().catch((e: unknown) => e);
    const waiting = client.waitFor('lobbyCreated').catch((e: unknown) => e);
    await settle(20);
    await client.destroy();
    expect(await connecting).toBeInstanceOf(ClientDestroyedError);
    expect(await waiting).toBeInstanceOf(ClientDestroyedError);
    expect(unhandled).toEqual([]);
  });

  it('runs at the end of an `await using` scope', async () => {
    const { emulator, accessToken } = await tokenOf();
    let outer: Client | undefined;
    {
      await using client = new Client({
        apiBase: emulator.api,
        applicationId: emulator.applicationId,
        localClient: false,
      });
      outer = client;
      await client.updateToken(AuthorizationTokenType.Bearer, accessToken);
      await client.connect();
      expect(emulator.gatewaySessions()).toHaveLength(1);
    }
    expect(() => outer.getCurrentUser()).toThrow(ClientDestroyedError);
    await settle(100);
    expect(emulator.gatewaySessions()).toHaveLength(0);
  });
});

describe('a client that was never destroyed', () => {
  it('does not keep the process alive once its platform is gone', async () => {
    const { spawn } = await import('node:child_process');
    const { emulator, accessToken } = await tokenOf();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/integration/fixtures/forgottenClient.ts'],
      {
        env: { ...process.env, API: emulator.api, APP_ID: emulator.applicationId, TOKEN: accessToken },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child never became ready:\n${output}`)), 10_000);
      child.stdout.on('data', () => {
        if (output.includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await emulator.close();
    const code = await Promise.race([exited, settle(8_000).then(() => 'still running')]);
    if (code === 'still running') child.kill('SIGKILL');
    expect(code, output).toBe(0);
    expect(output).toContain('status Reconnecting');
  }, 25_000);
});

describe('await using on the other handles', () => {
  it('a Call ends, a GameBackend closes and an emulator stops at the end of their scopes', async () => {
    const { startEmulator } = await import('../../packages/emulator/src/index.js');
    const { GameBackend } = await import('../../packages/sdkpp/src/backend/index.js');
    const { CallStatus } = await import('../../packages/sdkpp/src/index.js');
    let api = '';
    let backendRef: InstanceType<typeof GameBackend> | undefined;
    let callRef: ReturnType<Client['startCall']> | undefined;
    {
      await using emulator = await startEmulator({ port: 0, users: 1, autoConsent: true });
      api = emulator.api;
      const { client } = await linkAndConnect(emulator, userAt(emulator, 0));
      const lobbyId = await client.createOrJoinLobby('await-using-lobby');
      {
        await using call = client.startCall(lobbyId);
        callRef = call;
        await eventually(() => call.getStatus() === CallStatus.Connected, 10_000, 'the call to connect');
        expect(emulator.voice.calls()).toHaveLength(1);
      }
      expect(callRef.getStatus()).toBe(CallStatus.Disconnected);
      expect(client.getCall(lobbyId)).toBeUndefined();
      {
        await using backend = new GameBackend({ botToken: emulator.botToken, apiBase: emulator.api });
        backendRef = backend;
        await backend.getProvisionalToken('player-1');
      }
      await expect(backendRef.getProvisionalToken('player-2')).rejects.toBeInstanceOf(ClientDestroyedError);
      await client.destroy();
    }
    await expect(fetch(`${api}/gateway`)).rejects.toThrow();
  });

  it('closing a GameBackend aborts its requests under way with AbortedError', async () => {
    const { GameBackend } = await import('../../packages/sdkpp/src/backend/index.js');
    const emulator = await emulatorFor({ httpLatencyMs: 500 });
    const backend = new GameBackend({ botToken: emulator.botToken, apiBase: emulator.api });
    const pending = backend.getProvisionalToken('player-3').catch((e: unknown) => e);
    await settle(50);
    await backend.close();
    expect(await pending).toBeInstanceOf(AbortedError);
  });
});

describe('every waiting method takes a signal', () => {
  it('an aborted signal rejects before any request; an abort during one rejects at once', async () => {
    const emulator = await emulatorFor({ autoConsent: true, users: 2, httpLatencyMs: 400 });
    const { client } = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = userAt(emulator, 1);
    const before = emulator.requestCount('PUT', '/lobbies');
    const calls: Array<[string, (signal: AbortSignal) => Promise<unknown>]> = [
      [
        'createOrJoinLobby',
        (signal) => client.createOrJoinLobby('signal-lobby', undefined, undefined, { signal }),
      ],
      ['sendUserMessage', (signal) => client.sendUserMessage(bob.id, 'hi', undefined, { signal })],
      ['sendDiscordFriendRequest', (signal) => client.sendDiscordFriendRequest(bob.username, { signal })],
      ['getUserGuilds', (signal) => client.getUserGuilds({ signal })],
      [
        'updateRichPresence',
        (signal) => client.updateRichPresence({ type: ActivityTypes.Playing, details: 'x' }, { signal }),
      ],
    ];
    for (const [name, run] of calls) {
      const error = await run(AbortSignal.abort()).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(AbortedError);
    }
    expect(emulator.requestCount('PUT', '/lobbies')).toBe(before);
    const controller = new AbortController();
    const started = Date.now();
    const pending = client
      .createOrJoinLobby('signal-lobby', undefined, undefined, { signal: controller.signal })
      .catch((e: unknown) => e);
    setTimeout(() => {
      controller.abort();
    }, 50);
    const error = await pending;
    expect(error).toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(300);
    expect(unhandled).toEqual([]);
    // The count above is of real requests: a call without a signal is counted.
    const counted = emulator.requestCount('PUT', '/lobbies');
    await client.createOrJoinLobby('signal-lobby');
    expect(emulator.requestCount('PUT', '/lobbies')).toBe(counted + 1);
  });
});
