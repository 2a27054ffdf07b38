import { describe, expect, it } from 'vitest';

import { GatewayConnection, GatewayState } from '../../../packages/sdkpp/src/gateway/GatewayConnection.js';
import { GatewayOpcode } from '../../../packages/protocol/src/gateway.js';
import { Logger } from '../../../packages/sdkpp/src/logging/index.js';
import { FakeClock } from '../../fakes/FakeClock.js';
import { FakeGatewaySocket } from '../../fakes/FakeGatewaySocket.js';

function setup() {
  const clock = new FakeClock();
  const sockets: FakeGatewaySocket[] = [];
  const states: GatewayState[] = [];
  const gateway = new GatewayConnection({
    url: 'ws://gateway.test/',
    token: () => 'tok-1234567890',
    log: new Logger().writer('gw'),
    clock,
    socketFactory: (url) => {
      const s = new FakeGatewaySocket(url);
      sockets.push(s);
      return s;
    },
    reconnectDelayMs: () => 100,
    random: () => 0.5,
  });
  gateway.on('state', (s) => states.push(s));
  const last = (): FakeGatewaySocket => {
    const s = sockets.at(-1);
    if (!s) throw new Error('no socket');
    return s;
  };
  return { clock, sockets, states, gateway, last };
}

function ready(socket: FakeGatewaySocket, seq = 1): void {
  socket.receive({ op: 10, d: { heartbeat_interval: 1000 } });
  socket.receive({
    op: 0,
    t: 'READY',
    s: seq,
    d: { session_id: 'sess-1', resume_gateway_url: 'ws://resume.test/', user: { id: '1', username: 'a' } },
  });
}

describe('GatewayConnection', () => {
  it('identifies with a Bearer token and the version query, then heartbeats with jitter and the last seq', () => {
    const { gateway, last, clock } = setup();
    gateway.open();
    const socket = last();
    expect(socket.url).toBe('ws://gateway.test/?v=10&encoding=json');
    ready(socket, 5);
    const identify = socket.sent[0];
    expect(identify?.op).toBe(GatewayOpcode.Identify);
    expect((identify?.d as { token: string }).token).toBe('Bearer tok-1234567890');
    expect(gateway.state).toBe(GatewayState.Ready);
    clock.advance(499);
    expect(socket.ops()).toEqual([2]);
    clock.advance(1);
    expect(socket.sent[1]).toEqual({ op: 1, d: 5 });
    socket.receive({ op: 11 });
    clock.advance(1000);
    expect(socket.ops()).toEqual([2, 1, 1]);
  });

  it('answers a server heartbeat request at once', () => {
    const { gateway, last } = setup();
    gateway.open();
    ready(last());
    last().receive({ op: 1, d: null });
    expect(last().ops()).toEqual([2, 1]);
  });

  it('detects a zombie connection and resumes on a new socket at the resume URL', () => {
    const { gateway, last, clock, sockets } = setup();
    gateway.open();
    const first = last();
    ready(first, 7);
    clock.advance(500); // first beat, never acknowledged
    clock.advance(1000); // next beat due: zombie
    expect(first.terminated).toBe(true);
    expect(gateway.state).toBe(GatewayState.Backoff);
    clock.advance(100);
    const second = last();
    expect(sockets).toHaveLength(2);
    expect(second.url).toBe('ws://resume.test/?v=10&encoding=json');
    second.receive({ op: 10, d: { heartbeat_interval: 1000 } });
    expect(second.sent[0]).toEqual({
      op: 6,
      d: { token: 'Bearer tok-1234567890', session_id: 'sess-1', seq: 7 },
    });
    second.receive({ op: 0, t: 'RESUMED', s: 8, d: null });
    expect(gateway.state).toBe(GatewayState.Ready);
  });

  it.each([4004, 4010, 4011, 4012, 4013, 4014])('does not reconnect after terminal close code %i', (code) => {
    const { gateway, last, clock, sockets } = setup();
    gateway.open();
    ready(last());
    last().serverClose(code);
    expect(gateway.state).toBe(GatewayState.Closed);
    clock.advance(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('starts a new session after 4009 and resumes after an abnormal close', () => {
    const { gateway, last, clock } = setup();
    gateway.open();
    ready(last(), 3);
    last().serverClose(1006);
    clock.advance(100);
    last().receive({ op: 10, d: { heartbeat_interval: 1000 } });
    expect(last().sent[0]?.op).toBe(GatewayOpcode.Resume);
    last().serverClose(4009);
    clock.advance(100);
    last().receive({ op: 10, d: { heartbeat_interval: 1000 } });
    expect(last().sent[0]?.op).toBe(GatewayOpcode.Identify);
  });

  it('identifies anew after Invalid Session false, and ignores duplicate replayed dispatches', () => {
    const { gateway, last, clock } = setup();
    const events: string[] = [];
    gateway.on('dispatch', (t) => events.push(t));
    gateway.open();
    ready(last(), 2);
    last().receive({ op: 0, t: 'USER_UPDATE', s: 3, d: {} });
    last().receive({ op: 0, t: 'USER_UPDATE', s: 3, d: {} });
    expect(events).toEqual(['READY', 'USER_UPDATE']);
    last().receive({ op: 9, d: false });
    expect(gateway.sessionId).toBeUndefined();
    clock.advance(5000);
    last().receive({ op: 10, d: { heartbeat_interval: 1000 } });
    expect(last().sent[0]?.op).toBe(GatewayOpcode.Identify);
  });

  it('refuses to send a payload over 4096 bytes', () => {
    const { gateway, last } = setup();
    gateway.open();
    ready(last());
    expect(() => gateway.send(GatewayOpcode.PresenceUpdate, { x: 'y'.repeat(5000) })).toThrow(/4096/);
    gateway.send(GatewayOpcode.PresenceUpdate, { status: 'online' });
    expect(last().ops()).toEqual([2, 3]);
  });

  it('close() ends the session with 1000 and never reconnects', async () => {
    const { gateway, last, clock, sockets } = setup();
    gateway.open();
    ready(last());
    await gateway.close();
    expect(last().closedWith).toBe(1000);
    expect(gateway.state).toBe(GatewayState.Closed);
    clock.advance(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('ignores a dispatch whose sequence number is not a safe integer, and keeps delivering later ones', () => {
    const { gateway, last } = setup();
    const events: string[] = [];
    gateway.on('dispatch', (event) => events.push(event));
    gateway.open();
    ready(last(), 1);
    last().receive({ op: 0, t: 'HOSTILE', s: 1e300, d: {} });
    last().receive({ op: 0, t: 'NEGATIVE', s: -5, d: {} });
    last().receive({ op: 0, t: 'MESSAGE_CREATE', s: 2, d: {} });
    last().receive({ op: 0, t: 'MESSAGE_UPDATE', s: 3, d: {} });
    expect(events).toEqual(['READY', 'MESSAGE_CREATE', 'MESSAGE_UPDATE']);
    expect(gateway.sequence).toBe(3);
  });

  it('does not adopt a sequence number far ahead, so honest dispatches after it are not dropped', () => {
    const { gateway, last } = setup();
    const events: string[] = [];
    gateway.on('dispatch', (event) => events.push(event));
    gateway.open();
    ready(last(), 1);
    last().receive({ op: 0, t: 'FAR', s: Number.MAX_SAFE_INTEGER, d: {} });
    last().receive({ op: 0, t: 'NEXT', s: 2, d: {} });
    expect(events).toEqual(['READY', 'FAR', 'NEXT']);
    expect(gateway.sequence).toBe(2);
  });

  it('answers server heartbeat requests only within the 120-per-60 s send limit', () => {
    const { gateway, last, clock } = setup();
    gateway.open();
    ready(last());
    for (let i = 0; i < 500; i += 1) last().receive({ op: 1, d: null });
    const beats = last()
      .ops()
      .filter((op) => op === GatewayOpcode.Heartbeat).length;
    expect(beats).toBeGreaterThan(100);
    expect(last().sent.length).toBeLessThanOrEqual(120);
    // The scheduled beat still goes out: the reserve was kept for it.
    last().receive({ op: 11 });
    const before = last().sent.length;
    clock.advance(500);
    expect(last().sent.length).toBe(before + 1);
    expect(last().sent.at(-1)?.op).toBe(GatewayOpcode.Heartbeat);
    // A minute later the window is free again.
    clock.advance(60_000);
    last().receive({ op: 11 });
    const after = last().sent.length;
    last().receive({ op: 1, d: null });
    expect(last().sent.length).toBe(after + 1);
  });
});
