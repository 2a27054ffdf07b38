import { afterEach, describe, expect, it } from 'vitest';

import type { Emulator, EmulatorOptions } from '../../packages/emulator/src/index.js';
import { loggedEmulator } from './lobbyHelpers.js';
import {
  closeVoice,
  connectVoice,
  joinCall,
  pairInLobby,
  RawVoiceClient,
  sendRtp,
  TestUdp,
  type VoiceConnection,
} from './voiceHelpers.js';

const running: Emulator[] = [];
const open: VoiceConnection[] = [];
const sockets: TestUdp[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) closeVoice(c);
  for (const s of sockets.splice(0)) s.close();
  await Promise.all(running.splice(0).map((e) => e.close()));
});

async function twoInCall(options: EmulatorOptions = {}) {
  const { emu, logs } = await loggedEmulator(running, { users: 2, ...options });
  const { alice, bob, lobbyId, aliceGw, bobGw } = await pairInLobby(emu);
  const joinedA = await joinCall(aliceGw, alice.id, lobbyId);
  const a = await connectVoice(joinedA);
  const b = await connectVoice(await joinCall(bobGw, bob.id, lobbyId));
  open.push(a, b);
  return { emu, alice, bob, lobbyId, a, b, joinedA, logs };
}

/** A small seeded PRNG for reproducible garbage. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4_294_967_296;
  };
}

describe('voice server robustness', () => {
  it('seeded garbage on the voice gateway and the UDP port never takes the server down', async () => {
    const { emu, a, b, joinedA, logs } = await twoInCall();
    const random = prng(2026);
    const bytes = (n: number): Buffer =>
      Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
    const codes = new Set<number>();
    for (let i = 0; i < 30; i += 1) {
      const client = await RawVoiceClient.connect(joinedA.endpoint);
      const kind = i % 3;
      if (kind === 0) client.ws.send(bytes(1 + Math.floor(random() * 64)));
      else if (kind === 1) client.ws.send(bytes(1 + Math.floor(random() * 64)).toString('latin1'));
      else client.send(Math.floor(random() * 40), { junk: bytes(8).toString('hex') });
      const closed = await Promise.race([
        client.closed,
        new Promise<{ code: number }>((resolve) => setTimeout(() => resolve({ code: 0 }), 500)),
      ]);
      if (closed.code === 0) client.ws.close();
      else codes.add(closed.code);
    }
    // Every refusal is one of the voice close codes.
    for (const code of codes) expect([4001, 4002, 4003, 4004, 4005, 4006, 4011, 4020]).toContain(code);
    const junk = await TestUdp.open();
    sockets.push(junk);
    for (let i = 0; i < 300; i += 1) {
      const packet = bytes(1 + Math.floor(random() * 200));
      if (i % 2 === 0) {
        // Make some of them look like RTP with a live SSRC.
        packet[0] = 0x80;
        packet[1] = 0x78;
        if (packet.length >= 12) packet.writeUInt32BE(a.ssrc, 8);
      }
      junk.send(packet, a.udpPort);
      a.udp.send(packet, a.udpPort);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Still serving: a good packet is forwarded, and a heartbeat answered.
    b.udp.take();
    sendRtp(a, Buffer.from([0xf8, 0xff, 0xfe]), 7);
    await b.udp.waitFor(1);
    a.client.send(3, { t: 9, seq_ack: a.client.lastSeq });
    expect((await a.client.op(6)).d).toEqual({ t: 9 });
    expect(emu.voice.calls()[0]?.counters.packetsIn).toBe(1);
    expect(logs.filter((l) => l.startsWith('[voice] voice socket closed')).length).toBeGreaterThan(0);
  });

  it('closes a voice socket without heartbeats with 4009, and announces op 13 when a dropped session is not resumed', async () => {
    const { emu, bob, a, b } = await twoInCall({ voice: { heartbeatIntervalMs: 200, resumeWindowMs: 200 } });
    // Nobody heartbeats on b: 200 × 1.5 + 1000 ms later it is closed.
    const keepAlive = setInterval(() => {
      a.client.send(3, { t: Date.now(), seq_ack: a.client.lastSeq });
    }, 150);
    try {
      expect((await b.client.closed).code).toBe(4009);
      expect((await a.client.op(13, 3000)).d).toEqual({ user_id: bob.id });
      // Bob is still in the call on the main gateway, without a voice connection.
      const bobView = emu.voice.calls()[0]?.participants.find((p) => p.userId === bob.id);
      expect(bobView?.voice).toBeNull();
      // Alice's socket drops; nobody resumes within 200 ms: her session ends too.
      emu.voice.dropConnections();
      await a.client.closed;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(emu.voice.calls()[0]?.participants.every((p) => p.voice === null)).toBe(true);
    } finally {
      clearInterval(keepAlive);
    }
  });

  it('ends every voice connection with 4022 when the lobby is deleted', async () => {
    const { emu, lobbyId, a, b } = await twoInCall();
    const response = await fetch(`${emu.api}/lobbies/${lobbyId}`, {
      method: 'DELETE',
      headers: { Authorization: `Bot ${emu.botToken}` },
    });
    expect(response.status).toBe(204);
    expect((await a.client.closed).code).toBe(4022);
    expect((await b.client.closed).code).toBe(4022);
    expect(emu.voice.calls()).toEqual([]);
  });

  it('a second main gateway session of the same user takes the call over: a new token, the old voice socket gets 4014', async () => {
    const { emu, alice, lobbyId, a, b } = await twoInCall();
    const { gw: second } = await alice.connect();
    const joined = await joinCall(second, alice.id, lobbyId);
    expect((await a.client.closed).code).toBe(4014);
    const again = await connectVoice(joined);
    open.push(again);
    expect(again.ssrc).not.toBe(a.ssrc);
    // Bob learns the new SSRC of Alice before any packet: op 11 + op 5.
    await b.client.next((m) => m.op === 5 && (m.d as { ssrc: number }).ssrc === again.ssrc);
    sendRtp(again, Buffer.from([1, 2, 3]), 1);
    await b.udp.waitFor(1);
    expect(emu.voice.calls()[0]?.participants.find((p) => p.userId === alice.id)?.sessionId).toBe(
      joined.sessionId,
    );
  });

  it('the u16 sequence wraps (65535 → 0) and a resume across the wrap replays by sequence number', async () => {
    const { emu, alice, bob, lobbyId, a, b, joinedA } = await twoInCall();
    await a.client.op(5);
    const start = a.client.lastSeq;
    const count = 65_536 - start + 2;
    const seqs: number[] = [];
    a.client.listeners.push((m) => {
      if (m.op === 5 && typeof m.seq === 'number') seqs.push(m.seq);
    });
    for (let i = 0; i < count; i += 1) b.client.send(5, { speaking: i & 1, delay: 0, ssrc: b.ssrc });
    const deadline = Date.now() + 30_000;
    while (seqs.length < count && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seqs).toHaveLength(count);
    expect(seqs.slice(-5)).toEqual([65_534, 65_535, 0, 1, 2]);
    for (let i = 1; i < seqs.length; i += 1) expect(seqs[i]).toBe(((seqs[i - 1] ?? 0) + 1) & 0xffff);

    emu.voice.dropConnections(alice.id);
    await a.client.closed;
    b.client.send(5, { speaking: 4, delay: 0, ssrc: b.ssrc });
    b.client.send(5, { speaking: 0, delay: 0, ssrc: b.ssrc });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await RawVoiceClient.connect(joinedA.endpoint);
    again.send(7, { server_id: lobbyId, session_id: joinedA.sessionId, token: joinedA.token, seq_ack: 2 });
    await again.op(9);
    const replayed = [await again.op(5), await again.op(5)];
    expect(replayed.map((m) => m.seq)).toEqual([3, 4]);
    expect(replayed.map((m) => (m.d as { speaking: number }).speaking)).toEqual([4, 0]);
    expect((replayed[0]?.d as { user_id: string }).user_id).toBe(bob.id);
    again.ws.close();
    await again.closed;
    // Everything since the start (seq_ack -1) is long gone from the buffer: 4006.
    const fromScratch = await RawVoiceClient.connect(joinedA.endpoint);
    fromScratch.send(7, {
      server_id: lobbyId,
      session_id: joinedA.sessionId,
      token: joinedA.token,
      seq_ack: -1,
    });
    expect((await fromScratch.closed).code).toBe(4006);
  }, 60_000);
});
