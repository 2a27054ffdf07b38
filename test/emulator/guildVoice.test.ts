import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { readWavFile } from '../../packages/protocol/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { writeWavFile } from '../../packages/emulator/src/testing/wav.js';
import { botSession as openBotSession } from './botHelpers.js';
import { call, closeAfterEach, loggedEmulator } from './lobbyHelpers.js';
import { tone, toneLevel } from './toneHelpers.js';

const GUILDS = 1 << 0;
const GUILD_VOICE_STATES = 1 << 7;
const CONNECT = 1n << 20n;

const { running, cleanups } = closeAfterEach();
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-guild-voice-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function seededVoice(emu: Emulator): { guildId: string; voiceId: string } {
  const [guild] = emu.guilds();
  return { guildId: guild?.id ?? '', voiceId: guild?.channels.find((c) => c.type === 2)?.id ?? '' };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('guild voice channels', () => {
  it('carries a tone between two chat-app users in a seeded voice channel, over DAVE', async () => {
    const { emu } = await loggedEmulator(running, { users: 3, voice: { certificateDir: dir } });
    const { guildId, voiceId } = seededVoice(emu);
    const play = path.join(dir, 'tone.wav');
    const heard = path.join(dir, 'heard.wav');
    writeWavFile(play, tone(3, 440));
    const bob = emu.joinVoiceChannel({ user: 'bob', channel: voiceId, record: heard });
    await until(() => emu.voice.calls()[0]?.participants[0]?.voice?.connected === true, 'bob connected');
    const alice = emu.joinVoiceChannel({ user: 'alice', channel: voiceId, play });
    await until(
      () => (emu.voice.calls()[0]?.participants ?? []).every((p) => p.voice?.mode !== null),
      'both connected',
    );
    await new Promise((resolve) => setTimeout(resolve, 4500));
    const [voiceCall] = emu.voice.calls();
    expect(voiceCall).toMatchObject({ lobbyId: null, channelId: voiceId, guildId, daveProtocolVersion: 1 });
    expect(voiceCall?.daveEpoch).not.toBeNull();
    await alice.leave();
    await bob.leave();
    const recorded = readWavFile(heard);
    const level = toneLevel(recorded, 440);
    const off = toneLevel(recorded, 1000);
    // Sent at 0.25 of full scale; Opus keeps a pure tone's level within a few dB.
    expect(level).toBeGreaterThan(0.1);
    expect(off).toBeLessThan(level / 20);
    expect(emu.voice.calls()).toEqual([]);
  }, 30_000);

  it('lets a bot join with op 4: its voice state, a voice server for the guild, and the voice gateway', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, voice: { certificateDir: dir } });
    const { guildId, voiceId } = seededVoice(emu);
    const { gw } = await openBotSession(emu, GUILDS | GUILD_VOICE_STATES);
    cleanups.push(() => gw.ws.close());
    gw.send(4, { guild_id: guildId, channel_id: voiceId, self_mute: false, self_deaf: true });
    const state = (await gw.dispatch('VOICE_STATE_UPDATE')).d as Record<string, unknown>;
    expect(state).toMatchObject({ guild_id: guildId, channel_id: voiceId, user_id: emu.applicationId });
    expect(state).toMatchObject({ self_deaf: true, mute: false, deaf: false });
    const server = (await gw.dispatch('VOICE_SERVER_UPDATE')).d as Record<string, unknown>;
    expect(server).toMatchObject({ guild_id: guildId, endpoint: emu.voice.endpoint });
    // The voice gateway takes the guild as server_id, over wss:// with the emulator's authority.
    const ca = emu.voiceCaFile ?? '';
    expect(ca).toBe(path.join(dir, 'authority', 'ca.pem'));
    const ws = new WebSocket(`wss://${emu.voice.endpoint}/?v=8`, { ca: readFileSync(ca, 'utf8') });
    cleanups.push(() => ws.close());
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(
      JSON.stringify({
        op: 0,
        d: {
          server_id: guildId,
          user_id: emu.applicationId,
          session_id: state.session_id,
          token: server.token,
          max_dave_protocol_version: 1,
        },
      }),
    );
    const ready = await new Promise<Record<string, unknown>>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as { op: number; d: Record<string, unknown> };
        if (m.op === 2) resolve(m.d);
      });
    });
    expect(ready).toMatchObject({
      ip: '127.0.0.1',
      modes: expect.arrayContaining(['aead_aes256_gcm_rtpsize']) as unknown,
    });
    // Leaving: channel_id null.
    gw.send(4, { guild_id: guildId, channel_id: null, self_mute: false, self_deaf: false });
    expect((await gw.dispatch('VOICE_STATE_UPDATE')).d).toMatchObject({ channel_id: null });
  });

  it('refuses a join without CONNECT, and past the user limit unless MOVE_MEMBERS', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 3, voice: { certificateDir: false } });
    expect(emu.voiceCaFile).toBeNull();
    const { voiceId } = seededVoice(emu);
    emu.setChannelOverwrite(voiceId, 'carol', { deny: CONNECT });
    expect(() => emu.joinVoiceChannel({ user: 'carol', channel: voiceId })).toThrow(/no CONNECT/);
    const limited = await call(emu, `Bot ${emu.botToken}`, 'PATCH', `/channels/${voiceId}`, {
      user_limit: 1,
    });
    expect(limited.json).toMatchObject({ user_limit: 1 });
    const alice = emu.joinVoiceChannel({ user: 'alice', channel: voiceId });
    expect(() => emu.joinVoiceChannel({ user: 'bob', channel: voiceId })).toThrow(/full \(user limit 1\)/);
    expect(logs.some((l) => l.includes('refused a voice channel: channel') && l.includes('is full'))).toBe(
      true,
    );
    emu.setChannelOverwrite(voiceId, 'bob', { allow: 1n << 24n });
    const bob = emu.joinVoiceChannel({ user: 'bob', channel: voiceId });
    expect(emu.voice.calls()[0]?.participants.map((p) => p.userId).length).toBe(2);
    await bob.leave();
    await alice.leave();
  });
});
