import { createSocket } from 'node:dgram';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { createMediaEngine } from '../../src/media/createMediaEngine.js';
import { allLogLines, eventually } from './helpers.js';
import { bothInCall, frameLevels, readWav, tempDir, twoInALobby, writeToneWav } from './callHelpers.js';

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
    const dir = tempDir();
    const toneIn = path.join(dir, 'tone.wav');
    const heard = path.join(dir, 'bob-hears.wav');
    writeToneWav(toneIn, { hz: 440, seconds: 30 });
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
});
