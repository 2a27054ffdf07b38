import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { readWavFile } from '../../packages/protocol/src/index.js';
import { writeWavFile } from '../../packages/emulator/src/testing/wav.js';
import { botSession as openBotSession } from './botHelpers.js';
import { act, pageToken } from './dashboardHelpers.js';
import { call, closeAfterEach, loggedEmulator } from './lobbyHelpers.js';
import { seededVoice, tone, toneLevel, until } from './voiceChannelHelpers.js';

const GUILDS = 1 << 0;
const GUILD_VOICE_STATES = 1 << 7;
const CONNECT = 1n << 20n;
const SPEAK = 1n << 21n;
const MUTE = 1n << 22n;
const DEAFEN = 1n << 23n;
const MOVE = 1n << 24n;

const { running, cleanups } = closeAfterEach();
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-guild-voice-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

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
    // A new region for the channel is a new voice server for everyone in it.
    const regions = (await call<{ id: string; optimal: boolean }[]>(emu, null, 'GET', '/voice/regions')).json;
    expect(regions.map((r) => r.id)).toContain('rotterdam');
    const bot = `Bot ${emu.botToken}`;
    const unknownRegion = await call(emu, bot, 'PATCH', `/channels/${voiceId}`, { rtc_region: 'atlantis' });
    expect([unknownRegion.status, unknownRegion.json.code]).toEqual([400, 50035]);
    const moved = await call(emu, bot, 'PATCH', `/channels/${voiceId}`, { rtc_region: 'rotterdam' });
    expect(moved.json).toMatchObject({ rtc_region: 'rotterdam' });
    const renewed = (await gw.dispatch('VOICE_SERVER_UPDATE')).d as Record<string, unknown>;
    expect(renewed).toMatchObject({ guild_id: guildId, endpoint: emu.voice.endpoint });
    expect(renewed.token).not.toBe(server.token);
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
    emu.setChannelOverwrite(voiceId, 'bob', { allow: MOVE });
    const bob = emu.joinVoiceChannel({ user: 'bob', channel: voiceId });
    expect(emu.voice.calls()[0]?.participants.map((p) => p.userId).length).toBe(2);
    await bob.leave();
    await alice.leave();
  });

  it('moves a member with MOVE_MEMBERS (their connection follows), and mutes them with MUTE_MEMBERS', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, voice: { certificateDir: false } });
    const { guildId, voiceId } = seededVoice(emu);
    const bot = `Bot ${emu.botToken}`;
    const created = await call<{ id: string }>(emu, bot, 'POST', `/guilds/${guildId}/channels`, {
      name: 'Raid',
      type: 2,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const raid = created.json.id;
    emu.setChannelOverwrite(raid, '@everyone', { allow: CONNECT | SPEAK });
    const play = path.join(dir, 'moved.wav');
    writeWavFile(play, tone(20, 440));
    const alice = emu.joinVoiceChannel({ user: 'alice', channel: voiceId, play });
    const aliceId = emu.users.find((u) => u.username === 'alice')?.id ?? '';
    const { gw } = await openBotSession(emu, GUILDS | GUILD_VOICE_STATES);
    cleanups.push(() => gw.ws.close());
    const member = `/guilds/${guildId}/members/${aliceId}`;
    const refused = await call(emu, bot, 'PATCH', member, { channel_id: raid });
    expect([refused.status, refused.json.code]).toEqual([403, 50013]);
    const role = emu.createRole(guildId, { name: 'Voice moderator', permissions: MOVE | MUTE | DEAFEN });
    emu.setMemberRoles(guildId, '@bot', [role.id]);
    const notInVoice = await call(emu, bot, 'PATCH', `/guilds/${guildId}/members/${emu.users[1]?.id ?? ''}`, {
      channel_id: raid,
    });
    expect([notInVoice.status, notInVoice.json.code]).toEqual([400, 40032]);
    const textChannel = emu.guilds()[0]?.channels.find((c) => c.type === 0)?.id ?? '';
    const notVoice = await call(emu, bot, 'PATCH', member, { channel_id: textChannel });
    expect([notVoice.status, notVoice.json.code]).toEqual([400, 50035]);

    expect((await call(emu, bot, 'PATCH', member, { channel_id: raid })).status).toBe(200);
    expect(
      (
        await gw.next(
          (p) => p.t === 'VOICE_STATE_UPDATE' && (p.d as { channel_id: string }).channel_id === raid,
        )
      ).d,
    ).toMatchObject({ user_id: aliceId, guild_id: guildId });
    await until(() => {
      const moved = emu.voice.calls().find((c) => c.channelId === raid);
      return moved?.participants[0]?.voice?.mode !== undefined && moved.participants[0].voice.mode !== null;
    }, "alice's connection in Raid");
    expect(emu.voice.calls().map((c) => c.channelId)).toEqual([raid]);
    // Someone to hear her: a lone member's client need not send.
    const bob = emu.joinVoiceChannel({ user: 'bob', channel: raid });
    await until(() => (emu.voice.calls()[0]?.counters.packetsForwarded ?? 0) > 20, 'alice heard in Raid');

    expect((await call(emu, bot, 'PATCH', member, { mute: true })).json).toMatchObject({ mute: true });
    expect(
      (await gw.next((p) => p.t === 'VOICE_STATE_UPDATE' && (p.d as { mute: boolean }).mute)).d,
    ).toMatchObject({ user_id: aliceId, channel_id: raid, mute: true });
    const before = emu.voice.calls()[0]?.counters.droppedSilenced ?? 0;
    await until(
      () => (emu.voice.calls()[0]?.counters.droppedSilenced ?? 0) > before + 20,
      'silenced packets',
    );
    await bob.leave();
    await alice.leave();
  }, 30_000);

  it('a member without SPEAK is heard by nobody until the channel lets them speak', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, voice: { certificateDir: false } });
    const { voiceId } = seededVoice(emu);
    emu.setChannelOverwrite(voiceId, '@bot', { allow: CONNECT, deny: SPEAK });
    const play = path.join(dir, 'unheard.wav');
    const heard = path.join(dir, 'unheard-heard.wav');
    writeWavFile(play, tone(8, 440));
    const bob = emu.joinVoiceChannel({ user: 'bob', channel: voiceId, record: heard });
    const speaker = emu.joinVoiceChannel({ user: '@bot', channel: voiceId, play });
    await until(() => (emu.voice.calls()[0]?.counters.droppedSilenced ?? 0) > 100, 'packets dropped');
    expect(emu.voice.calls()[0]?.counters.packetsForwarded).toBe(0);
    emu.setChannelOverwrite(voiceId, '@bot', null);
    await until(() => (emu.voice.calls()[0]?.counters.packetsForwarded ?? 0) > 100, 'packets forwarded');
    await speaker.leave();
    await bob.leave();
    // Only what came after SPEAK was allowed: most of the 8 s, not all of it.
    const level = toneLevel(readWavFile(heard), 440);
    expect(level).toBeGreaterThan(0.03);
  }, 30_000);

  it('puts a user in a voice channel from the dashboard and takes them out; a kick ends their recording', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, voice: { certificateDir: false } });
    const { guildId, voiceId } = seededVoice(emu);
    const headers = { 'X-Dashboard-Token': await pageToken(emu) };
    const bot = `Bot ${emu.botToken}`;
    const stateOf = async (username: string) => {
      const id = emu.users.find((u) => u.username === username)?.id ?? '';
      return call(emu, bot, 'GET', `/guilds/${guildId}/voice-states/${id}`);
    };
    const heard = path.join(dir, 'dashboard-heard.wav');
    const joined = await act(emu, 'voice/join', { user: 'alice', channel: voiceId, record: heard }, headers);
    expect(joined).toMatchObject({ status: 200, json: { username: 'alice' } });
    expect((await stateOf('alice')).json).toMatchObject({
      channel_id: voiceId,
      session_id: joined.json.sessionId,
    });
    const notWav = path.join(dir, 'notes.txt');
    writeFileSync(notWav, 'keep me');
    const overwrite = await act(
      emu,
      'voice/join',
      { user: 'bob', channel: voiceId, record: notWav },
      headers,
    );
    expect(overwrite).toMatchObject({ status: 400, json: { error: 'refused' } });
    expect(readFileSync(notWav, 'utf8')).toBe('keep me');
    // A refused second join leaves its recording path untouched.
    const never = path.join(dir, 'never.wav');
    const again = await act(emu, 'voice/join', { user: 'alice', channel: voiceId, record: never }, headers);
    expect(again).toMatchObject({ status: 400, json: { error: 'refused' } });
    expect(existsSync(never)).toBe(false);
    expect(await act(emu, 'voice/leave', { user: 'alice' }, headers)).toMatchObject({ status: 200 });
    expect(emu.voice.calls()).toEqual([]);
    expect(await act(emu, 'voice/leave', { user: 'alice' }, headers)).toMatchObject({ status: 404 });
    // A moderator's kick puts the user out for good: the hook's user may join again.
    await act(emu, 'voice/join', { user: 'bob', channel: voiceId }, headers);
    const bobId = emu.users.find((u) => u.username === 'bob')?.id ?? '';
    expect(await act(emu, `calls/${voiceId}/kick`, { userId: bobId }, headers)).toMatchObject({
      status: 200,
    });
    expect((await stateOf('bob')).status).toBe(404);
    expect((await act(emu, 'voice/join', { user: 'bob', channel: voiceId }, headers)).status).toBe(200);
  });
});
