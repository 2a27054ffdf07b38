import { describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import type { TransportEncryptionMode } from '../../packages/sdkpp/src/media/rtp/types.js';
import {
  closeVoice,
  connectVoice,
  engine,
  joinCall,
  pairInLobby,
  sendRtp,
  TestUdp,
  type VoiceConnection,
} from './voiceHelpers.js';
import { closeAfterEach } from './lobbyHelpers.js';

const { running, cleanups } = closeAfterEach();

/** Alice and Bob in one call, each through the whole handshake with the given modes. */
async function twoInCall(
  modes: [TransportEncryptionMode, TransportEncryptionMode],
  mediaEngine: 'native' | 'js' = 'js',
): Promise<{
  emu: Emulator;
  lobbyId: string;
  a: VoiceConnection;
  b: VoiceConnection;
}> {
  const emu = await startEmulator({ autoConsent: true, users: 2, voice: { mediaEngine } });
  running.push(emu);
  const { alice, bob, lobbyId, aliceGw, bobGw } = await pairInLobby(emu);
  const a = await connectVoice(await joinCall(aliceGw, alice.id, lobbyId), { mode: modes[0] });
  const b = await connectVoice(await joinCall(bobGw, bob.id, lobbyId), { mode: modes[1] });
  cleanups.push(() => {
    for (const c of [a, b]) closeVoice(c);
  });
  return { emu, lobbyId, a, b };
}

/** Opens a packet with a connection's own key; returns the payload, header and nonce. */
function openWith(conn: VoiceConnection, packet: Buffer) {
  const out = Buffer.alloc(packet.length);
  const result = conn.cryptor.open(packet, out);
  if (!result.ok) throw new Error(`open failed: ${result.code}`);
  return {
    payload: out.subarray(result.payloadOffset, result.payloadOffset + result.payloadLength),
    extension: out.subarray(result.extensionOffset, result.extensionOffset + result.extensionLength),
    header: result.header,
    nonce: result.nonce,
  };
}

/** A DAVE-shaped frame: ciphertext, 8-byte tag, nonce, supplemental size and the 0xFAFA marker. */
const daveLikeFrame = Buffer.concat([
  Buffer.from('opaque ciphertext bytes'),
  Buffer.alloc(8, 7),
  Buffer.from([0x01, 0x0b, 0xfa, 0xfa]),
]);
const silence = Buffer.from([0xf8, 0xff, 0xfe]);

describe('UDP forwarding unit', () => {
  for (const [modes, mediaEngine] of [
    [['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize'], 'native'],
    [['aead_xchacha20_poly1305_rtpsize', 'aead_aes256_gcm_rtpsize'], 'native'],
    [['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize'], 'js'],
    [['aead_xchacha20_poly1305_rtpsize', 'aead_aes256_gcm_rtpsize'], 'js'],
  ] as [[TransportEncryptionMode, TransportEncryptionMode], 'native' | 'js'][]) {
    it(`re-seals ${modes[0]} → ${modes[1]} with the receiver's key (${mediaEngine} engine); payloads arrive byte for byte`, async () => {
      const { emu, a, b } = await twoInCall(modes, mediaEngine);
      const extension = { profile: 0xbede, body: Buffer.from([0x10, 0xff, 0x00, 0x00]) };
      const sent = [
        sendRtp(a, daveLikeFrame, 100),
        sendRtp(a, silence, 101),
        sendRtp(a, daveLikeFrame, 102, extension),
      ];
      await b.udp.waitFor(3);
      const got = b.udp.take();
      const opened = got.map((p) => openWith(b, p));
      expect(opened.map((o) => Buffer.from(o.payload))).toEqual([daveLikeFrame, silence, daveLikeFrame]);
      expect(opened.map((o) => o.header.sequence)).toEqual([100, 101, 102]);
      expect(opened.every((o) => o.header.ssrc === a.ssrc)).toBe(true);
      expect(Buffer.from(opened[2]?.extension ?? [])).toEqual(extension.body);
      // Bob's own nonce counter: 1, 2, 3 (Alice's packets carried hers).
      expect(opened.map((o) => o.nonce)).toEqual([1, 2, 3]);
      // Re-encrypted: not the sender's bytes, and Alice's key does not open them.
      expect(got[0]?.equals(sent[0] as Buffer)).toBe(false);
      expect(a.cryptor.open(got[0] as Buffer, Buffer.alloc(200)).ok).toBe(false);
      // Nothing comes back to the sender.
      expect(a.udp.received).toHaveLength(0);

      const counters = emu.voice.calls()[0]?.counters;
      expect(counters).toMatchObject({
        packetsIn: 3,
        packetsForwarded: 3,
        droppedDecrypt: 0,
        discoveries: 2,
      });
      const participants = emu.voice.calls()[0]?.participants ?? [];
      expect(participants.map((p) => p.voice?.packetsToClient)).toEqual([0, 3]);
    });
  }

  it('drops packets from an address other than the pinned one, and packets the sender key does not open', async () => {
    const { emu, a, b } = await twoInCall(['aead_aes256_gcm_rtpsize', 'aead_aes256_gcm_rtpsize']);
    const intruder = await TestUdp.open();
    cleanups.push(() => {
      intruder.close();
    });
    const header = { sequence: 1, timestamp: 0, ssrc: a.ssrc };
    const forged = Buffer.alloc(a.cryptor.sealedLength(header, 3));
    a.cryptor.seal(header, silence, forged);
    intruder.send(forged, a.udpPort);
    // The right source, but sealed with another key.
    const wrongKey = engine.createTransportCryptor('aead_aes256_gcm_rtpsize', new Uint8Array(32).fill(9));
    const bad = Buffer.alloc(wrongKey.sealedLength(header, 3));
    wrongKey.seal(header, silence, bad);
    a.udp.send(bad, a.udpPort);
    // Tolerated: RTCP, an 8-byte keep-alive, garbage and a short packet.
    a.udp.send(Buffer.from([0x80, 0xc8, 0, 6, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]), a.udpPort);
    a.udp.send(Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]), a.udpPort);
    a.udp.send(Buffer.from('garbage that is not RTP at all'), a.udpPort);
    a.udp.send(Buffer.from([0x80]), a.udpPort);
    // A UDP ping is answered.
    a.udp.send(Buffer.from([0x13, 0x37, 0xca, 0xfe, 0, 0, 0, 5]), a.udpPort);
    await a.udp.waitFor(1);
    expect(a.udp.take()[0]).toEqual(Buffer.from([0x13, 0x37, 0xf0, 0x0d, 0, 0, 0, 5]));
    // A good packet still goes through after all that.
    sendRtp(a, silence, 2);
    await b.udp.waitFor(1);
    expect(b.udp.take()).toHaveLength(1);
    expect(emu.voice.calls()[0]?.counters).toMatchObject({
      packetsIn: 1,
      droppedForeignSource: 1,
      droppedDecrypt: 1,
      packetsForwarded: 1,
    });
    expect(emu.voice.udpCounters()).toMatchObject({ rtcp: 1, keepAlives: 1, pings: 1, malformed: 2 });
  });

  it('impairs forwarded packets reproducibly with a fixed seed (loss), and delays and reorders them', async () => {
    const { emu, a, b } = await twoInCall(['aead_aes256_gcm_rtpsize', 'aead_aes256_gcm_rtpsize']);
    const runLoss = async (first: number): Promise<number[]> => {
      emu.voice.setImpairment({ lossPercent: 20, seed: 42 });
      for (let i = 0; i < 200; i += 1) sendRtp(a, silence, first + i);
      const stats = () => emu.voice.impairmentStats();
      const deadline = Date.now() + 5000;
      while ((stats()?.seen ?? 0) < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const expected = 200 - (stats()?.dropped ?? 0);
      await b.udp.waitFor(expected);
      await new Promise((r) => setTimeout(r, 50));
      const got = b.udp.take().map((p) => openWith(b, p).header.sequence - first);
      expect(got).toHaveLength(expected);
      return got;
    };
    const first = await runLoss(0);
    const second = await runLoss(1000);
    const dropped = 200 - first.length;
    // 20 % of 200, give or take what a fair coin does.
    expect(dropped).toBeGreaterThan(20);
    expect(dropped).toBeLessThan(60);
    // The same seed drops the same packets.
    expect(second).toEqual(first);

    emu.voice.setImpairment({ delayMs: 80, jitterMs: 20, reorderPercent: 30, seed: 7 });
    const started = Date.now();
    for (let i = 0; i < 40; i += 1) sendRtp(a, silence, 5000 + i);
    await b.udp.waitFor(40);
    expect(Date.now() - started).toBeGreaterThanOrEqual(80);
    const order = b.udp.take().map((p) => openWith(b, p).header.sequence);
    expect([...order].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => 5000 + i));
    expect(order).not.toEqual([...order].sort((x, y) => x - y));
    expect(emu.voice.impairmentStats()).toMatchObject({ seen: 40, dropped: 0, delayed: 40 });
    expect(emu.voice.impairmentStats()?.reordered).toBeGreaterThan(0);

    emu.voice.setImpairment(null);
    expect(emu.voice.impairmentStats()).toBeNull();
    expect(() => {
      emu.voice.setImpairment({ lossPercent: 101 });
    }).toThrow(RangeError);
  });
});
