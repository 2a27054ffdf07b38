/**
 * The main process's side of the sample, without Electron: it owns the sdkpp `Client`, answers the one
 * invoke channel the preload uses, checks every argument (the renderer is untrusted), and pushes events.
 * main.ts hands it Electron's `ipcMain` and a `webContents.send`; a test hands it any object of that shape.
 */
import { Client, ClientStatus, ErrorType, SdkError, type ClientOptions } from 'sdkpp';

import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  type BridgeError,
  type BridgeEvent,
  type BridgeMethods,
  type BridgeResult,
  type MethodName,
} from '../shared/api.js';
import { forwardEvents } from './events.js';
import { signIn } from './signIn.js';
import {
  arity,
  describe,
  InvalidArgument,
  lobbySecret,
  messageContent,
  snowflake,
  username,
} from './validate.js';
import { friendsView, lobbyView, messageView, sessionView } from './views.js';

/** The part of an invoke event the bridge reads: which frame asked. Electron's `IpcMainInvokeEvent` fits. */
export interface InvokeEventLike {
  readonly senderFrame?: { readonly url: string } | null;
}

/** The part of Electron's `ipcMain` the bridge uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** What {@link createSdkppBridge} needs. */
export interface SdkppBridgeOptions {
  ipcMain: IpcMainLike;
  /** Delivers a message to the renderer: `(channel, payload) => webContents.send(channel, payload)`. */
  send: (channel: string, event: BridgeEvent) => void;
  /** Options of the `Client` the bridge creates and owns. */
  client: ClientOptions;
  /** True for invokes from the app's own page; anything else (another frame, a navigated page) is refused. */
  isTrustedSender: (event: InvokeEventLike) => boolean;
}

/** A running bridge. */
export interface SdkppBridge {
  /** The client the bridge owns (for main-process code such as `open-url` → `completeAuthorize`). */
  readonly client: Client;
  /** Stops answering, stops events, and destroys the client. */
  close(): Promise<void>;
}

const MESSAGE_HISTORY = 50;
const LIVE = new Set([ClientStatus.Ready, ClientStatus.HttpWait]);

class NotSignedIn extends Error {}
class Busy extends Error {}

type Handlers = { [K in MethodName]: (args: readonly unknown[]) => Promise<ReturnType<BridgeMethods[K]>> };

/** Creates the client and registers the invoke handler. */
export function createSdkppBridge(options: SdkppBridgeOptions): SdkppBridge {
  const client = new Client(options.client);
  let signingIn: Promise<void> | undefined;

  const requireLive = (): void => {
    if (!LIVE.has(client.getStatus())) throw new NotSignedIn('sign in first');
  };

  const handlers: Handlers = {
    signIn: async (args) => {
      arity(args, 0);
      if (signingIn) throw new Busy('a sign-in is already in progress');
      if (!LIVE.has(client.getStatus())) {
        signingIn = signIn(client).finally(() => {
          signingIn = undefined;
        });
        await signingIn;
      }
      return sessionView(client);
    },
    signOut: async (args) => {
      arity(args, 0);
      await client.disconnect();
      return sessionView(client);
    },
    getSession: (args) => {
      arity(args, 0);
      return Promise.resolve(sessionView(client));
    },
    getFriends: (args) => {
      arity(args, 0);
      requireLive();
      return Promise.resolve(friendsView(client));
    },
    sendFriendRequest: async (args) => {
      const [name] = arity(args, 1);
      const checked = username(name, 'username');
      requireLive();
      await client.sendDiscordFriendRequest(checked);
      return null;
    },
    acceptFriendRequest: async (args) => {
      const [userId] = arity(args, 1);
      const checked = snowflake(userId, 'userId');
      requireLive();
      await client.acceptDiscordFriendRequest(checked);
      return null;
    },
    getDirectMessages: async (args) => {
      const [userId] = arity(args, 1);
      const checked = snowflake(userId, 'userId');
      requireLive();
      return (await client.getUserMessagesWithLimit(checked, MESSAGE_HISTORY)).map(messageView);
    },
    sendMessage: async (args) => {
      const [userId, content] = arity(args, 2);
      const to = snowflake(userId, 'userId');
      const text = messageContent(content, 'content');
      requireLive();
      return sentMessage(await client.sendUserMessage(to, text));
    },
    joinLobby: async (args) => {
      const [secret] = arity(args, 1);
      const checked = lobbySecret(secret, 'secret');
      requireLive();
      const lobby = client.getLobbyHandle(await client.createOrJoinLobby(checked));
      if (!lobby) throw new Error('the joined lobby is not in the client');
      return lobbyView(lobby);
    },
    leaveLobby: async (args) => {
      const [lobbyId] = arity(args, 1);
      const checked = snowflake(lobbyId, 'lobbyId');
      requireLive();
      await client.leaveLobby(checked);
      return null;
    },
    getLobbyMessages: async (args) => {
      const [lobbyId] = arity(args, 1);
      const checked = snowflake(lobbyId, 'lobbyId');
      requireLive();
      return (await client.getLobbyMessagesWithLimit(checked, MESSAGE_HISTORY)).map(messageView);
    },
    sendLobbyMessage: async (args) => {
      const [lobbyId, content] = arity(args, 2);
      const to = snowflake(lobbyId, 'lobbyId');
      const text = messageContent(content, 'content');
      requireLive();
      return sentMessage(await client.sendLobbyMessage(to, text));
    },
  };

  function sentMessage(messageId: string): ReturnType<BridgeMethods['sendMessage']> {
    const handle = client.getMessageHandle(messageId);
    if (!handle) throw new Error(`sent message ${messageId} is not in the client`);
    return messageView(handle);
  }

  async function dispatch(
    event: InvokeEventLike,
    method: unknown,
    args: unknown[],
  ): Promise<BridgeResult<unknown>> {
    if (!options.isTrustedSender(event)) {
      return failure({ code: 'untrusted-sender', message: 'this frame may not use sdkpp' });
    }
    if (typeof method !== 'string' || !Object.hasOwn(handlers, method)) {
      const name = typeof method === 'string' ? JSON.stringify(method.slice(0, 64)) : describe(method);
      return failure({ code: 'unknown-method', message: `no method ${name}` });
    }
    try {
      return { ok: true, value: await handlers[method as MethodName](args) };
    } catch (error) {
      return failure(toBridgeError(error));
    }
  }

  const stopEvents = forwardEvents(client, (event) => {
    options.send(EVENT_CHANNEL, event);
  });
  options.ipcMain.handle(INVOKE_CHANNEL, (event, method, ...args) => dispatch(event, method, args));

  return {
    client,
    async close() {
      options.ipcMain.removeHandler(INVOKE_CHANNEL);
      stopEvents();
      await client.destroy();
    },
  };
}

function failure(error: BridgeError): BridgeResult<never> {
  return { ok: false, error };
}

/** The renderer learns what went wrong, never a stack or an internal object. */
function toBridgeError(error: unknown): BridgeError {
  if (error instanceof InvalidArgument) return { code: 'invalid-argument', message: error.message };
  if (error instanceof NotSignedIn) return { code: 'not-signed-in', message: error.message };
  if (error instanceof Busy) return { code: 'busy', message: error.message };
  if (error instanceof SdkError) {
    const code = error.type === ErrorType.ClientNotReady ? 'not-signed-in' : 'sdk';
    return { code, message: error.message, sdkError: error.name };
  }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
