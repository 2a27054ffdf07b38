/**
 * The main process's side of the sample, without Electron: it owns the sdkpp `Client`, answers the one
 * invoke channel the preload uses, checks every argument (the renderer is untrusted), and pushes events.
 * main.ts hands it Electron's `ipcMain` and a `webContents.send`; a test hands it any object of that shape.
 */
import { Client, ErrorType, SdkError, type ClientOptions } from 'sdkpp';

import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  type BridgeError,
  type BridgeEvent,
  type BridgeResult,
  type MethodName,
} from '../shared/api.js';
import { forwardEvents } from './events.js';
import { Busy, createHandlers, NotSignedIn } from './handlers.js';
import { describe, InvalidArgument } from './validate.js';

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

/** Creates the client and registers the invoke handler. */
export function createSdkppBridge(options: SdkppBridgeOptions): SdkppBridge {
  const client = new Client(options.client);
  const handlers = createHandlers(client);

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
