import type { Emulator } from '../../packages/emulator/src/index.js';
import { TestGateway, type Payload } from './helpers.js';

/**
 * Opens a bot gateway session with these intents and capabilities; resolves with it and its READY. The
 * socket is closed by pushing `gw.ws.close()` to the caller's cleanups.
 */
export async function botSession(
  emu: Emulator,
  intents: number,
  capabilities = 0,
): Promise<{ gw: TestGateway; ready: Payload }> {
  const gw = await TestGateway.connect(emu);
  await gw.next((p) => p.op === 10);
  gw.send(2, {
    token: `Bot ${emu.botToken}`,
    intents,
    capabilities,
    properties: { os: 'linux', browser: 'sdkpp-test', device: 'sdkpp-test' },
  });
  return { gw, ready: await gw.dispatch('READY') };
}
