import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { signIn, TestGateway, type Payload } from './helpers.js';

describe('gateway resume', () => {
  let emu: Emulator;
  let token: string;
  let aliceId: string;
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true });
    token = (await signIn(emu, 'alice')).access_token;
    aliceId = emu.users[0]?.id ?? '';
  });
  afterAll(async () => {
    await emu.close();
  });

  async function waitFor(check: () => boolean): Promise<void> {
    for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  }

  async function identified(): Promise<{ gw: TestGateway; sessionId: string; seq: number }> {
    const gw = await TestGateway.connect(emu);
    const ready = await gw.identify(`Bearer ${token}`);
    return { gw, sessionId: (ready.d as { session_id: string }).session_id, seq: ready.s ?? 0 };
  }

  async function resume(sessionId: string, seq: number): Promise<TestGateway> {
    const gw = await TestGateway.connect(emu);
    await gw.next((p) => p.op === 10);
    gw.send(6, { token: `Bearer ${token}`, session_id: sessionId, seq });
    return gw;
  }

  it('replays dispatches missed while dropped, in order with their numbers, then RESUMED', async () => {
    const { gw, sessionId } = await identified();
    emu.dispatch(aliceId, 'SEEN', { n: 0 });
    const seen = await gw.dispatch('SEEN');
    expect(seen.s).toBe(2);

    expect(emu.dropGatewayConnections(aliceId)).toBe(1);
    const closed = await gw.closed;
    expect(closed.code).toBe(1006);
    await waitFor(() => emu.gatewaySessions(aliceId).some((s) => s.sessionId === sessionId && !s.connected));
    for (let n = 1; n <= 3; n += 1) emu.dispatch(aliceId, 'MISSED', { n });
    expect(emu.gatewaySessions(aliceId).find((s) => s.sessionId === sessionId)?.seq).toBe(5);

    const again = await resume(sessionId, 2);
    const replayed: Payload[] = [];
    for (let i = 0; i < 3; i += 1) replayed.push(await again.next((p) => p.op === 0));
    expect(replayed.map((p) => [p.t, p.s, (p.d as { n: number }).n])).toEqual([
      ['MISSED', 3, 1],
      ['MISSED', 4, 2],
      ['MISSED', 5, 3],
    ]);
    const resumed = await again.next((p) => p.op === 0);
    expect(resumed).toMatchObject({ t: 'RESUMED', s: 6 });
    // Live dispatches continue the numbering.
    emu.dispatch(aliceId, 'LIVE', {});
    expect((await again.dispatch('LIVE')).s).toBe(7);
    expect(emu.gatewaySessions(aliceId).find((s) => s.sessionId === sessionId)?.connected).toBe(true);
    again.ws.close(1000);
    await again.closed;
    await waitFor(() => !emu.gatewaySessions(aliceId).some((s) => s.sessionId === sessionId));
  });

  it('answers op 9 false for an unknown session and lets the socket identify afterwards', async () => {
    const gw = await resume('0123456789abcdef0123456789abcdef', 1);
    expect(await gw.next()).toEqual({ op: 9, d: false, s: null, t: null });
    gw.send(2, { token, properties: {} });
    expect((await gw.dispatch('READY')).s).toBe(1);
    gw.ws.close(1000);
  });

  it('closes with 4007 for a seq beyond the last one sent', async () => {
    const { gw, sessionId } = await identified();
    gw.ws.close(4200);
    await gw.closed;
    const again = await resume(sessionId, 50);
    expect((await again.closed).code).toBe(4007);
  });

  it('ends the session when the client closes with 1000', async () => {
    const { gw, sessionId } = await identified();
    gw.ws.close(1000);
    await gw.closed;
    await waitFor(() => !emu.gatewaySessions().some((s) => s.sessionId === sessionId));
    const again = await resume(sessionId, 1);
    expect((await again.next()).op).toBe(9);
    again.ws.close(1000);
  });

  it('lets a resume take over a still-open socket, which is closed with 4000', async () => {
    const { gw, sessionId, seq } = await identified();
    const again = await resume(sessionId, seq);
    expect((await again.dispatch('RESUMED')).s).toBe(seq + 1);
    expect((await gw.closed).code).toBe(4000);
    emu.dispatch(aliceId, 'AFTER', {});
    expect((await again.dispatch('AFTER')).s).toBe(seq + 2);
    again.ws.close(1000);
  });

  it('refuses a resume by another user with op 9', async () => {
    const { gw, sessionId, seq } = await identified();
    const bob = await signIn(emu, 'bob');
    const other = await TestGateway.connect(emu);
    await other.next();
    other.send(6, { token: bob.access_token, session_id: sessionId, seq });
    expect((await other.next()).op).toBe(9);
    other.ws.close(1000);
    gw.ws.close(1000);
  });

  it('forgets a dropped session after resumeWindowMs', async () => {
    const short = await startEmulator({ autoConsent: true, resumeWindowMs: 200 });
    try {
      const t = (await signIn(short, 'alice')).access_token;
      const gw = await TestGateway.connect(short);
      const ready = await gw.identify(t);
      short.dropGatewayConnections();
      await gw.closed;
      await new Promise((r) => setTimeout(r, 500));
      expect(short.gatewaySessions()).toEqual([]);
      const again = await TestGateway.connect(short);
      await again.next();
      again.send(6, { token: t, session_id: (ready.d as { session_id: string }).session_id, seq: 1 });
      expect((await again.next()).op).toBe(9);
    } finally {
      await short.close();
    }
  });

  it('gives op 9 when the missed dispatches no longer fit the replay buffer', async () => {
    const { gw, sessionId } = await identified();
    emu.dropGatewayConnections(aliceId);
    await gw.closed;
    await waitFor(() => emu.gatewaySessions(aliceId).some((s) => s.sessionId === sessionId && !s.connected));
    for (let i = 0; i < 1001; i += 1) emu.dispatch(aliceId, 'FLOOD', { i });
    const again = await resume(sessionId, 1);
    expect((await again.next()).op).toBe(9);
    again.ws.close(1000);
  });
});
