import type { IpcTransport } from './IpcTransport.js';

/** The desktop client's event when its device authorization screen closes (`{reason}`). */
export const DEVICE_SCREEN_CLOSED_EVENT = 'AUTHORIZE_DEVICE_SCREEN_CLOSED';

/** Shows `userCode` on the desktop client's device authorization screen (OPEN_AUTHORIZE_DEVICE_SCREEN). */
export async function openAuthorizeDeviceScreen(
  rpc: IpcTransport,
  clientId: string,
  userCode: string,
): Promise<void> {
  await rpc.request('OPEN_AUTHORIZE_DEVICE_SCREEN', { client_id: clientId, user_code: userCode });
}

/** Hides the desktop client's device authorization screen (CLOSE_AUTHORIZE_DEVICE_SCREEN); idempotent. */
export async function closeAuthorizeDeviceScreen(rpc: IpcTransport): Promise<void> {
  await rpc.request('CLOSE_AUTHORIZE_DEVICE_SCREEN', {});
}
