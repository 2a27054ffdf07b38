import { afterEach, describe, expect, it } from 'vitest';

import { RpcOpcode } from '../../packages/protocol/src/rpcFrame.js';
import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { RPC_RECORD_LIMIT } from '../../packages/emulator/src/localClient/LocalClientServer.js';
import { Peer } from './rpcPeer.js';

const running: Emulator[] = [];
const peers: Peer[] = [];
afterEach(async () => {
  for (const peer of peers.splice(0)) peer.socket.destroy();
  await Promise.all(running.splice(0).map((e) => e.close()));
});

async function connected(emu: Emulator): Promise<Peer> {
  const peer = new Peer(emu.rpcSocket ?? '');
  peers.push(peer);
  await peer.handshake(emu.applicationId);
  return peer;
}

describe('the desktop client under careless peers', () => {
  it('closes a game that stops reading once its queue passes maxOutboundBufferBytes (CLOSE 1008)', async () => {
    const limit = 128 * 1024;
    const log: string[] = [];
    const emu = await startEmulator({ maxOutboundBufferBytes: limit, log: (line) => log.push(line) });
    running.push(emu);
    const peer = await connected(emu);
    await peer.command('SUBSCRIBE', {}, 'ACTIVITY_JOIN');
    peer.socket.pause();
    const secret = 'z'.repeat(60 * 1024);
    let sent = 0;
    for (; sent < 1024 && !log.some((l) => l.includes('slow consumer')); sent++) {
      emu.rpcDispatch('ACTIVITY_JOIN', { secret });
      if (sent % 16 === 15) await new Promise((r) => setTimeout(r, 5));
    }
    const line = log.find((l) => l.includes('slow consumer')) ?? '';
    expect(line).toMatch(/closing with 1008/);
    const queued = Number(/(\d+) bytes queued/.exec(line)?.[1]);
    expect(queued).toBeGreaterThan(limit);
    expect(queued).toBeLessThanOrEqual(limit + secret.length + 1024);
    expect(sent).toBeLessThan(1024);
    // Nothing more goes to it, and the socket is gone within the close grace.
    expect(emu.rpcDispatch('ACTIVITY_JOIN', { secret })).toBe(0);
    peer.socket.resume();
    await peer.ended;
    expect(emu.rpcConnectionCount()).toBe(0);
  });

  it(`keeps only the last ${RPC_RECORD_LIMIT} commands, and drops a closed connection`, async () => {
    const emu = await startEmulator({});
    running.push(emu);
    const peer = await connected(emu);
    for (let i = 0; i < RPC_RECORD_LIMIT + 50; i++) {
      const args = { user_id: emu.users[1]?.id };
      peer.send(RpcOpcode.Frame, { cmd: 'SEND_ACTIVITY_JOIN_INVITE', args, nonce: `n${i}` });
    }
    await peer.next((f) => (f.body as { nonce?: unknown } | null)?.nonce === `n${RPC_RECORD_LIMIT + 49}`);
    const recorded = emu.rpcCommands();
    expect(recorded.length).toBe(RPC_RECORD_LIMIT);
    expect(recorded.every((c) => c.cmd === 'SEND_ACTIVITY_JOIN_INVITE')).toBe(true);
    peer.socket.destroy();
    await peer.ended;
    await expect.poll(() => emu.rpcConnectionCount()).toBe(0);
  });
});
