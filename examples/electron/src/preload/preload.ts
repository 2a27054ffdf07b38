/**
 * The preload: the only code in the renderer's process that can reach the main process. It exposes a
 * fixed set of functions as `window.sdkpp` and nothing else: no `ipcRenderer`, no channel names, no Electron
 * event objects. It runs sandboxed, so the build bundles it into one CommonJS file.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  METHOD_NAMES,
  type BridgeEvent,
  type BridgeMethods,
  type BridgeResult,
  type MethodName,
  type SdkppApi,
} from '../shared/api.js';

function method<K extends MethodName>(name: K): SdkppApi[K] {
  const call = (...args: Parameters<BridgeMethods[K]>): Promise<BridgeResult<ReturnType<BridgeMethods[K]>>> =>
    ipcRenderer.invoke(INVOKE_CHANNEL, name, ...args) as Promise<BridgeResult<ReturnType<BridgeMethods[K]>>>;
  return call as SdkppApi[K];
}

const methods = Object.fromEntries(METHOD_NAMES.map((name) => [name, method(name)])) as {
  [K in MethodName]: SdkppApi[K];
};

const api: SdkppApi = {
  ...methods,
  onEvent(listener) {
    // The renderer gets the payload only; the event object would hand it `sender`, an IPC handle.
    const forward = (_event: IpcRendererEvent, payload: BridgeEvent): void => {
      listener(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('sdkpp', api);
