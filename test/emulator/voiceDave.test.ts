import type { MediaType } from '@snazzah/davey';
import { afterEach, describe, expect, it } from 'vitest';

import type { Emulator, EmulatorOptions } from '../../packages/emulator/src/index.js';
import { loggedEmulator } from './lobbyHelpers.js';
import {
  closeVoice,
  connectVoice,
  DaveyMember,
  joinCall,
  lobbyWith,
  pairInLobby,
  player,
  RawVoiceClient,
  sendRtp,
  type VoiceConnection,
} from './voiceHelpers.js';

/** davey's `MediaType.AUDIO` (a const enum, which isolated modules cannot import). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- a plain number typed as davey's enum
const AUDIO = 0 as MediaType;

const running: Emulator[] = [];
const open: VoiceConnection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) closeVoice(c);
  await Promise.all(running.splice(0).map((e) => e.close()));
});

async function world(options: EmulatorOptions = {}) {
  const { emu, logs } = await loggedEmulator(running, { users: 2, ...options });
  return { emu, logs, ...(await pairInLobby(emu)) };
}

describe('voice gateway: DAVE wiring', () => {
  it('a DAVE client gets version 1 and the external sender (op 25) as a binary message on the shared seq counter', async () => {
    const { emu, alice, lobbyId, aliceGw } = await world();
    const a = await connectVoice(await joinCall(aliceGw, alice.id, lobbyId));
    open.push(a);
    expect(a.description.dave_protocol_version).toBe(1);
    const clients = await a.client.op(11);
    const external = await a.client.op(25);
    expect(external.binary).toBe(true);
    // One counter for JSON and binary: op 11 then op 25.
    expect(external.seq).toBe((clients.seq ?? 0) + 1);
    // ExternalSender: signature_key<V> (a 65-byte P-256 point), then credential type 1 (basic).
    const payload = external.payload ?? Buffer.alloc(0);
    expect([...payload.subarray(0, 3)]).toEqual([0x40, 0x41, 0x04]);
    expect(payload.readUInt16BE(2 + 65)).toBe(1);
    expect(emu.voice.calls()[0]).toMatchObject({ daveProtocolVersion: 1, daveEpoch: 0n });
  });

  it('garbage key packages and commits are logged and ignored; the connection keeps working', async () => {
    const { emu, alice, lobbyId, aliceGw, logs } = await world();
    const a = await connectVoice(await joinCall(aliceGw, alice.id, lobbyId));
    open.push(a);
    await a.client.op(25);
    a.client.sendBinary(26, Buffer.from('not a key package'));
    a.client.sendBinary(28, Buffer.from([0, 1, 0, 1, 9, 9, 9]));
    a.client.send(23, { transition_id: 77 });
    a.client.send(31, { transition_id: 78 });
    a.client.send(3, { t: 5, seq_ack: a.client.lastSeq });
    expect((await a.client.op(6)).d).toEqual({ t: 5 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logs.some((l) => l.startsWith('[dave]'))).toBe(true);
    expect(emu.voice.calls()[0]?.participants[0]?.voice?.connected).toBe(true);
    // A transition id that is no u16 is a bad request.
    a.client.send(23, { transition_id: -1 });
    expect((await a.client.closed).code).toBe(4020);
  });

  it('a resume replays binary DAVE messages with their seq', async () => {
    const { emu, alice, lobbyId, aliceGw } = await world();
    const joined = await joinCall(aliceGw, alice.id, lobbyId);
    const a = await connectVoice(joined);
    open.push(a);
    const clients = await a.client.op(11);
    // Drop before reading op 25: acknowledge only op 11.
    emu.voice.dropConnections(alice.id);
    await a.client.closed;
    const again = await RawVoiceClient.connect(joined.endpoint);
    again.send(7, {
      server_id: lobbyId,
      session_id: joined.sessionId,
      token: joined.token,
      seq_ack: clients.seq,
    });
    await again.op(9);
    const replayed = await again.op(25);
    expect(replayed.binary).toBe(true);
    expect(replayed.seq).toBe((clients.seq ?? 0) + 1);
    again.ws.close();
  });

  it('with voice.allowNonDave a client without DAVE downgrades the call: DAVE members get op 21 to version 0', async () => {
    const { emu, alice, bob, lobbyId, aliceGw, bobGw } = await world({ voice: { allowNonDave: true } });
    const a = await connectVoice(await joinCall(aliceGw, alice.id, lobbyId));
    open.push(a);
    expect(a.description.dave_protocol_version).toBe(1);
    const b = await connectVoice(await joinCall(bobGw, bob.id, lobbyId), { maxDave: 0 });
    open.push(b);
    expect(b.description.dave_protocol_version).toBe(0);
    expect((await a.client.op(21)).d).toEqual({ protocol_version: 0, transition_id: 0 });
    expect(emu.voice.calls()[0]).toMatchObject({ daveProtocolVersion: 0, daveEpoch: null });
  });
});

describe('voice gateway: DAVE end to end with davey members', () => {
  it('two davey members form one MLS group through the emulator, and DAVE frames cross the forwarding unit untouched', async () => {
    const { emu, alice, bob, lobbyId, aliceGw, bobGw } = await world();
    const a = await connectVoice(await joinCall(aliceGw, alice.id, lobbyId));
    open.push(a);
    const da = new DaveyMember(a.client, alice.id, lobbyId);
    const b = await connectVoice(await joinCall(bobGw, bob.id, lobbyId), {
      mode: 'aead_xchacha20_poly1305_rtpsize',
    });
    open.push(b);
    const db = new DaveyMember(b.client, bob.id, lobbyId);

    const deadline = Date.now() + 10_000;
    const joint = () =>
      da.session.ready &&
      db.session.ready &&
      da.session.epoch !== null &&
      da.session.epoch === db.session.epoch &&
      da.session.getUserIds().length === 2;
    while (!joint() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(da.errors).toEqual([]);
    expect(db.errors).toEqual([]);
    expect(joint()).toBe(true);
    expect(da.session.voicePrivacyCode).toMatch(/^[0-9]{30}$/);
    expect(db.session.voicePrivacyCode).toBe(da.session.voicePrivacyCode);
    expect(emu.voice.calls()[0]?.daveEpoch).toBe(da.session.epoch);

    // Alice's Opus frame, DAVE-encrypted by davey, sealed for transport, re-sealed by the emulator for Bob.
    const opus = Buffer.from([0xfc, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07]);
    const frame = da.session.encryptOpus(opus);
    sendRtp(a, frame, 1);
    await b.udp.waitFor(1);
    const [packet] = b.udp.take();
    const out = Buffer.alloc(packet?.length ?? 0);
    const opened = b.cryptor.open(packet ?? Buffer.alloc(0), out);
    if (!opened.ok) throw new Error(opened.code);
    const received = out.subarray(opened.payloadOffset, opened.payloadOffset + opened.payloadLength);
    expect(Buffer.from(received)).toEqual(frame);
    expect(db.session.decrypt(alice.id, AUDIO, Buffer.from(received))).toEqual(opus);
  });
});

describe('voice gateway: identifying again', () => {
  it('a fresh Identify replaces the old connection (4006) and the call keeps its DAVE coordinator', async () => {
    const { alice, bob, lobbyId, aliceGw, bobGw } = await world();
    const joinedA = await joinCall(aliceGw, alice.id, lobbyId);
    const first = await connectVoice(joinedA);
    open.push(first);
    await first.client.op(25);
    const a = await connectVoice(joinedA);
    open.push(a);
    expect((await first.client.closed).code).toBe(4006);
    const da = new DaveyMember(a.client, alice.id, lobbyId);
    const b = await connectVoice(await joinCall(bobGw, bob.id, lobbyId));
    open.push(b);
    const db = new DaveyMember(b.client, bob.id, lobbyId);
    const deadline = Date.now() + 10_000;
    const joint = () => da.session.ready && db.session.ready && da.session.epoch === db.session.epoch;
    while (!joint() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(joint()).toBe(true);
    expect(db.session.voicePrivacyCode).toBe(da.session.voicePrivacyCode);
  });
});

describe('voice gateway: DAVE membership churn', () => {
  it('members joining and leaving 20 times keep one group: every remaining member agrees on epoch and privacy code', async () => {
    const { emu } = await loggedEmulator(running, { users: 4 });
    const names = ['alice', 'bob', 'carol', 'dave'];
    const players = await Promise.all(names.map((n) => player(emu, n)));
    const lobbyId = await lobbyWith(emu, players, 'churn');
    const gws = await Promise.all(players.map(async (p) => (await p.connect()).gw));
    const members = new Map<string, { conn: VoiceConnection; davey: DaveyMember }>();

    const join = async (i: number): Promise<void> => {
      const p = players[i];
      const gw = gws[i];
      if (!p || !gw) throw new Error('no player');
      const conn = await connectVoice(await joinCall(gw, p.id, lobbyId));
      open.push(conn);
      members.set(p.id, { conn, davey: new DaveyMember(conn.client, p.id, lobbyId) });
    };
    const leave = async (i: number): Promise<void> => {
      const p = players[i];
      const gw = gws[i];
      const member = p ? members.get(p.id) : undefined;
      if (!p || !gw || !member) throw new Error('not in the call');
      gw.send(17, []);
      await member.conn.client.closed;
      members.delete(p.id);
    };
    const converged = async (): Promise<void> => {
      const deadline = Date.now() + 10_000;
      const agree = (): boolean => {
        const sessions = [...members.values()].map((m) => m.davey.session);
        const first = sessions[0];
        if (!first || sessions.length < 2) return true;
        return sessions.every(
          (s) =>
            s.ready &&
            s.epoch !== null &&
            s.epoch === first.epoch &&
            s.getUserIds().length === sessions.length &&
            s.voicePrivacyCode === first.voicePrivacyCode,
        );
      };
      while (!agree() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(agree(), `members ${[...members.keys()].join(', ')} did not converge`).toBe(true);
    };

    await join(0);
    await join(1);
    await converged();
    // 20 changes: the third and fourth players come and go, then the first two take turns.
    const steps: ['join' | 'leave', number][] = [
      ['join', 2],
      ['join', 3],
      ['leave', 2],
      ['leave', 3],
      ['join', 3],
      ['join', 2],
      ['leave', 0],
      ['join', 0],
      ['leave', 1],
      ['leave', 3],
      ['join', 1],
      ['join', 3],
      ['leave', 2],
      ['leave', 0],
      ['join', 2],
      ['join', 0],
      ['leave', 3],
      ['leave', 1],
      ['join', 1],
      ['join', 3],
    ];
    for (const [what, i] of steps) {
      if (what === 'join') await join(i);
      else await leave(i);
      await converged();
    }
    expect(members.size).toBe(4);
    for (const { davey } of members.values()) expect(davey.errors).toEqual([]);
    const epoch = [...members.values()][0]?.davey.session.epoch;
    expect(emu.voice.calls()[0]?.daveEpoch).toBe(epoch);
  }, 60_000);
});
