import type { InvokeEventLike, IpcMainLike } from '../../examples/electron/src/main/bridge.js';
import {
  INVOKE_CHANNEL,
  type BridgeMethods,
  type BridgeResult,
  type MethodName,
} from '../../examples/electron/src/shared/api.js';

type Listener = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

/**
 * The seam for Electron's IPC (Electron cannot run here, and it is not our server): what `ipcMain` and
 * `ipcRenderer.invoke` do between them. One handler per channel (a second one throws, as in Electron), the
 * "No handler registered" rejection for any other channel, and structured clone of the arguments and the
 * answer both ways, so an answer that could not cross IPC fails here as it would there.
 */
export class IpcMainSeam implements IpcMainLike {
  readonly handlers = new Map<string, Listener>();
  /** Every answer the renderer got. */
  readonly answers: unknown[] = [];

  handle(channel: string, listener: Listener): void {
    if (this.handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  async invoke(event: InvokeEventLike, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const answer = structuredClone(await handler(event, ...structuredClone(args)));
    this.answers.push(answer);
    return answer;
  }
}

/** What the preload's `window.sdkpp[method](...args)` does, over a seam, from a page frame. */
export function bridgeCaller(ipc: IpcMainSeam, page: InvokeEventLike) {
  const call = <K extends MethodName>(
    method: K,
    ...args: Parameters<BridgeMethods[K]>
  ): Promise<BridgeResult<ReturnType<BridgeMethods[K]>>> =>
    ipc.invoke(page, INVOKE_CHANNEL, method, ...args) as Promise<BridgeResult<ReturnType<BridgeMethods[K]>>>;
  /** A call that must succeed; its value. */
  const value = async <K extends MethodName>(
    method: K,
    ...args: Parameters<BridgeMethods[K]>
  ): Promise<ReturnType<BridgeMethods[K]>> => {
    const result = await call(method, ...args);
    if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
    return result.value;
  };
  return { call, value };
}
