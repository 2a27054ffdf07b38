import { expect } from 'vitest';

import type { Emulator } from '@sdkpp/emulator';

import { APP_ENTRY, isAppUrl } from '../../examples/electron/src/main/appProtocol.js';
import { createSdkppBridge, type InvokeEventLike } from '../../examples/electron/src/main/bridge.js';
import { EVENT_CHANNEL, type BridgeEvent } from '../../examples/electron/src/shared/api.js';
import { bridgeCaller, IpcMainSeam } from './electronIpcSeam.js';
import { clientOptionsAs } from './signIn.js';

/** The sample's own page, as the bridge sees its frame. */
export const page: InvokeEventLike = { senderFrame: { url: APP_ENTRY } };

/**
 * The sample's bridge for `username` on `emulator`, behind the IPC seam: what it pushes to the renderer is
 * appended to `pushed` (cloned, as IPC would), and `call` / `value` invoke it as the preload does.
 */
export function bridgeOnSeam(emulator: Emulator, username: string, pushed: BridgeEvent[]) {
  const ipc = new IpcMainSeam();
  const bridge = createSdkppBridge({
    ipcMain: ipc,
    send: (channel, event) => {
      expect(channel).toBe(EVENT_CHANNEL);
      pushed.push(structuredClone(event));
    },
    client: clientOptionsAs(emulator, username),
    isTrustedSender: (event) => isAppUrl(event.senderFrame?.url),
  });
  return { ipc, bridge, ...bridgeCaller(ipc, page) };
}
