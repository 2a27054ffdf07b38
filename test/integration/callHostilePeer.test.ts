import { createSocket } from 'node:dgram';

import { describe, expect, it } from 'vitest';

import { CallStatus, type InboundAudioState } from '../../packages/sdkpp/src/index.js';
import { createMediaEngine } from '../../packages/sdkpp/src/media/createMediaEngine.js';
import { allLogLines, eventually } from './helpers.js';
import { bothInCall, frameLevels, readWav, toneAndRecording, twoInALobby } from './callHelpers.js';

/** Bob's voice participant as the emulator sees it. */
function bobVoice(emulator: Awaited<ReturnType<typeof twoInALobby>>['emulator'], bobId: string) {
  const voice = emulator.voice
    .calls()
    .flatMap((c) => c.participants)
    .find((p) => p.userId === bobId)?.voice;
  if (!voice) throw new Error('Bob has no voice connection');
  return voice;
}

describe('calls under a hostile UDP peer', () => {
  it('an IP discovery carrying a member’s SSRC from another socket does not take their audio', async () => {
    const { emulator, alice, bob, lobbyId } = await twoInALobby();
    const { toneIn, heard } = toneAndRecording();
    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    await eventually(() => aliceCall.getPrivacyCode() !== '', 10_000, 'the DAVE group');

    // The attacker: any UDP socket that knows the relay's port and Bob's SSRC (op 5 tells every member).
    const attacker = createSocket('udp4');
    const stolen: Buffer[] = [];
    attacker.on('message', (msg) => stolen.push(msg));
    await new Promise<void>((resolve) => attacker.bind(0, '127.0.0.1', resolve));
    try {
      const request = Buffer.alloc(74);
      createMediaEngine({ prefer: 'js' }).encodeIpDiscovery(
        { type: 'request', ssrc: bobVoice(emulator, bob.user.id).ssrc, address: '', port: 0 },
        request,
      );
      for (let i = 0; i < 3; i++) attacker.send(request, emulator.voice.udpPort, '127.0.0.1');
      await eventually(
        () => (emulator.voice.calls()[0]?.counters.refusedDiscoveries ?? 0) >= 3,
        5000,
        'the discoveries refused',
      );
      expect(allLogLines.some((l) => /IP discovery for ssrc \d+ from 127\.0\.0\.1:\d+ refused/.test(l))).toBe(
        true,
      );

      // Alice speaks: Bob still hears her, and the attacker gets nothing (no discovery reply, no RTP).
      const before = bobVoice(emulator, bob.user.id).packetsToClient;
      await bob.client.setOutputDevice(`wav-out:${heard}`);
      await alice.client.setInputDevice(`wav-in:${toneIn}`);
      await new Promise((r) => setTimeout(r, 1000));
      await bob.client.setOutputDevice('null');
      expect(bobVoice(emulator, bob.user.id).packetsToClient - before).toBeGreaterThan(20);
      expect(frameLevels(readWav(heard).samples).filter((level) => level > 2000).length).toBeGreaterThan(10);
      expect(stolen).toEqual([]);
      expect(bobCall.getStatus()).toBe(aliceCall.getStatus());
    } finally {
      attacker.close();
    }
  });

  for (const mediaEngine of ['native', 'js'] as const) {
    it(`a member whose inbound audio stops while others speak notices, reconnects and hears again (${mediaEngine})`, async () => {
      const { emulator, alice, bob, lobbyId } = await twoInALobby({ mediaEngine });
      const { toneIn, heard } = toneAndRecording();
      const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
      await eventually(() => bobCall.getPrivacyCode() !== '', 10_000, 'the DAVE group');
      const inbound: InboundAudioState[] = [];
      bobCall.on('inboundAudioChanged', (state) => inbound.push(state));
      const seen: CallStatus[] = [];
      bobCall.on('statusChanged', (status) => seen.push(status));
      await alice.client.setInputDevice(`wav-in:${toneIn}`);
      await eventually(() => bobVoice(emulator, bob.user.id).packetsToClient > 10, 5000, 'audio at Bob');

      // The path to Bob breaks one way: the voice server forwards nothing to him, his socket stays up.
      const blockedAt = Date.now();
      expect(emulator.voice.blockForwarding(bob.user.id, true)).toBe(1);
      await eventually(() => inbound.includes('stalled'), 8000, 'the stall noticed');
      const noticedMs = Date.now() - blockedAt;
      expect(noticedMs).toBeGreaterThanOrEqual(2000);
      expect(noticedMs).toBeLessThan(6000);
      expect(seen).toContain(CallStatus.Reconnecting);
      expect(
        allLogLines.some((l) => /no audio received for \d+ ms while others speak; reconnecting/.test(l)),
      ).toBe(true);
      // A fresh voice session: a new path that the block (tied to the old session) does not cover.
      await eventually(() => inbound.includes('flowing'), 8000, 'audio flowing again');
      expect(bobCall.getStatus()).toBe(CallStatus.Connected);
      expect(aliceCall.getStatus()).toBe(CallStatus.Connected);
      await bob.client.setOutputDevice(`wav-out:${heard}`);
      await new Promise((r) => setTimeout(r, 800));
      await bob.client.setOutputDevice('null');
      expect(frameLevels(readWav(heard).samples).filter((level) => level > 2000).length).toBeGreaterThan(10);
      expect(inbound).toEqual(['stalled', 'flowing']);
    });
  }

  it('a quiet call is not a stalled one: no reconnect while nobody speaks', async () => {
    const { emulator, alice, bob, lobbyId } = await twoInALobby();
    const { bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    const inbound: InboundAudioState[] = [];
    bobCall.on('inboundAudioChanged', (state) => inbound.push(state));
    emulator.voice.blockForwarding(bob.user.id, true);
    await new Promise((r) => setTimeout(r, 3500));
    expect(inbound).toEqual([]);
    expect(bobCall.getStatus()).toBe(CallStatus.Connected);
  });
});
