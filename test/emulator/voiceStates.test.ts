import { describe, expect, it } from 'vitest';

import type { EmulatorOptions } from '../../packages/emulator/src/index.js';
import { TestGateway } from './helpers.js';
import {
  call,
  closeAfterEach,
  loggedEmulator,
  nextWhere,
  pendingEvents,
  player,
  type Player,
} from './lobbyHelpers.js';
import { connectVoice, joinCall, lobbyWith, RawVoiceClient } from './voiceHelpers.js';

const { running, cleanups } = closeAfterEach();

async function world(options: EmulatorOptions = {}) {
  const { emu, logs } = await loggedEmulator(running, { users: 3, ...options });
  const alice = await player(emu, 'alice');
  const bob = await player(emu, 'bob');
  const carol = await player(emu, 'carol');
  return { emu, alice, bob, carol, logs };
}

const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

describe('main gateway: lobby voice states (op 17 and op 4)', () => {
  it('op 17 joins: the lobby hears LOBBY_VOICE_STATE_UPDATE, only the joiner gets the server update', async () => {
    const { emu, alice, bob, carol, logs } = await world();
    const lobbyId = await lobbyWith(emu, [alice, bob]);
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();
    const { gw: carolGw } = await carol.connect();

    const joined = await joinCall(aliceGw, alice.id, lobbyId);
    expect(joined.endpoint).toBe(emu.voice.endpoint);
    expect(joined.sessionId).toBe(emu.gatewaySessions(alice.id)[0]?.sessionId);
    const seen = await nextWhere(bobGw, 'LOBBY_VOICE_STATE_UPDATE', (d) => d.user_id === alice.id);
    expect(seen).toEqual({
      lobby_id: lobbyId,
      channel_id: lobbyId,
      user_id: alice.id,
      session_id: joined.sessionId,
      self_mute: false,
      self_deaf: false,
      mute: false,
      deaf: false,
      self_video: false,
      self_stream: false,
      suppress: false,
      request_to_speak_timestamp: null,
    });
    await settle();
    expect(pendingEvents(bobGw)).not.toContain('LOBBY_VOICE_SERVER_UPDATE');
    expect(pendingEvents(carolGw).filter((t) => t.includes('VOICE'))).toEqual([]);

    // New flags: op 17 again; everyone hears the new state, nobody gets a new token.
    aliceGw.send(17, [{ lobby_id: lobbyId, self_mute: true, self_deaf: false }]);
    const muted = await nextWhere(bobGw, 'LOBBY_VOICE_STATE_UPDATE', (d) => d.self_mute === true);
    expect(muted.channel_id).toBe(lobbyId);
    await nextWhere(aliceGw, 'LOBBY_VOICE_STATE_UPDATE', (d) => d.self_mute === true);
    await settle();
    expect(pendingEvents(aliceGw)).not.toContain('LOBBY_VOICE_SERVER_UPDATE');

    // READY of a new session and LOBBY_CREATE for a new member carry the call's voice states.
    const { ready } = await bob.connect();
    const lobby = (ready.lobbies as Record<string, unknown>[]).find((l) => l.id === lobbyId);
    expect(lobby?.voice_states).toEqual([expect.objectContaining({ user_id: alice.id, self_mute: true })]);
    await call(emu, carol.auth, 'PUT', '/lobbies', { secret: 'voice-lobby' });
    const created = await nextWhere(carolGw, 'LOBBY_CREATE', (d) => d.id === lobbyId);
    expect(created.voice_states).toEqual([
      expect.objectContaining({ user_id: alice.id, channel_id: lobbyId }),
    ]);

    // An empty array leaves every lobby call.
    aliceGw.send(17, []);
    const left = await nextWhere(bobGw, 'LOBBY_VOICE_STATE_UPDATE', (d) => d.channel_id === null);
    expect(left).toMatchObject({ user_id: alice.id, lobby_id: lobbyId, channel_id: null });
    expect(emu.voice.calls()).toEqual([]);
    expect(logs.join('\n')).not.toContain(joined.token);
  });

  it('op 4 with guild_id = channel_id = lobby id works bot-style (VOICE_STATE_UPDATE / VOICE_SERVER_UPDATE)', async () => {
    const { emu, alice, bob } = await world();
    const lobbyId = await lobbyWith(emu, [alice, bob]);
    const { gw: aliceGw } = await alice.connect();
    // Alice herself with op 4.
    aliceGw.send(4, { guild_id: lobbyId, channel_id: lobbyId, self_mute: false, self_deaf: true });
    const state = await nextWhere(aliceGw, 'VOICE_STATE_UPDATE', (d) => d.user_id === alice.id);
    expect(state).toMatchObject({ guild_id: lobbyId, channel_id: lobbyId, self_deaf: true });
    const server = await nextWhere(aliceGw, 'VOICE_SERVER_UPDATE', () => true);
    expect(Object.keys(server).sort()).toEqual(['endpoint', 'guild_id', 'token']);
    expect(server).toMatchObject({ guild_id: lobbyId, endpoint: emu.voice.endpoint });
    expect(typeof server.token).toBe('string');

    // The application's bot joins the call too, and a voice connection goes all the way.
    const botGw = await TestGateway.connect(emu);
    await botGw.next((p) => p.op === 10);
    botGw.send(2, { token: `Bot ${emu.botToken}`, intents: 0, properties: {} });
    await botGw.dispatch('READY');
    botGw.send(4, { guild_id: lobbyId, channel_id: lobbyId, self_mute: false, self_deaf: false });
    const botState = await nextWhere(botGw, 'VOICE_STATE_UPDATE', () => true);
    const botServer = await nextWhere(botGw, 'VOICE_SERVER_UPDATE', () => true);
    const botId = String(botState.user_id);
    // Alice, who joined with op 4, hears of the bot in the VOICE_* flavour.
    await nextWhere(aliceGw, 'VOICE_STATE_UPDATE', (d) => d.user_id === botId);
    const conn = await connectVoice({
      lobbyId,
      userId: botId,
      sessionId: String(botState.session_id),
      token: String(botServer.token),
      endpoint: String(botServer.endpoint),
    });
    cleanups.push(() => {
      conn.udp.close();
      conn.client.ws.close();
    });
    expect(conn.description.secret_key).toHaveLength(32);

    // channel_id null leaves.
    aliceGw.send(4, { guild_id: lobbyId, channel_id: null, self_mute: false, self_deaf: false });
    await nextWhere(botGw, 'VOICE_STATE_UPDATE', (d) => d.user_id === alice.id && d.channel_id === null);
    expect(emu.voice.calls()[0]?.participants.map((p) => p.userId)).toEqual([botId]);
  });

  it('refuses a non-member (nothing dispatched, a log line) and the 26th participant', async () => {
    const { emu, alice, carol, logs } = await world({ users: 26 });
    const lobbyId = await lobbyWith(emu, [alice]);
    const { gw: carolGw } = await carol.connect();
    carolGw.send(17, [{ lobby_id: lobbyId, self_mute: false, self_deaf: false }]);
    await settle(150);
    expect(pendingEvents(carolGw).filter((t) => t.includes('VOICE'))).toEqual([]);
    expect(logs.some((l) => l.includes(`not a member of lobby ${lobbyId}`))).toBe(true);
    expect(emu.voice.calls()).toEqual([]);

    // 26 members; 25 join; the 26th gets no server update.
    const names = emu.users.map((u) => u.username).filter((n) => n !== 'alice');
    const players: Player[] = [alice];
    for (const name of names.slice(0, 25)) players.push(await player(emu, name));
    await lobbyWith(emu, players);
    const sessions = await Promise.all(players.map(async (p) => ({ p, gw: (await p.connect()).gw })));
    for (const { p, gw } of sessions.slice(0, 25)) await joinCall(gw, p.id, lobbyId);
    const last = sessions[25];
    if (!last) throw new Error('26 players expected');
    last.gw.send(17, [{ lobby_id: lobbyId, self_mute: false, self_deaf: false }]);
    await settle(200);
    expect(pendingEvents(last.gw)).not.toContain('LOBBY_VOICE_SERVER_UPDATE');
    expect(emu.voice.calls()[0]?.participants).toHaveLength(25);
    expect(logs.some((l) => l.includes('is full (25 participants)'))).toBe(true);
  });

  it('a dropped main gateway session ends its calls after the resume window (voice close 4014)', async () => {
    const { emu, alice, bob } = await world({ resumeWindowMs: 300 });
    const lobbyId = await lobbyWith(emu, [alice, bob]);
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();
    const conn = await connectVoice(await joinCall(aliceGw, alice.id, lobbyId));
    cleanups.push(() => {
      conn.udp.close();
    });
    const dropped = Date.now();
    emu.dropGatewayConnections(alice.id);
    const left = await nextWhere(bobGw, 'LOBBY_VOICE_STATE_UPDATE', (d) => d.channel_id === null);
    expect(Date.now() - dropped).toBeGreaterThanOrEqual(250);
    expect(left.user_id).toBe(alice.id);
    expect((await conn.client.closed).code).toBe(4014);
    // Her token is dead with the call: a new voice connection is refused.
    const again = await RawVoiceClient.connect(emu.voice.endpoint);
    again.send(0, {
      server_id: lobbyId,
      user_id: alice.id,
      session_id: 'x',
      token: 'y',
      max_dave_protocol_version: 1,
    });
    expect((await again.closed).code).toBe(4011);
  });

  it('LOBBY_UPDATE carries the voice states; malformed op 17 / op 4 payloads close the gateway with 4002', async () => {
    const { emu, alice, bob } = await world();
    const lobbyId = await lobbyWith(emu, [alice, bob]);
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();
    await joinCall(aliceGw, alice.id, lobbyId, { selfDeaf: true });
    const patched = await call(emu, `Bot ${emu.botToken}`, 'PATCH', `/lobbies/${lobbyId}`, {
      metadata: { map: 'dock' },
    });
    expect(patched.status).toBe(200);
    const update = await nextWhere(bobGw, 'LOBBY_UPDATE', (d) => d.id === lobbyId);
    expect(update.voice_states).toEqual([
      expect.objectContaining({ user_id: alice.id, lobby_id: lobbyId, self_deaf: true }),
    ]);

    bobGw.send(17, { lobby_id: lobbyId });
    expect((await bobGw.closed).code).toBe(4002);
    aliceGw.send(4, { guild_id: 5, channel_id: lobbyId });
    expect((await aliceGw.closed).code).toBe(4002);
  });
});
