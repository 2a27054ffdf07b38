/**
 * The Electron sample's main process, run under plain Node: its bridge gets an object shaped like Electron's
 * `ipcMain` (the seam: Electron is not our server and cannot run here) and is driven exactly as the preload
 * drives it, over the one invoke channel, against a real emulator and a second real SDK client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ActivityTypes, Client } from 'sdkpp';
import { startEmulator, type Emulator } from '@sdkpp/emulator';

import { isAppUrl, resolveAppFile } from '../../examples/electron/src/main/appProtocol.js';
import { createSdkppBridge, type SdkppBridge } from '../../examples/electron/src/main/bridge.js';
import { COMPANION_LOBBY_SECRET, startCompanion } from '../../examples/electron/src/main/companion.js';
import { resolveBackend, UsageError, type Backend } from '../../examples/electron/src/main/config.js';
import {
  INVOKE_CHANNEL,
  type BridgeEvent,
  type BridgeMethods,
  type BridgeResult,
  type FriendView,
  type MessageView,
  type MethodName,
} from '../../examples/electron/src/shared/api.js';
import { IpcMainSeam, type bridgeCaller } from './electronIpcSeam.js';
import { bridgeOnSeam, page } from './seamBridge.js';
import { signedInClient } from './signIn.js';

let emulator: Emulator;
let ipc: IpcMainSeam;
let call: ReturnType<typeof bridgeCaller>['call'];
let value: ReturnType<typeof bridgeCaller>['value'];
let bridge: SdkppBridge;
let bob: Client;
let bobId: string;
let aliceId: string;
const pushed: BridgeEvent[] = [];

/** Any invoke at all, as a compromised renderer could send it. */
function raw(...args: unknown[]): Promise<unknown> {
  return ipc.invoke(page, INVOKE_CHANNEL, ...args);
}

/** Resolves with the first event pushed to the renderer (already or later) that `match` accepts. */
async function pushedEvent<T extends BridgeEvent>(match: (event: BridgeEvent) => event is T): Promise<T> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const found = pushed.find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no such event was pushed to the renderer');
}

function friendsWith(predicate: (friends: FriendView[]) => boolean) {
  return (event: BridgeEvent): event is Extract<BridgeEvent, { type: 'friends' }> =>
    event.type === 'friends' && predicate(event.friends);
}

function messageWhere(predicate: (message: MessageView) => boolean) {
  return (event: BridgeEvent): event is Extract<BridgeEvent, { type: 'message' }> =>
    event.type === 'message' && predicate(event.message);
}

/** Keys of everything the renderer received; none may name a token, code verifier or secret. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      into.add(key);
      keysOf(inner, into);
    }
  }
  return into;
}

beforeAll(async () => {
  emulator = await startEmulator({ users: 2, autoConsent: true, rpc: false });
  const [alice, bobUser] = emulator.users;
  if (!alice || !bobUser) throw new Error('the emulator seeded no users');
  aliceId = alice.id;
  bobId = bobUser.id;

  ({ ipc, bridge, call, value } = bridgeOnSeam(emulator, 'alice', pushed));

  // Bob plays on another machine: a second, ordinary SDK client.
  bob = await signedInClient(emulator, 'bob');
});

afterAll(async () => {
  await bridge.close();
  await bob.destroy();
  await emulator.close();
});

describe('Electron sample: the main-process bridge under Node', () => {
  it('registers the one invoke channel and answers before sign-in', async () => {
    expect([...ipc.handlers.keys()]).toEqual([INVOKE_CHANNEL]);
    const session = await value('getSession');
    expect(session.status).toBe('Disconnected');
    expect(session.user).toBeNull();
    expect(['native', 'js']).toContain(session.engine.engine);
    expect(await call('getFriends')).toEqual({
      ok: false,
      error: { code: 'not-signed-in', message: 'sign in first' },
    });
  });

  it('signs in with OAuth2 + PKCE against the emulator and pushes the session', async () => {
    const session = await value('signIn');
    expect(session.status).toBe('Ready');
    expect(session.user).toMatchObject({ id: aliceId, username: 'alice', displayName: 'Alice' });
    await pushedEvent(
      (e): e is Extract<BridgeEvent, { type: 'session' }> =>
        e.type === 'session' && e.session.status === 'Ready',
    );
    // Signing in again while signed in is harmless.
    expect((await value('signIn')).user?.id).toBe(aliceId);
  });

  it('shows friends with presence: a request arrives, is accepted, and rich presence shows', async () => {
    await bob.sendDiscordFriendRequest('alice');
    await pushedEvent(friendsWith((f) => f.some((x) => x.id === bobId && x.relation === 'incoming')));
    expect(await value('acceptFriendRequest', bobId)).toBeNull();

    await bob.updateRichPresence({ type: ActivityTypes.Playing, details: 'Waiting in the tavern' });
    const event = await pushedEvent(
      friendsWith((f) =>
        f.some((x) => x.id === bobId && x.activity?.includes('Waiting in the tavern') === true),
      ),
    );
    const shown = event.friends.find((x) => x.id === bobId);
    expect(shown).toMatchObject({
      username: 'bob',
      displayName: 'Bob',
      relation: 'friend',
      presence: 'online',
    });
    expect((await value('getFriends')).map((f) => [f.username, f.relation, f.presence])).toEqual([
      ['bob', 'friend', 'online'],
    ]);
  });

  it('delivers a direct message to another real client and pushes the reply', async () => {
    const arrived = new Promise<string>((resolve) => {
      bob.on('messageCreated', (id) => {
        const message = bob.getMessageHandle(id);
        if (message?.authorId === aliceId) resolve(message.content);
      });
    });
    const sent = await value('sendMessage', bobId, 'hello from the window');
    expect(sent).toMatchObject({
      authorId: aliceId,
      content: 'hello from the window',
      conversation: { kind: 'dm', userId: bobId },
    });
    expect(await arrived).toBe('hello from the window');

    await bob.sendUserMessage(aliceId, 'hi Alice');
    const reply = await pushedEvent(messageWhere((m) => m.content === 'hi Alice'));
    expect(reply.message).toMatchObject({
      authorId: bobId,
      authorName: 'Bob',
      conversation: { kind: 'dm', userId: bobId },
    });
    expect((await value('getDirectMessages', bobId)).map((m) => m.content)).toEqual([
      'hello from the window',
      'hi Alice',
    ]);
  });

  it('joins a lobby and chats there with the other client', async () => {
    const bobsLobby = await bob.createOrJoinLobby('tavern');
    const lobby = await value('joinLobby', 'tavern');
    expect(lobby.id).toBe(bobsLobby);
    expect(lobby.members.map((m) => m.username).sort()).toEqual(['alice', 'bob']);

    const heard = new Promise<string>((resolve) => {
      bob.on('messageCreated', (id) => {
        const message = bob.getMessageHandle(id);
        if (message?.lobbyId === bobsLobby && message.authorId === aliceId) resolve(message.content);
      });
    });
    await value('sendLobbyMessage', lobby.id, 'ready?');
    expect(await heard).toBe('ready?');
    await bob.sendLobbyMessage(bobsLobby, 'ready!');
    const pushedMessage = await pushedEvent(messageWhere((m) => m.content === 'ready!'));
    expect(pushedMessage.message.conversation).toEqual({ kind: 'lobby', lobbyId: bobsLobby });
    expect((await value('getLobbyMessages', lobby.id)).map((m) => m.content)).toEqual(['ready?', 'ready!']);

    expect(await value('leaveLobby', lobby.id)).toBeNull();
    await pushedEvent(
      (e): e is Extract<BridgeEvent, { type: 'lobbyClosed' }> =>
        e.type === 'lobbyClosed' && e.lobbyId === bobsLobby,
    );
  });

  it('refuses bad input from the renderer with a typed error, and keeps working', async () => {
    const refused = async (answer: Promise<unknown>, code: string, message: RegExp): Promise<void> => {
      const result = (await answer) as BridgeResult<unknown>;
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe(code);
      expect(result.error.message).toMatch(message);
    };
    const bobGot: string[] = [];
    bob.on('messageCreated', (id) => bobGot.push(bob.getMessageHandle(id)?.content ?? ''));

    await refused(raw('sendMessage', 42, 'hi'), 'invalid-argument', /userId must be an id.*a number/);
    await refused(
      raw('sendMessage', bobId, { toString: 'hi' }),
      'invalid-argument',
      /content must be text.*an object/,
    );
    await refused(raw('sendMessage', bobId, 'x'.repeat(2001)), 'invalid-argument', /1–2000 characters.*2001/);
    await refused(raw('sendMessage', bobId, '   '), 'invalid-argument', /content must be text/);
    await refused(raw('sendMessage', bobId), 'invalid-argument', /expected 2 argument\(s\), got 1/);
    await refused(
      raw('sendMessage', bobId, 'hi', 'extra'),
      'invalid-argument',
      /expected 2 argument\(s\), got 3/,
    );
    await refused(raw('sendFriendRequest', '../admin'), 'invalid-argument', /username/);
    await refused(raw('joinLobby', ''), 'invalid-argument', /secret must be 1–250/);
    await refused(raw('joinLobby', 'a\u0000b'), 'invalid-argument', /printable/);
    await refused(raw('getDirectMessages', '1 OR 1=1'), 'invalid-argument', /userId must be an id/);
    await refused(raw('eval', 'process.exit()'), 'unknown-method', /no method "eval"/);
    await refused(raw('__proto__'), 'unknown-method', /no method "__proto__"/);
    await refused(raw('constructor'), 'unknown-method', /no method "constructor"/);
    await refused(raw(42), 'unknown-method', /no method a number/);
    await refused(raw(), 'unknown-method', /no method nothing/);
    // The bridge listens on one channel; any other is Electron's own "no handler" rejection, not a crash.
    await expect(ipc.invoke(page, 'sdkpp:shell', 'rm -rf /')).rejects.toThrow(/No handler registered/);
    // Only the app's own page may call: a frame navigated elsewhere, or a file: page, is refused.
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'sdkpp-app://other/index.html']) {
      await refused(
        ipc.invoke({ senderFrame: { url } }, INVOKE_CHANNEL, 'getFriends'),
        'untrusted-sender',
        /may not use sdkpp/,
      );
    }
    await refused(
      ipc.invoke({ senderFrame: null }, INVOKE_CHANNEL, 'getFriends'),
      'untrusted-sender',
      /sdkpp/,
    );

    // The platform's own refusal comes back typed too: a DM to someone who is not a friend.
    const sdk = (await call('sendMessage', '1234', 'hello?')) as BridgeResult<unknown>;
    expect(sdk.ok).toBe(false);
    if (!sdk.ok) {
      expect(sdk.error.code).toBe('sdk');
      expect(sdk.error.sdkError).toMatch(/^HTTPError/);
    }

    expect(bobGot).toEqual([]);
    expect((await value('getSession')).status).toBe('Ready');
    expect((await value('sendMessage', bobId, 'still here')).content).toBe('still here');
  });

  it('signs out, refuses a second sign-in while one runs, and signs in again', async () => {
    expect((await value('signOut')).status).toBe('Disconnected');
    expect(await call('getFriends')).toMatchObject({ ok: false, error: { code: 'not-signed-in' } });
    const [first, second] = await Promise.all([call('signIn'), call('signIn')]);
    expect(first).toMatchObject({ ok: true, value: { status: 'Ready', user: { username: 'alice' } } });
    expect(second).toEqual({
      ok: false,
      error: { code: 'busy', message: 'a sign-in is already in progress' },
    });
    expect((await value('getFriends')).map((f) => f.username)).toEqual(['bob']);
  });

  it('never hands the renderer a token, verifier, OAuth state or secret', () => {
    const keys = [...keysOf([pushed, ipc.answers])];
    expect(keys.filter((k) => /token|verifier|secret|state|redirect/i.test(k))).toEqual([]);
  });

  it('serves only the page files from the app scheme', () => {
    const root = '/srv/app';
    expect(resolveAppFile('sdkpp-app://app/index.html', root)).toBe('/srv/app/index.html');
    expect(resolveAppFile('sdkpp-app://app/renderer.js', root)).toBe('/srv/app/renderer.js');
    expect(resolveAppFile('sdkpp-app://app/main.js', root)).toBeUndefined();
    expect(resolveAppFile('sdkpp-app://app/..%2f..%2fetc%2fpasswd', root)).toBeUndefined();
    expect(resolveAppFile('sdkpp-app://app/a/../../../etc/passwd', root)).toBeUndefined();
    expect(resolveAppFile('sdkpp-app://evil/index.html', root)).toBeUndefined();
    expect(resolveAppFile('file:///srv/app/index.html', root)).toBeUndefined();
  });

  it('close() removes the handler and destroys the client', async () => {
    await bridge.close();
    expect(ipc.handlers.size).toBe(0);
    await expect(ipc.invoke(page, INVOKE_CHANNEL, 'getSession')).rejects.toThrow(/No handler registered/);
    bridge = { client: bridge.client, close: () => Promise.resolve() };
  });
});

describe('Electron sample: one command (embedded emulator and the companion player)', () => {
  let backend: Backend | undefined;
  let embeddedBridge: SdkppBridge | undefined;
  let companion: { close(): Promise<void> } | undefined;
  const seam = new IpcMainSeam();
  const events: BridgeEvent[] = [];

  afterAll(async () => {
    await embeddedBridge?.close();
    await companion?.close();
    await backend?.close();
  });

  async function ask<K extends MethodName>(
    method: K,
    ...args: Parameters<BridgeMethods[K]>
  ): Promise<ReturnType<BridgeMethods[K]>> {
    const result = (await seam.invoke(page, INVOKE_CHANNEL, method, ...args)) as BridgeResult<
      ReturnType<BridgeMethods[K]>
    >;
    if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
    return result.value;
  }

  async function eventWhere<T extends BridgeEvent>(match: (event: BridgeEvent) => event is T): Promise<T> {
    for (let waited = 0; waited < 10_000; waited += 20) {
      const found = events.find(match);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('no such event was pushed to the renderer');
  }

  it('reads --emulator and --app-id (or the environment) and refuses a bad command line', async () => {
    await expect(resolveBackend(['--emulator', 'http://127.0.0.1:1'], {})).rejects.toThrow(
      /--app-id <id> .* is needed with --emulator/,
    );
    await expect(resolveBackend(['--emulator', 'ftp://host', '--app-id', '1'], {})).rejects.toThrow(
      UsageError,
    );
    const external = await resolveBackend([], {
      SDKPP_EMULATOR: 'http://127.0.0.1:53100/',
      SDKPP_APPLICATION_ID: '1234567890123456789',
    });
    expect(external.emulator).toBeUndefined();
    expect(external.client).toEqual({
      apiBase: 'http://127.0.0.1:53100/api/v10',
      webBase: 'http://127.0.0.1:53100',
      applicationId: '1234567890123456789',
    });
  });

  it('with no address, starts an emulator in which bob befriends and answers the player', async () => {
    backend = await resolveBackend([], {});
    const emulator = backend.emulator;
    if (!emulator) throw new Error('no embedded emulator');
    embeddedBridge = createSdkppBridge({
      ipcMain: seam,
      send: (_channel, event) => events.push(structuredClone(event)),
      client: { ...backend.client, localClient: false },
      isTrustedSender: (event) => isAppUrl(event.senderFrame?.url),
    });
    const log: string[] = [];
    companion = await startCompanion(emulator, 'alice', (line) => log.push(line));
    expect(log).toEqual([expect.stringMatching(/companion bob is online.*lobby "tavern"/)]);

    expect((await ask('signIn')).user?.username).toBe('alice');
    // The request came before the player signed in: it is in the list the UI asks for after sign-in.
    const request = (await ask('getFriends')).find((x) => x.username === 'bob');
    expect(request?.relation).toBe('incoming');
    const bobId = request?.id ?? '';
    await ask('acceptFriendRequest', bobId);
    // Presence is shared between friends only: bob's shows once the request is accepted.
    const friends = await eventWhere(
      friendsWith((f) => f.some((x) => x.id === bobId && x.relation === 'friend' && x.activity !== null)),
    );
    const bob = friends.friends.find((x) => x.id === bobId);
    expect(bob?.presence).toBe('online');
    expect(bob?.activity).toContain('Waiting in the tavern');

    await ask('sendMessage', bobId, 'hi Bob');
    const dmReply = await eventWhere(messageWhere((m) => m.content === 'Bob heard: "hi Bob"'));
    expect(dmReply.message.conversation).toEqual({ kind: 'dm', userId: bobId });

    const lobby = await ask('joinLobby', COMPANION_LOBBY_SECRET);
    expect(lobby.members.map((m) => m.username).sort()).toEqual(['alice', 'bob']);
    await ask('sendLobbyMessage', lobby.id, 'anyone here?');
    const lobbyReply = await eventWhere(messageWhere((m) => m.content === 'Bob heard: "anyone here?"'));
    expect(lobbyReply.message.conversation).toEqual({ kind: 'lobby', lobbyId: lobby.id });
  });
});
