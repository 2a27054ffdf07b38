import { inflateSync, constants } from 'node:zlib';

import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { postForm, signIn, TestGateway } from './helpers.js';

describe('gateway v10', () => {
  let emu: Emulator;
  let aliceToken: string;
  beforeAll(async () => {
    emu = await startEmulator({
      autoConsent: true,
      heartbeatIntervalMs: 30_000,
      gatewayRateLimit: { count: 10, windowMs: 60_000 },
      // Two rate-limit keys, so the two bot identifies below (shards 0 and 1) are not paced apart.
      botMaxConcurrency: 2,
    });
    aliceToken = (await signIn(emu, 'alice')).access_token;
  });
  afterAll(async () => {
    await emu.close();
  });

  it('sends Hello, ACKs heartbeats and answers Identify with READY (s = 1)', async () => {
    const gw = await TestGateway.connect(emu);
    const hello = await gw.next();
    expect(hello).toEqual({ op: 10, d: { heartbeat_interval: 30_000 }, s: null, t: null });
    gw.send(1, null);
    expect(await gw.next()).toEqual({ op: 11, d: null, s: null, t: null });
    gw.send(2, { token: `Bearer ${aliceToken}`, properties: { os: 'linux', browser: 'x', device: 'x' } });
    const ready = await gw.dispatch('READY');
    expect(ready.s).toBe(1);
    const d = ready.d as Record<string, unknown>;
    expect(d).toMatchObject({
      v: 10,
      resume_gateway_url: emu.gateway,
      session_type: 'oauth',
      application: { id: emu.applicationId, flags: 0, name: 'sdkpp Demo Game' },
      guilds: [],
      relationships: [],
      game_relationships: [],
      private_channels: [],
      presences: [],
      lobbies: [],
      user_settings: {},
      sessions: [],
    });
    expect(d.user).toMatchObject({ username: 'alice', global_name: 'Alice', discriminator: '0' });
    expect(d.scopes).toEqual(
      expect.arrayContaining(['openid', 'sdk.social_layer', 'gateway.connect', 'lobbies.write']),
    );
    expect(d.session_id).toMatch(/^[0-9a-f]{32}$/);
    gw.send(1, 1);
    expect((await gw.next()).op).toBe(11);
    expect(emu.gatewaySessions(emu.users[0]?.id)).toEqual([
      { sessionId: d.session_id, userId: emu.users[0]?.id, seq: 1, connected: true },
    ]);
    gw.ws.close(1000);
    await gw.closed;
  });

  it('accepts the bare access token and the bot token (bare or "Bot …")', async () => {
    const bare = await TestGateway.connect(emu);
    expect(((await bare.identify(aliceToken)).d as { session_type: string }).session_type).toBe('oauth');
    bare.ws.close(1000);
    for (const [shard, token] of [emu.botToken, `Bot ${emu.botToken}`].entries()) {
      const gw = await TestGateway.connect(emu);
      await gw.next();
      gw.send(2, { token, intents: 513, properties: {}, shard: [shard, 2] });
      const ready = await gw.dispatch('READY');
      expect(ready.d).toMatchObject({ session_type: 'normal', user: { id: emu.applicationId, bot: true } });
      gw.ws.close(1000);
    }
    const limit = (await (
      await fetch(`${emu.api}/gateway/bot`, { headers: { Authorization: `Bot ${emu.botToken}` } })
    ).json()) as {
      url: string;
      shards: number;
      session_start_limit: { total: number; remaining: number; max_concurrency: number };
    };
    expect(limit).toMatchObject({
      url: emu.gateway,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 998, max_concurrency: 2 },
    });
    expect((await fetch(`${emu.api}/gateway/bot`)).status).toBe(401);
    expect(await (await fetch(`${emu.api}/gateway`)).json()).toEqual({ url: emu.gateway });
  });

  const closeCodeOf = async (gw: TestGateway): Promise<number> => (await gw.closed).code;

  it('closes with 4004 for a bad or revoked token, and 4013 for a bot without intents', async () => {
    const bad = await TestGateway.connect(emu);
    await bad.next();
    bad.send(2, { token: 'Bearer nope', properties: {} });
    expect(await closeCodeOf(bad)).toBe(4004);

    const bot = await TestGateway.connect(emu);
    await bot.next();
    bot.send(2, { token: emu.botToken, properties: {} });
    expect(await closeCodeOf(bot)).toBe(4013);

    const bob = await signIn(emu, 'bob');
    const live = await TestGateway.connect(emu);
    await live.identify(bob.access_token);
    await postForm(`${emu.api}/oauth2/token/revoke`, {
      client_id: emu.applicationId,
      token: bob.refresh_token,
    });
    expect(await closeCodeOf(live)).toBe(4004);
    expect(emu.gatewaySessions(emu.users[1]?.id)).toEqual([]);
  });

  it('closes with 4002 for invalid JSON, binary frames and payloads over 4096 bytes', async () => {
    const notJson = await TestGateway.connect(emu);
    notJson.ws.send('{not json');
    expect(await closeCodeOf(notJson)).toBe(4002);

    const binary = await TestGateway.connect(emu);
    binary.ws.send(Buffer.from('{"op":1,"d":null}'));
    expect(await closeCodeOf(binary)).toBe(4002);

    const big = await TestGateway.connect(emu);
    big.ws.send(JSON.stringify({ op: 1, d: null, pad: 'x'.repeat(4100) }));
    expect(await closeCodeOf(big)).toBe(4002);

    const huge = await TestGateway.connect(emu);
    huge.ws.send(JSON.stringify({ op: 1, d: null, pad: 'x'.repeat(200_000) }));
    expect(await closeCodeOf(huge)).toBe(4002);

    // Exactly 4096 bytes is allowed.
    const edge = await TestGateway.connect(emu);
    await edge.next();
    const base = JSON.stringify({ op: 1, d: null, pad: '' });
    edge.ws.send(JSON.stringify({ op: 1, d: null, pad: 'x'.repeat(4096 - base.length) }));
    expect((await edge.next()).op).toBe(11);
    edge.ws.close(1000);
  });

  it('closes with 4003 before Identify, 4001 for unknown ops, 4005 for a second Identify', async () => {
    const early = await TestGateway.connect(emu);
    early.send(3, { status: 'online', activities: [], since: null, afk: false });
    expect(await closeCodeOf(early)).toBe(4003);

    const unknown = await TestGateway.connect(emu);
    await unknown.identify(aliceToken);
    unknown.send(99, {});
    expect(await closeCodeOf(unknown)).toBe(4001);

    const noOp = await TestGateway.connect(emu);
    noOp.ws.send(JSON.stringify({ d: 1 }));
    expect(await closeCodeOf(noOp)).toBe(4001);

    const twice = await TestGateway.connect(emu);
    await twice.identify(aliceToken);
    // Known ops without a handler yet are accepted quietly.
    twice.send(3, { status: 'online', activities: [], since: null, afk: false });
    twice.send(2, { token: aliceToken, properties: {} });
    expect(await closeCodeOf(twice)).toBe(4005);
  });

  it('closes with 4008 past the rate limit', async () => {
    const gw = await TestGateway.connect(emu);
    await gw.next();
    for (let i = 0; i < 11; i += 1) gw.send(1, null);
    expect(await closeCodeOf(gw)).toBe(4008);
  });

  it('closes with 4012 for another version, encoding or compression', async () => {
    for (const query of [
      'v=9&encoding=json',
      'encoding=json',
      'v=10&encoding=etf',
      'v=10&encoding=json&compress=zstd-stream',
    ]) {
      const gw = new TestGateway(`${emu.gateway}?${query}`);
      const closed = await gw.closed;
      expect(closed.code, query).toBe(4012);
      if (query.includes('etf')) expect(closed.reason).toMatch(/only json/);
    }
    const plain = await TestGateway.connect(emu, 'v=10');
    expect((await plain.next()).op).toBe(10);
    plain.ws.close(1000);
  });

  it('refuses WebSocket upgrades on other paths', async () => {
    const ws = new WebSocket(`${emu.http.replace('http', 'ws')}/elsewhere?v=10&encoding=json`);
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
      });
      ws.on('error', () => {
        resolve(-1);
      });
    });
    expect(status).toBe(404);
  });

  it('serves compress=zlib-stream with one shared inflate context', async () => {
    const ws = new WebSocket(`${emu.gateway}?v=10&encoding=json&compress=zlib-stream`);
    const frames: Buffer[] = [];
    const messages: Array<{ op: number; t: string | null }> = [];
    let pending = Buffer.alloc(0);
    const inflated: Buffer[] = [];
    // Inflate the concatenation of all frames so far and take only the new output: one shared context.
    ws.on('message', (data: Buffer) => {
      frames.push(data);
      pending = Buffer.concat(frames);
      const all = inflateSync(pending, { finishFlush: constants.Z_SYNC_FLUSH });
      const seen = Buffer.concat(inflated).length;
      const fresh = all.subarray(seen);
      inflated.push(fresh);
      messages.push(JSON.parse(fresh.toString('utf8')) as { op: number; t: string | null });
    });
    await new Promise((resolve) => ws.once('open', resolve));
    const until = async (n: number): Promise<void> => {
      for (let i = 0; i < 100 && messages.length < n; i += 1) await new Promise((r) => setTimeout(r, 20));
    };
    await until(1);
    expect(messages[0]?.op).toBe(10);
    expect(frames[0]?.subarray(-4)).toEqual(Buffer.from([0, 0, 0xff, 0xff]));
    ws.send(JSON.stringify({ op: 2, d: { token: aliceToken, properties: {} } }));
    await until(2);
    expect(messages[1]).toMatchObject({ op: 0, t: 'READY' });
    ws.send(JSON.stringify({ op: 1, d: 1 }));
    await until(3);
    expect(messages[2]?.op).toBe(11);
    ws.close(1000);
  });

  it('closes with 4009 when heartbeats stop', async () => {
    const quick = await startEmulator({ heartbeatIntervalMs: 100 });
    try {
      const gw = await TestGateway.connect(quick);
      expect((await gw.next()).d).toEqual({ heartbeat_interval: 100 });
      expect(await closeCodeOf(gw)).toBe(4009);
    } finally {
      await quick.close();
    }
  });

  it('dispatches USER_UPDATE on updateUser and custom events via dispatch()', async () => {
    const gw = await TestGateway.connect(emu);
    await gw.identify(aliceToken);
    const aliceId = emu.users[0]?.id ?? '';
    emu.updateUser(aliceId, { globalName: 'Alice Liddell' });
    const update = await gw.dispatch('USER_UPDATE');
    expect(update.s).toBe(2);
    expect(update.d).toMatchObject({ id: aliceId, global_name: 'Alice Liddell' });
    emu.dispatch(aliceId, 'CUSTOM_EVENT', { n: 1 });
    expect(await gw.dispatch('CUSTOM_EVENT')).toMatchObject({ s: 3, d: { n: 1 } });
    expect(() => {
      emu.dispatch(aliceId, 'lower', {});
    }).toThrow(RangeError);
    emu.updateUser(aliceId, { globalName: 'Alice' });
    gw.ws.close(1000);
    await gw.closed;
  });

  it('closes a socket with a chosen code and sends op 7 on request', async () => {
    const gw = await TestGateway.connect(emu);
    await gw.identify(aliceToken);
    expect(emu.sendGatewayReconnect(emu.users[0]?.id)).toBe(1);
    expect(await gw.next((p) => p.op === 7)).toEqual({ op: 7, d: null, s: null, t: null });
    expect(emu.closeGatewayConnections(4000, 'test', emu.users[0]?.id)).toBe(1);
    expect(await gw.closed).toEqual({ code: 4000, reason: 'test' });
    // 4000 keeps the session resumable.
    expect(emu.gatewaySessions(emu.users[0]?.id).some((s) => !s.connected)).toBe(true);
    expect(() => emu.closeGatewayConnections(1005)).toThrow(RangeError);
  });
});
