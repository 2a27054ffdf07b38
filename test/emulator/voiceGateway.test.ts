import { describe, expect, it } from 'vitest';

import type { Emulator, EmulatorOptions } from '../../packages/emulator/src/index.js';
import { closeAfterEach, loggedEmulator, nextWhere, player, type Player } from './lobbyHelpers.js';
import { connectVoice, joinCall, lobbyWith, RawVoiceClient, type JoinedCall } from './voiceHelpers.js';

const { running, cleanups } = closeAfterEach();

async function world(options: EmulatorOptions = {}): Promise<{
  emu: Emulator;
  alice: Player;
  bob: Player;
  logs: string[];
}> {
  const { emu, logs } = await loggedEmulator(running, { users: 3, ...options });
  return { emu, alice: await player(emu, 'alice'), bob: await player(emu, 'bob'), logs };
}

/** Alice in a lobby call, joined over the main gateway. */
async function aliceInCall(options: EmulatorOptions = {}) {
  const w = await world(options);
  const lobbyId = await lobbyWith(w.emu, [w.alice, w.bob]);
  const { gw } = await w.alice.connect();
  const joined = await joinCall(gw, w.alice.id, lobbyId);
  return { ...w, lobbyId, gw, joined };
}

function identify(client: RawVoiceClient, joined: JoinedCall, patch: Record<string, unknown> = {}): void {
  client.send(0, {
    server_id: joined.lobbyId,
    user_id: joined.userId,
    session_id: joined.sessionId,
    token: joined.token,
    max_dave_protocol_version: 1,
    ...patch,
  });
}

describe('voice gateway v8: handshake', () => {
  it('Hello, Identify, Ready, IP discovery, Select Protocol and Session Description over real sockets', async () => {
    const { emu, joined, logs } = await aliceInCall();
    expect(joined.endpoint).toBe(emu.voice.endpoint);
    expect(joined.endpoint).toMatch(/^127\.0\.0\.1:[0-9]+$/);

    const client = await RawVoiceClient.connect(joined.endpoint);
    const hello = await client.op(8);
    expect(hello.d).toEqual({ heartbeat_interval: 13_750, v: 8 });
    identify(client, joined);
    const ready = (await client.op(2)).d as Record<string, unknown>;
    expect(ready).toMatchObject({
      ip: '127.0.0.1',
      port: emu.voice.udpPort,
      modes: ['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize'],
    });
    expect(Number(ready.ssrc)).toBeGreaterThan(0);
    client.ws.close();

    const conn = await connectVoice(joined, { mode: 'aead_xchacha20_poly1305_rtpsize' });
    cleanups.push(() => {
      conn.udp.close();
      conn.client.ws.close();
    });
    expect(conn.description.mode).toBe('aead_xchacha20_poly1305_rtpsize');
    expect(conn.description.secret_key).toHaveLength(32);
    expect(conn.description.audio_codec).toBe('opus');
    // Nobody else is here yet: an empty op 11.
    expect((await conn.client.op(11)).d).toEqual({ user_ids: [] });

    conn.client.send(3, { t: 1234, seq_ack: conn.client.lastSeq });
    expect((await conn.client.op(6)).d).toEqual({ t: 1234 });

    const [callInfo] = emu.voice.calls();
    expect(callInfo?.participants[0]?.voice).toMatchObject({
      connected: true,
      ssrc: conn.ssrc,
      mode: 'aead_xchacha20_poly1305_rtpsize',
    });
    expect(callInfo?.counters.discoveries).toBe(1);
    // The voice token and the transport key never reach the log.
    const key = Buffer.from(conn.key).toString('hex');
    expect(logs.join('\n')).not.toContain(joined.token);
    expect(logs.join('\n')).not.toContain(key);
  });

  it('refuses a missing or too old version with 4020, and accepts 4', async () => {
    const { joined } = await aliceInCall();
    for (const query of ['', 'v=3', 'v=abc', 'v=9']) {
      const client = await RawVoiceClient.connect(joined.endpoint, query);
      const { code, reason } = await client.closed;
      expect(code).toBe(4020);
      expect(reason).toMatch(/bad request/);
    }
    const v4 = await RawVoiceClient.connect(joined.endpoint, 'v=4');
    expect((await v4.op(8)).op).toBe(8);
    v4.ws.close();
  });

  it('checks the token (4004), the session (4006) and the server (4011)', async () => {
    const { joined } = await aliceInCall();
    const cases: [Record<string, unknown>, number][] = [
      [{ token: 'not-the-token' }, 4004],
      [{ session_id: 'another-session' }, 4006],
      [{ server_id: '123456789012345678' }, 4011],
      [{ user_id: '42' }, 4004],
    ];
    for (const [patch, code] of cases) {
      const client = await RawVoiceClient.connect(joined.endpoint);
      await client.op(8);
      identify(client, joined, patch);
      expect((await client.closed).code).toBe(code);
    }
  });

  it('closes an unknown opcode with 4001, bad JSON with 4002, ops before Identify with 4003, a second Identify with 4005', async () => {
    const { joined, logs } = await aliceInCall();
    const unknown = await RawVoiceClient.connect(joined.endpoint);
    unknown.send(99, {});
    expect((await unknown.closed).code).toBe(4001);

    const badJson = await RawVoiceClient.connect(joined.endpoint);
    badJson.ws.send('{"op":');
    expect((await badJson.closed).code).toBe(4002);

    const early = await RawVoiceClient.connect(joined.endpoint);
    early.send(5, { speaking: 1, delay: 0, ssrc: 1 });
    expect((await early.closed).code).toBe(4003);

    const twice = await RawVoiceClient.connect(joined.endpoint);
    identify(twice, joined);
    await twice.op(2);
    identify(twice, joined);
    expect((await twice.closed).code).toBe(4005);
    expect(logs.some((l) => l.includes('4001'))).toBe(true);
  });

  it('survives garbage binary frames: each closes its socket with a code and a log line', async () => {
    const { joined, logs } = await aliceInCall();
    const frames = [
      Buffer.alloc(0),
      Buffer.from([0xff, 1, 2, 3]),
      Buffer.from([0x00, 0x7b]),
      Buffer.from([26, 0, 1]),
    ];
    const codes: number[] = [];
    for (const frame of frames) {
      const client = await RawVoiceClient.connect(joined.endpoint);
      client.ws.send(frame);
      codes.push((await client.closed).code);
    }
    // Empty → 4002; unknown op → 4001; a JSON op sent binary → 4002; a DAVE op before Identify → 4003.
    expect(codes).toEqual([4002, 4001, 4002, 4003]);
    expect(logs.filter((l) => l.startsWith('[voice] voice socket closed')).length).toBeGreaterThanOrEqual(4);
    // The server still works.
    const conn = await connectVoice(joined);
    cleanups.push(() => {
      conn.udp.close();
      conn.client.ws.close();
    });
    expect(conn.description.secret_key).toHaveLength(32);
  });

  it('refuses an unknown encryption mode with 4016', async () => {
    const { joined } = await aliceInCall();
    const client = await RawVoiceClient.connect(joined.endpoint);
    identify(client, joined);
    await client.op(2);
    client.send(1, {
      protocol: 'udp',
      data: { address: '127.0.0.1', port: 5000, mode: 'xsalsa20_poly1305' },
    });
    expect((await client.closed).code).toBe(4016);
  });

  it('closes a client without DAVE with 4017, unless voice.allowNonDave', async () => {
    const strict = await aliceInCall();
    const client = await RawVoiceClient.connect(strict.joined.endpoint);
    identify(client, strict.joined, { max_dave_protocol_version: 0 });
    const closed = await client.closed;
    expect(closed).toEqual({ code: 4017, reason: 'E2EE/DAVE protocol required' });

    const lax = await aliceInCall({ voice: { allowNonDave: true } });
    const conn = await connectVoice(lax.joined, { maxDave: 0 });
    cleanups.push(() => {
      conn.udp.close();
      conn.client.ws.close();
    });
    expect(conn.description.dave_protocol_version).toBe(0);
  });
});

describe('voice gateway v8: SSRC map, speaking and resume', () => {
  it('announces members with op 11 + op 5, relays speaking, and says op 13 on leave', async () => {
    const { emu, alice, bob } = await world();
    const lobbyId = await lobbyWith(emu, [alice, bob]);
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();
    const a = await connectVoice(await joinCall(aliceGw, alice.id, lobbyId));
    cleanups.push(() => {
      a.udp.close();
    });
    a.client.send(5, { speaking: 1, delay: 0, ssrc: a.ssrc });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const b = await connectVoice(await joinCall(bobGw, bob.id, lobbyId));
    cleanups.push(() => {
      b.udp.close();
    });
    expect((await b.client.op(11)).d).toEqual({ user_ids: [alice.id] });
    expect((await b.client.op(5)).d).toEqual({ speaking: 1, ssrc: a.ssrc, user_id: alice.id });
    expect(
      (await a.client.next((m) => m.op === 11 && (m.d as { user_ids: string[] }).user_ids.length > 0)).d,
    ).toEqual({
      user_ids: [bob.id],
    });
    expect((await a.client.op(5)).d).toEqual({ speaking: 0, ssrc: b.ssrc, user_id: bob.id });

    b.client.send(5, { speaking: 5, delay: 0, ssrc: b.ssrc });
    const relayed = await a.client.op(5);
    expect(relayed.d).toEqual({ speaking: 5, ssrc: b.ssrc, user_id: bob.id });
    expect(typeof relayed.seq).toBe('number');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(emu.voice.calls()[0]?.participants.find((p) => p.userId === bob.id)?.voice?.speaking).toBe(5);

    // Bob leaves the call over the main gateway: his voice socket closes with 4014, Alice hears op 13.
    bobGw.send(17, []);
    expect((await b.client.closed).code).toBe(4014);
    expect((await a.client.op(13)).d).toEqual({ user_id: bob.id });
    a.client.ws.close();
  });

  it('resumes after a drop and replays what was missed, by sequence number', async () => {
    const { emu, alice, bob } = await world();
    const lobbyId = await lobbyWith(emu, [alice, bob]);
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();
    const joinedA = await joinCall(aliceGw, alice.id, lobbyId);
    const a = await connectVoice(joinedA);
    const b = await connectVoice(await joinCall(bobGw, bob.id, lobbyId));
    cleanups.push(() => {
      a.udp.close();
      b.udp.close();
      b.client.ws.close();
    });
    await a.client.next((m) => m.op === 5);
    const ack = a.client.lastSeq;

    expect(emu.voice.dropConnections(alice.id)).toBe(1);
    expect(emu.voice.calls()[0]?.participants.find((p) => p.userId === alice.id)?.voice?.connected).toBe(
      false,
    );
    await a.client.closed;
    // Sent while Alice is away: buffered for her.
    b.client.send(5, { speaking: 1, delay: 0, ssrc: b.ssrc });
    b.client.send(5, { speaking: 0, delay: 0, ssrc: b.ssrc });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(emu.voice.calls()[0]?.participants.find((p) => p.userId === alice.id)?.voice?.connected).toBe(
      false,
    );

    const again = await RawVoiceClient.connect(joinedA.endpoint);
    await again.op(8);
    again.send(7, { server_id: lobbyId, session_id: joinedA.sessionId, token: joinedA.token, seq_ack: ack });
    expect((await again.op(9)).d).toBeNull();
    const first = await again.op(5);
    const second = await again.op(5);
    expect(first.d).toEqual({ speaking: 1, ssrc: b.ssrc, user_id: bob.id });
    expect(second.d).toEqual({ speaking: 0, ssrc: b.ssrc, user_id: bob.id });
    expect(first.seq).toBe((ack + 1) & 0xffff);
    expect(second.seq).toBe((ack + 2) & 0xffff);

    // A resume from a sequence number the server never sent is refused with 4006.
    const stale = await RawVoiceClient.connect(joinedA.endpoint);
    stale.send(7, {
      server_id: lobbyId,
      session_id: joinedA.sessionId,
      token: joinedA.token,
      seq_ack: 60_000,
    });
    expect((await stale.closed).code).toBe(4006);
    again.ws.close();
  });

  it('kicking a member closes its voice socket with 4014; ending the lobby closes with 4022', async () => {
    const { emu, alice, bob } = await world();
    const lobbyId = await lobbyWith(emu, [alice, bob]);
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();
    const a = await connectVoice(await joinCall(aliceGw, alice.id, lobbyId));
    const b = await connectVoice(await joinCall(bobGw, bob.id, lobbyId));
    cleanups.push(() => {
      a.udp.close();
      b.udp.close();
    });
    expect(emu.voice.kick(lobbyId, bob.id)).toBe(true);
    expect((await b.client.closed).code).toBe(4014);
    const left = await nextWhere(
      aliceGw,
      'LOBBY_VOICE_STATE_UPDATE',
      (d) => d.user_id === bob.id && d.channel_id === null,
    );
    expect(left.lobby_id).toBe(lobbyId);
    // Alice leaves the lobby: she is dropped from its call (4014) and the call, now empty, is gone.
    const response = await fetch(`${emu.api}/lobbies/${lobbyId}/members/@me`, {
      method: 'DELETE',
      headers: { Authorization: alice.auth },
    });
    expect(response.status).toBe(204);
    expect((await a.client.closed).code).toBe(4014);
    expect(emu.voice.calls()).toEqual([]);
  });
});
