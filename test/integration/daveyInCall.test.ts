import type { MediaType } from '@snazzah/davey';
import { afterEach, describe, expect, it } from 'vitest';

import { createMediaEngine, OPUS_MAX_PACKET_SIZE } from '../../packages/sdkpp/src/media/index.js';
import type { Call } from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import type { TestGateway } from '../emulator/helpers.js';
import { player } from '../emulator/lobbyHelpers.js';
import {
  connectVoice,
  DaveyMember,
  joinCall,
  lobbyWith,
  sendRtp,
  type VoiceConnection,
} from '../emulator/voiceHelpers.js';
import { connected, tempDir, toneStrength, writeToneWav } from './callHelpers.js';
import { emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

// Issue 6's interop check: @snazzah/davey (an independent DAVE implementation, on OpenMLS) as a member of a
// lobby call next to two SDK clients, all through the emulator's voice server over real sockets. davey's
// member is a raw voice client (test/emulator/voiceHelpers) driven the way discord.js drives davey.

// davey's MediaType.AUDIO (a const enum, which isolated modules cannot import).
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- a plain number typed as davey's enum
const AUDIO = 0 as MediaType;
const SECRET = 'davey-call';
const engine = createMediaEngine({ prefer: 'js' });

const open: VoiceConnection[] = [];
afterEach(() => {
  for (const connection of open.splice(0)) {
    connection.udp.close();
    connection.client.ws.close();
  }
});

/** Opus frames of a 440 Hz tone (20 ms, 48 kHz stereo). */
function toneFrames(count: number): Uint8Array[] {
  const encoder = engine.createOpusEncoder();
  const out = new Uint8Array(OPUS_MAX_PACKET_SIZE);
  return Array.from({ length: count }, (_, f) => {
    const pcm = new Int16Array(1920);
    for (let i = 0; i < 960; i++) {
      const sample = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (f * 960 + i)) / 48_000));
      pcm[2 * i] = sample;
      pcm[2 * i + 1] = sample;
    }
    return out.slice(0, encoder.encode(pcm, out));
  });
}

/** A davey member (raw voice client) joining the lobby call as `username`. */
async function daveyJoins(
  emulator: Emulator,
  username: string,
  lobbyId: string,
): Promise<{
  id: string;
  member: DaveyMember;
  connection: VoiceConnection;
  ssrcToUser: Map<number, string>;
  gateway: TestGateway;
}> {
  const who = await player(emulator, username);
  await lobbyWith(emulator, [who], SECRET);
  const { gw } = await who.connect();
  const connection = await connectVoice(await joinCall(gw, who.id, lobbyId));
  open.push(connection);
  const ssrcToUser = new Map<number, string>();
  const learn = (m: { op: number; d?: unknown }): void => {
    const d = m.d as { ssrc?: number; user_id?: string } | undefined;
    if (m.op === 5 && d?.ssrc !== undefined && d.user_id !== undefined) ssrcToUser.set(d.ssrc, d.user_id);
  };
  for (const message of connection.client.pending()) learn(message);
  connection.client.listeners.push(learn);
  const member = new DaveyMember(connection.client, who.id, lobbyId);
  connection.client.send(5, { speaking: 1, delay: 0, ssrc: connection.ssrc });
  return { id: who.id, member, connection, ssrcToUser, gateway: gw };
}

/** Resolves once every SDK call and davey member shows one non-empty privacy code, other than `previous`. */
async function oneEpoch(calls: Call[], members: DaveyMember[], previous = ''): Promise<string> {
  let code = '';
  await eventually(
    () => {
      const codes = [
        ...calls.map((call) => call.getPrivacyCode()),
        ...members.map((member) => member.session.voicePrivacyCode),
      ];
      code = codes[0] ?? '';
      return code !== '' && code !== previous && codes.every((c) => c === code);
    },
    15_000,
    'one DAVE epoch at every member',
  );
  return code;
}

/**
 * Alice and Bob (SDK clients) in a lobby call, Bob listening per user; then Carol (davey) joins, and all
 * three reach one epoch. `heardFromCarol` collects the 440 Hz strength of each of Carol's frames at Bob.
 */
async function twoPlayersAndDavey(users: number) {
  const emulator = await emulatorFor({ autoConsent: true, users });
  const alice = await linkAndConnect(emulator, userAt(emulator, 0));
  const bob = await linkAndConnect(emulator, userAt(emulator, 1));
  const lobbyId = await alice.client.createOrJoinLobby(SECRET);
  await bob.client.createOrJoinLobby(SECRET);
  const heardFromCarol: number[] = [];
  let carolId = '';
  const aliceCall = alice.client.startCall(lobbyId);
  const bobCall = bob.client.startCallWithAudioCallbacks(
    lobbyId,
    (userId, samples) => {
      if (userId === carolId) heardFromCarol.push(toneStrength(samples, 440));
    },
    () => undefined,
  );
  await connected(aliceCall);
  await connected(bobCall);
  const carol = await daveyJoins(emulator, 'carol', lobbyId);
  carolId = carol.id;
  const code = await oneEpoch([aliceCall, bobCall], [carol.member]);
  return { emulator, alice, bob, lobbyId, aliceCall, bobCall, carol, heardFromCarol, code };
}

describe('@snazzah/davey in a lobby call with SDK clients', () => {
  it('shares the epoch and codes, and audio decrypts both ways', async () => {
    const { alice, bob, aliceCall, bobCall, carol, heardFromCarol, code } = await twoPlayersAndDavey(3);
    expect(code).toMatch(/^\d{30}$/);
    expect(carol.member.errors).toEqual([]);

    // Pairwise verification codes agree across implementations.
    expect(await aliceCall.getVerificationCode(carol.id)).toBe(
      await carol.member.session.getVerificationCode(alice.user.id),
    );
    expect(await bobCall.getVerificationCode(carol.id)).toBe(
      await carol.member.session.getVerificationCode(bob.user.id),
    );

    // davey → SDK: Carol's DAVE frames (davey's encryptOpus) are decrypted and played at Bob.
    const frames = toneFrames(50);
    for (const [i, frame] of frames.entries()) {
      sendRtp(carol.connection, carol.member.session.encryptOpus(Buffer.from(frame)), 100 + i);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await eventually(() => heardFromCarol.filter((s) => s > 3000).length >= 30, 5000, 'Carol’s tone at Bob');

    // SDK → davey: Alice's microphone (a tone file) reaches Carol, and davey decrypts every frame.
    const dir = tempDir();
    writeToneWav(`${dir}/tone.wav`, { hz: 440, seconds: 1.5 });
    carol.connection.udp.take();
    await alice.client.setInputDevice(`wav-in:${dir}/tone.wav`);
    await eventually(() => carol.connection.udp.received.length >= 40, 5000, 'Alice’s packets at Carol');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const decoder = engine.createOpusDecoder();
    const pcm = new Int16Array(1920);
    let decrypted = 0;
    let strong = 0;
    const failures: string[] = [];
    const plain = new Uint8Array(4096);
    for (const datagram of carol.connection.udp.take()) {
      const opened = carol.connection.cryptor.open(datagram, plain);
      if (!opened.ok) continue; // RTCP-like noise or another stream's control traffic
      const from = carol.ssrcToUser.get(opened.header.ssrc);
      if (from !== alice.user.id) continue;
      const payload = plain.subarray(opened.payloadOffset, opened.payloadOffset + opened.payloadLength);
      try {
        const frame = carol.member.session.decrypt(alice.user.id, AUDIO, Buffer.from(payload));
        decrypted++;
        if (frame.length > 3 && decoder.decode(frame, pcm) > 0 && toneStrength(pcm, 440) > 3000) strong++;
      } catch (error) {
        failures.push(String(error));
      }
    }
    expect(failures).toEqual([]);
    expect(decrypted).toBeGreaterThanOrEqual(40);
    expect(strong).toBeGreaterThanOrEqual(30);
  }, 60_000);

  it('keeps one group through 20 joins and leaves of a davey member, and frames keep decrypting', async () => {
    const { emulator, lobbyId, aliceCall, bobCall, carol, heardFromCarol, ...first } =
      await twoPlayersAndDavey(4);
    let code = first.code;

    const frames = toneFrames(10);
    let sequence = 1000;
    const codes = new Set<string>();
    for (let change = 0; change < 20; change += 2) {
      // Dave joins (one change) …
      const dave = await daveyJoins(emulator, 'dave', lobbyId);
      code = await oneEpoch([aliceCall, bobCall], [carol.member, dave.member], code);
      codes.add(code);
      expect(dave.member.errors).toEqual([]);
      // … and leaves (the second): the others commit his removal.
      // Leaving the call is op 17 without this lobby, as the SDK does it.
      dave.gateway.send(17, []);
      await eventually(() => !aliceCall.getParticipants().includes(dave.id), 10_000, 'Dave gone');
      code = await oneEpoch([aliceCall, bobCall], [carol.member], code);
      codes.add(code);
      // Outside the transition, every frame Carol sends on the current epoch is heard at Bob (the first
      // may be quieter while the decoder starts).
      const before = heardFromCarol.filter((s) => s > 3000).length;
      for (const frame of frames) {
        sendRtp(carol.connection, carol.member.session.encryptOpus(Buffer.from(frame)), sequence++);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await eventually(
        () => heardFromCarol.filter((s) => s > 3000).length >= before + 9,
        5000,
        `Carol heard after change ${change + 2}`,
      );
    }
    // Every join and every leave made a new epoch, so a new privacy code.
    expect(codes.size).toBe(20);
    expect(carol.member.errors).toEqual([]);
  }, 180_000);
});
