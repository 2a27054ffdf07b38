import { connect } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator, type EmulatorOptions } from '../../packages/emulator/src/index.js';
import { signIn, TestGateway } from './helpers.js';
import { RawVoiceClient } from './voiceHelpers.js';

const running: Emulator[] = [];
const sockets: TestGateway[] = [];
afterEach(async () => {
  for (const gw of sockets.splice(0)) gw.ws.terminate();
  await Promise.all(running.splice(0).map((e) => e.close()));
});

async function emulator(options: EmulatorOptions = {}): Promise<{ emu: Emulator; log: string[] }> {
  const log: string[] = [];
  const emu = await startEmulator({ autoConsent: true, log: (line) => log.push(line), ...options });
  running.push(emu);
  return { emu, log };
}

async function open(emu: Emulator): Promise<TestGateway> {
  const gw = await TestGateway.connect(emu);
  sockets.push(gw);
  await gw.next((p) => p.op === 10);
  return gw;
}

/** A bot Identify on a fresh socket: READY, or op 9 when refused. */
async function botIdentify(emu: Emulator, shard?: [number, number]): Promise<'ready' | 'invalid'> {
  const gw = await open(emu);
  gw.send(2, { token: emu.botToken, intents: 513, properties: {}, ...(shard ? { shard } : {}) });
  const reply = await gw.next((p) => p.op === 9 || (p.op === 0 && p.t === 'READY'));
  return reply.op === 9 ? 'invalid' : 'ready';
}

async function sessionStartLimit(emu: Emulator): Promise<Record<string, number>> {
  const reply = await fetch(`${emu.api}/gateway/bot`, { headers: { Authorization: `Bot ${emu.botToken}` } });
  return ((await reply.json()) as { session_start_limit: Record<string, number> }).session_start_limit;
}

describe('bot identify limits', () => {
  it('a spent session start limit refuses the Identify with op 9, and /gateway/bot says so', async () => {
    const { emu, log } = await emulator({ botSessionLimit: 3, botIdentifyWindowMs: 1 });
    expect(await sessionStartLimit(emu)).toEqual({
      total: 3,
      remaining: 3,
      reset_after: 0,
      max_concurrency: 1,
    });
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 5));
      expect(await botIdentify(emu)).toBe('ready');
    }
    await new Promise((r) => setTimeout(r, 5));
    expect(await botIdentify(emu)).toBe('invalid');
    expect(log.some((l) => l.includes('session start limit of 3 spent'))).toBe(true);
    const limit = await sessionStartLimit(emu);
    expect(limit).toMatchObject({ total: 3, remaining: 0 });
    expect(limit.reset_after).toBeGreaterThan(86_000_000);
    expect(limit.reset_after).toBeLessThanOrEqual(86_400_000);
  });

  it('paces identifies per rate-limit key (shard_id % max_concurrency), one per window', async () => {
    const { emu, log } = await emulator({ botMaxConcurrency: 2 });
    expect((await sessionStartLimit(emu)).max_concurrency).toBe(2);
    // Shards 0 and 1 are different keys; shard 2 shares key 0 with shard 0 and comes too early.
    expect(await botIdentify(emu, [0, 4])).toBe('ready');
    expect(await botIdentify(emu, [1, 4])).toBe('ready');
    expect(await botIdentify(emu, [2, 4])).toBe('invalid');
    expect(await botIdentify(emu, [3, 4])).toBe('invalid');
    expect(log.some((l) => /rate-limit key 0 identified \d+ ms ago/.test(l))).toBe(true);
    // Refused identifies do not spend the budget.
    expect((await sessionStartLimit(emu)).remaining).toBe(998);
  });

  it('lets the next identify of a key through once its window has passed', async () => {
    const { emu } = await emulator({ botIdentifyWindowMs: 300 });
    expect(await botIdentify(emu)).toBe('ready');
    expect(await botIdentify(emu)).toBe('invalid');
    await new Promise((r) => setTimeout(r, 350));
    expect(await botIdentify(emu)).toBe('ready');
  });

  it('closes an Identify with a malformed shard with 4010', async () => {
    const { emu } = await emulator();
    const gw = await open(emu);
    gw.send(2, { token: emu.botToken, intents: 513, properties: {}, shard: [4, 4] });
    expect((await gw.closed).code).toBe(4010);
  });
});

describe('unidentified gateway sockets', () => {
  it('closes a socket that heartbeats but never identifies with 4003 after identifyTimeoutMs', async () => {
    const { emu, log } = await emulator({ identifyTimeoutMs: 400, heartbeatIntervalMs: 100 });
    const idle = await open(emu);
    const timer = setInterval(() => idle.send(1, null), 80);
    try {
      const started = Date.now();
      const closed = await idle.closed;
      expect(closed).toEqual({ code: 4003, reason: 'Not authenticated: no Identify in time' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(log.some((l) => l.includes('no Identify within 400 ms'))).toBe(true);
    } finally {
      clearInterval(timer);
    }
    // An identified socket is not touched by the deadline.
    const alice = await signIn(emu, 'alice');
    const live = await open(emu);
    live.send(2, { token: `Bearer ${alice.access_token}`, properties: {} });
    await live.dispatch('READY');
    const beats = setInterval(() => live.send(1, null), 80);
    try {
      await new Promise((r) => setTimeout(r, 600));
      expect(live.ws.readyState).toBe(live.ws.OPEN);
    } finally {
      clearInterval(beats);
    }
  });
});

describe('unidentified voice sockets', () => {
  it('closes a voice socket that heartbeats but never identifies with 4003 after identifyTimeoutMs', async () => {
    const { emu, log } = await emulator({ identifyTimeoutMs: 400, voice: { heartbeatIntervalMs: 100 } });
    const voice = await RawVoiceClient.connect(emu.voice.endpoint);
    await voice.op(8);
    const timer = setInterval(() => voice.send(3, { t: Date.now(), seq_ack: -1 }), 80);
    try {
      expect((await voice.closed).code).toBe(4003);
      expect(log.some((l) => l.includes('no Identify within 400 ms'))).toBe(true);
    } finally {
      clearInterval(timer);
    }
  });
});

describe('slow consumers', () => {
  it('closes a gateway client that stops reading once its queue passes maxOutboundBufferBytes', async () => {
    const limit = 256 * 1024;
    const { emu, log } = await emulator({ maxOutboundBufferBytes: limit, heartbeatIntervalMs: 30_000 });
    const alice = await signIn(emu, 'alice');
    const gw = await open(emu);
    gw.send(2, { token: `Bearer ${alice.access_token}`, properties: {} });
    const ready = await gw.dispatch('READY');
    const userId = (ready.d as { user: { id: string } }).user.id;
    // The client stops reading but keeps its socket (and could keep heartbeating: sending still works).
    gw.ws.pause();
    const text = 'x'.repeat(64 * 1024);
    const frameBytes = JSON.stringify({ op: 0, d: { text }, s: 1, t: 'GAME_NOTE' }).length + 16;
    let sent = 0;
    // Loopback kernel buffers take a few MB first; 32 MB is far past them, and the loop stops at the close.
    for (; sent < 512 && !log.some((l) => l.includes('slow consumer')); sent++) {
      emu.dispatch(userId, 'GAME_NOTE', { text });
      if (sent % 16 === 15) await new Promise((r) => setTimeout(r, 5));
    }
    await expect.poll(() => log.find((l) => l.includes('slow consumer')), { timeout: 5000 }).toBeDefined();
    const line = log.find((l) => l.includes('slow consumer')) ?? '';
    expect(line).toMatch(/closing with 4008/);
    const queued = Number(/(\d+) bytes queued/.exec(line)?.[1]);
    expect(queued).toBeGreaterThan(limit);
    expect(queued).toBeLessThanOrEqual(limit + frameBytes);
    // Nothing more is queued for it, and its session is over (4008 starts a new session).
    await expect.poll(() => emu.gatewaySessions(userId), { timeout: 5000 }).toEqual([]);
    for (let i = 0; i < 50; i++) emu.dispatch(userId, 'GAME_NOTE', { text });
    gw.ws.resume();
    await gw.closed;
    expect(sent).toBeLessThan(512);
  });

  it('bounds the resume replay buffer in bytes as well as in count', async () => {
    const { emu } = await emulator({ replayBufferBytes: 64 * 1024 });
    const alice = await signIn(emu, 'alice');
    const gw = await open(emu);
    gw.send(2, { token: `Bearer ${alice.access_token}`, properties: {} });
    const ready = (await gw.dispatch('READY')).d as { session_id: string; user: { id: string } };
    const seq = (await Promise.resolve(emu.gatewaySessions(ready.user.id)[0]?.seq)) ?? 0;
    emu.dropGatewayConnections(ready.user.id);
    // 20 dispatches of 16 KiB: far fewer than 1000, but 320 KiB, past the 64 KiB budget.
    for (let i = 0; i < 20; i++) emu.dispatch(ready.user.id, 'GAME_NOTE', { text: 'y'.repeat(16 * 1024) });
    const again = await open(emu);
    again.send(6, { token: `Bearer ${alice.access_token}`, session_id: ready.session_id, seq });
    expect((await again.next((p) => p.op === 9)).d).toBe(false);
  });
});

describe('HTTP deadlines', () => {
  it('cuts off a connection whose request headers never finish (headersTimeout)', async () => {
    const { emu } = await emulator({ httpTimeouts: { headersMs: 500, requestMs: 1000, keepAliveMs: 500 } });
    const url = new URL(emu.http);
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const started = Date.now();
    socket.write('GET /api/v10/gateway HTTP/1.1\r\nHost: x\r\n'); // and never the blank line
    const drip = setInterval(() => socket.write('X-Drip: 1\r\n'), 100);
    try {
      await ended;
    } finally {
      clearInterval(drip);
    }
    expect(Date.now() - started).toBeLessThan(5000);
    expect(Buffer.concat(chunks).toString('latin1')).toMatch(/^HTTP\/1\.1 408/);
  });
});
