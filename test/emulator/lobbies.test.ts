import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { TestGateway } from './helpers.js';
import {
  type BotAndThree,
  botAndThree,
  call,
  closeAfterEach,
  data,
  disconnect,
  loggedEmulator,
  nextWhere,
  pendingEvents,
  player,
  until,
} from './lobbyHelpers.js';

const { running } = closeAfterEach();

/** A fresh emulator with alice, bob and carol signed in, and every log line it wrote. */
async function world(): Promise<BotAndThree & { emu: Emulator; logs: string[] }> {
  const { emu, logs } = await loggedEmulator(running, { users: 3 });
  return { emu, ...(await botAndThree(emu)), logs };
}

const members = (lobby: Record<string, unknown>): Record<string, unknown>[] =>
  lobby.members as Record<string, unknown>[];

describe('lobbies: create or join by secret (SDK side)', () => {
  it('one secret is one lobby; joining, metadata overwrite and leaving reach the right users', async () => {
    const { emu, alice, bob, logs } = await world();
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();

    const created = await call(emu, alice.auth, 'PUT', '/lobbies', {
      secret: 'harbour-secret',
      lobby_metadata: { map: 'harbour' },
      member_metadata: { role: 'host' },
    });
    expect(created.status).toBe(200);
    const lobbyId = String(created.json.id);
    expect(created.json).toEqual({
      id: lobbyId,
      application_id: emu.applicationId,
      metadata: { map: 'harbour' },
      members: [
        {
          id: alice.id,
          metadata: { role: 'host' },
          flags: 0,
          additional_name: null,
          connected: true,
          user: expect.objectContaining({ id: alice.id, username: 'alice' }) as unknown,
        },
      ],
      linked_channel: null,
      flags: 0,
    });
    const aliceCreate = data(await aliceGw.dispatch('LOBBY_CREATE'));
    expect(aliceCreate).toMatchObject({ id: lobbyId, voice_states: [] });

    const joined = await call(emu, bob.auth, 'PUT', '/lobbies', {
      secret: 'harbour-secret',
      member_metadata: { role: 'guest' },
    });
    expect(joined.status).toBe(200);
    expect(joined.json.id).toBe(lobbyId);
    expect(members(joined.json).map((m) => m.id)).toEqual([alice.id, bob.id]);
    // The joiner gets the whole lobby; the others learn of the new member.
    const bobCreate = data(await bobGw.dispatch('LOBBY_CREATE'));
    expect(members(bobCreate).map((m) => m.id)).toEqual([alice.id, bob.id]);
    expect(data(await aliceGw.dispatch('LOBBY_MEMBER_ADD'))).toMatchObject({
      lobby_id: lobbyId,
      application_id: emu.applicationId,
      member: { id: bob.id, metadata: { role: 'guest' }, connected: true, user: { username: 'bob' } },
    });

    // Lobby metadata given again replaces it for everyone; omitted member metadata is kept.
    const again = await call(emu, bob.auth, 'PUT', '/lobbies', {
      secret: 'harbour-secret',
      lobby_metadata: { mode: 'night' },
    });
    expect(again.json.metadata).toEqual({ mode: 'night' });
    expect(members(again.json).find((m) => m.id === bob.id)?.metadata).toEqual({ role: 'guest' });
    for (const gw of [aliceGw, bobGw]) {
      expect(data(await gw.dispatch('LOBBY_UPDATE'))).toMatchObject({
        id: lobbyId,
        metadata: { mode: 'night' },
      });
    }
    // New member metadata of a member already in is a member update to all.
    await call(emu, bob.auth, 'PUT', '/lobbies', {
      secret: 'harbour-secret',
      member_metadata: { ready: 'yes' },
    });
    for (const gw of [aliceGw, bobGw]) {
      expect(data(await gw.dispatch('LOBBY_MEMBER_UPDATE'))).toMatchObject({
        member: { id: bob.id, metadata: { ready: 'yes' } },
      });
    }

    // Leaving: the leaver gets LOBBY_DELETE "removed", the rest LOBBY_MEMBER_REMOVE.
    expect((await call(emu, bob.auth, 'DELETE', `/lobbies/${lobbyId}/members/@me`)).status).toBe(204);
    expect(data(await bobGw.dispatch('LOBBY_DELETE'))).toEqual({ id: lobbyId, reason: 'removed' });
    expect(data(await aliceGw.dispatch('LOBBY_MEMBER_REMOVE'))).toMatchObject({
      lobby_id: lobbyId,
      member: { id: bob.id },
    });
    expect(pendingEvents(bobGw)).not.toContain('LOBBY_MEMBER_REMOVE');
    // Leaving again (no longer a member) is fine.
    expect((await call(emu, bob.auth, 'DELETE', `/lobbies/${lobbyId}/members/@me`)).status).toBe(204);

    // Another secret is another lobby.
    const other = await call(emu, bob.auth, 'PUT', '/lobbies', { secret: 'other-secret' });
    expect(other.json.id).not.toBe(lobbyId);

    // A lobby a player made goes as soon as its last member leaves.
    expect((await call(emu, alice.auth, 'DELETE', `/lobbies/${lobbyId}/members/@me`)).status).toBe(204);
    expect(emu.lobbies().map((l) => l.id)).toEqual([other.json.id]);
    expect((await call(emu, `Bot ${emu.botToken}`, 'GET', `/lobbies/${lobbyId}`)).json).toMatchObject({
      code: 10031,
    });

    // Secrets never reach the log.
    expect(logs.some((line) => line.includes('lobbies'))).toBe(true);
    expect(logs.filter((line) => line.includes('harbour-secret') || line.includes('other-secret'))).toEqual(
      [],
    );
  });

  it('READY lists the lobbies of the user, and connected follows gateway sessions', async () => {
    const { emu, alice, bob } = await world();
    const lobby = await call(emu, alice.auth, 'PUT', '/lobbies', { secret: 's' });
    await call(emu, bob.auth, 'PUT', '/lobbies', { secret: 's' });
    const lobbyId = String(lobby.json.id);
    // Nobody is connected yet.
    expect(emu.lobbies()[0]?.members.map((m) => m.connected)).toEqual([false, false]);

    const { gw: aliceGw, ready } = await alice.connect();
    const lobbies = ready.lobbies as Record<string, unknown>[];
    expect(lobbies).toHaveLength(1);
    expect(lobbies[0]).toMatchObject({ id: lobbyId, voice_states: [], linked_channel: null });
    expect(members(lobbies[0] ?? {}).map((m) => [m.id, m.connected])).toEqual([
      [alice.id, true],
      [bob.id, false],
    ]);

    const { gw: bobGw, ready: bobReady } = await bob.connect();
    expect((bobReady.lobbies as unknown[]).length).toBe(1);
    expect(
      await nextWhere(aliceGw, 'LOBBY_MEMBER_UPDATE', (d) => (d.member as { id: string }).id === bob.id),
    ).toMatchObject({ lobby_id: lobbyId, member: { id: bob.id, connected: true } });

    // A second session of Bob changes nothing; the last one ending does.
    const { gw: bobGw2 } = await bob.connect();
    await disconnect(emu, bobGw, bob.id);
    await disconnect(emu, bobGw2, bob.id);
    const updates: Record<string, unknown>[] = [];
    for (;;) {
      const d = await nextWhere(
        aliceGw,
        'LOBBY_MEMBER_UPDATE',
        (x) => (x.member as { id: string }).id === bob.id,
      );
      updates.push(d);
      if ((d.member as { connected: unknown }).connected === false) break;
    }
    expect(updates).toHaveLength(1);
    expect(emu.lobbies()[0]?.members.map((m) => m.connected)).toEqual([true, false]);
  });

  it('a dropped member is offline until the resume, and an abandoned session keeps no lobby alive', async () => {
    const { emu, bot, alice, bob } = await world();
    const lobbyId = String(
      (
        await call(emu, bot, 'POST', '/lobbies', {
          members: [{ id: alice.id }, { id: bob.id }],
          idle_timeout_seconds: 5,
        })
      ).json.id,
    );
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw, ready } = await bob.connect();
    const bobUpdate = (connected: boolean): Promise<Record<string, unknown>> =>
      nextWhere(aliceGw, 'LOBBY_MEMBER_UPDATE', (d) => {
        const member = d.member as { id: string; connected: boolean };
        return member.id === bob.id && member.connected === connected;
      });
    await bobUpdate(true);

    emu.dropGatewayConnections(bob.id);
    await bobGw.closed;
    expect(await bobUpdate(false)).toMatchObject({ lobby_id: lobbyId });
    expect(emu.gatewaySessions(bob.id)).toMatchObject([{ connected: false }]);

    // Bob resumes his session: online again, and he gets what he missed.
    const resumed = await TestGateway.connect(emu);
    await resumed.next((p) => p.op === 10);
    resumed.send(6, { token: bob.auth, session_id: ready.session_id, seq: 0 });
    await resumed.dispatch('RESUMED');
    expect(await bobUpdate(true)).toMatchObject({ member: { id: bob.id, connected: true } });

    // Alice leaves for good; Bob's socket drops and he never comes back: the lobby expires although his
    // session could still be resumed.
    await disconnect(emu, aliceGw, alice.id);
    emu.dropGatewayConnections(bob.id);
    await resumed.closed;
    await until(() => emu.lobbies()[0]?.members.every((m) => !m.connected) === true, 'both offline');
    expect(emu.gatewaySessions(bob.id)).toHaveLength(1);
    emu.advanceTime(6_000);
    expect(emu.lobbies()).toEqual([]);
    // Had he come back, the resume would have told him.
    const late = await TestGateway.connect(emu);
    await late.next((p) => p.op === 10);
    late.send(6, { token: bob.auth, session_id: ready.session_id, seq: 0 });
    expect(data(await late.dispatch('LOBBY_DELETE'))).toEqual({ id: lobbyId, reason: 'deleted' });
    await late.dispatch('RESUMED');
  });

  it('needs a token with lobbies.write and a well-formed body', async () => {
    const { emu, alice } = await world();
    const narrow = await player(emu, 'alice', 'identify gateway.connect');
    expect((await call(emu, narrow.auth, 'PUT', '/lobbies', { secret: 's' })).json).toMatchObject({
      code: 50001,
    });
    expect((await call(emu, 'Bearer nope', 'PUT', '/lobbies', { secret: 's' })).status).toBe(401);

    const notJson = await call(emu, alice.auth, 'PUT', '/lobbies', '{"secret":');
    expect(notJson.status).toBe(400);
    expect(notJson.json).toMatchObject({ code: 50109 });
    const array = await call(emu, alice.auth, 'PUT', '/lobbies', [{ secret: 's' }]);
    expect(array.status).toBe(400);
    expect(array.json).toMatchObject({
      code: 50035,
      errors: { _root: { _errors: [{ code: 'DICT_TYPE_CONVERT' }] } },
    });
    const cases: [unknown, string][] = [
      [{}, 'secret'],
      [{ secret: 5 }, 'secret'],
      [{ secret: '' }, 'secret'],
      [{ secret: 's'.repeat(251) }, 'secret'],
      [{ secret: 's', lobby_metadata: 'map' }, 'lobby_metadata'],
      [{ secret: 's', lobby_metadata: { n: 1 } }, 'lobby_metadata'],
      [{ secret: 's', member_metadata: ['a'] }, 'member_metadata'],
      [{ secret: 's', idle_timeout_seconds: '60' }, 'idle_timeout_seconds'],
      [{ secret: 's', idle_timeout_seconds: 4 }, 'idle_timeout_seconds'],
      [{ secret: 's', idle_timeout_seconds: 604_801 }, 'idle_timeout_seconds'],
      [{ secret: 's', flags: 2 }, 'flags'],
    ];
    for (const [body, field] of cases) {
      const reply = await call(emu, alice.auth, 'PUT', '/lobbies', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json.code).toBe(50035);
      expect(Object.keys(reply.json.errors as object), JSON.stringify(body)).toEqual([field]);
    }
    // Metadata limits: 25 keys, 1000 characters of keys and values (the stricter reading of the platform's).
    const keys = (n: number): Record<string, string> =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    expect(
      (await call(emu, alice.auth, 'PUT', '/lobbies', { secret: 'a', lobby_metadata: keys(25) })).status,
    ).toBe(200);
    expect(
      (await call(emu, alice.auth, 'PUT', '/lobbies', { secret: 'b', lobby_metadata: keys(26) })).status,
    ).toBe(400);
    const exact = { k: 'x'.repeat(999) };
    expect(
      (await call(emu, alice.auth, 'PUT', '/lobbies', { secret: 'c', member_metadata: exact })).status,
    ).toBe(200);
    const over = { kk: 'x'.repeat(999) };
    expect(
      (await call(emu, alice.auth, 'PUT', '/lobbies', { secret: 'd', member_metadata: over })).status,
    ).toBe(400);
    expect(emu.lobbies()).toHaveLength(2);
  });

  it('a user is in at most 200 lobbies of the application', async () => {
    const { emu, alice, bob, bot } = await world();
    for (let i = 0; i < 200; i += 1) {
      expect((await call(emu, alice.auth, 'PUT', '/lobbies', { secret: `s${i}` })).status).toBe(200);
    }
    const refused = await call(emu, alice.auth, 'PUT', '/lobbies', { secret: 's200' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 30000 });
    // The refused creator leaves no empty lobby behind.
    expect(emu.lobbies()).toHaveLength(200);
    // Joining Bob's lobby is refused too, and her lobby metadata changes nothing.
    const bobs = await call(emu, bob.auth, 'PUT', '/lobbies', { secret: 'bobs', lobby_metadata: { a: '1' } });
    const join = await call(emu, alice.auth, 'PUT', '/lobbies', {
      secret: 'bobs',
      lobby_metadata: { a: '2' },
    });
    expect(join.json).toMatchObject({ code: 30000 });
    expect(emu.lobbies().find((l) => l.id === bobs.json.id)).toMatchObject({
      metadata: { a: '1' },
      members: [{ id: bob.id }],
    });
    // The bot adding her is refused too; in bulk the refusal is silent.
    const lobby = await call(emu, bot, 'POST', '/lobbies', {});
    const put = await call(emu, bot, 'PUT', `/lobbies/${String(lobby.json.id)}/members/${alice.id}`, {});
    expect(put.json).toMatchObject({ code: 30000 });
    const bulk = await call(emu, bot, 'POST', `/lobbies/${String(lobby.json.id)}/members/bulk`, [
      { id: alice.id },
    ]);
    expect(bulk.status).toBe(200);
    expect(bulk.json).toEqual([]);
  });
});

describe('lobbies: the game backend (bot token)', () => {
  it('creates, reads, changes and deletes lobbies; members hear about it', async () => {
    const { emu, bot, alice, bob } = await world();
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();

    const created = await call(emu, bot, 'POST', '/lobbies', {
      metadata: { kind: 'hall' },
      members: [{ id: alice.id, flags: 1, metadata: { rank: 'officer' } }],
      idle_timeout_seconds: 60,
    });
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    expect(created.json).toMatchObject({
      metadata: { kind: 'hall' },
      members: [{ id: alice.id, flags: 1, metadata: { rank: 'officer' }, additional_name: null }],
      flags: 0,
    });
    expect(data(await aliceGw.dispatch('LOBBY_CREATE'))).toMatchObject({ id, metadata: { kind: 'hall' } });
    expect((await call(emu, bot, 'GET', `/lobbies/${id}`)).json).toEqual(created.json);
    expect((await call(emu, alice.auth, 'GET', `/lobbies/${id}`)).status).toBe(401);

    const patched = await call(emu, bot, 'PATCH', `/lobbies/${id}`, {
      metadata: { kind: 'tavern' },
      flags: 1,
    });
    expect(patched.json).toMatchObject({ metadata: { kind: 'tavern' }, flags: 1 });
    expect(data(await aliceGw.dispatch('LOBBY_UPDATE'))).toMatchObject({
      id,
      metadata: { kind: 'tavern' },
      flags: 1,
    });

    // Players cannot leave a lobby the backend made.
    expect((await call(emu, alice.auth, 'DELETE', `/lobbies/${id}/members/@me`)).json).toMatchObject({
      code: 50001,
    });

    // `members` replaces the set: Alice goes, Bob comes.
    const replaced = await call(emu, bot, 'PATCH', `/lobbies/${id}`, { members: [{ id: bob.id }] });
    expect(members(replaced.json).map((m) => m.id)).toEqual([bob.id]);
    expect(data(await aliceGw.dispatch('LOBBY_DELETE'))).toEqual({ id, reason: 'removed' });
    expect(data(await bobGw.dispatch('LOBBY_CREATE'))).toMatchObject({ id, members: [{ id: bob.id }] });

    expect((await call(emu, bot, 'DELETE', `/lobbies/${id}`)).status).toBe(204);
    expect(data(await bobGw.dispatch('LOBBY_DELETE'))).toEqual({ id, reason: 'deleted' });
    const gone = await call(emu, bot, 'GET', `/lobbies/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ message: 'Unknown Lobby', code: 10031 });
    expect((await call(emu, bot, 'DELETE', `/lobbies/${id}`)).status).toBe(204);
    expect((await call(emu, bot, 'PATCH', `/lobbies/${id}`, {})).status).toBe(404);

    // The bot's PUT /lobbies creates by secret without becoming a member; players then join by it.
    const bySecret = await call(emu, bot, 'PUT', '/lobbies', {
      secret: 'backend',
      lobby_metadata: { a: 'b' },
    });
    expect(bySecret.json).toMatchObject({ members: [], metadata: { a: 'b' } });
    expect((await call(emu, alice.auth, 'PUT', '/lobbies', { secret: 'backend' })).json.id).toBe(
      bySecret.json.id,
    );
    expect((await call(emu, bot, 'POST', '/lobbies', { members: [{ id: '123' }] })).json).toMatchObject({
      code: 10013,
    });
    expect((await call(emu, bot, 'POST', '/lobbies', { members: [{ id: 'x' }] })).json).toMatchObject({
      code: 50035,
      errors: { members: { 0: { id: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } } } },
    });
  });

  it('a lobby holds at most 1000 members', async () => {
    const { emu, bot, alice } = await world();
    const { gw } = await alice.connect();
    const id = String((await call(emu, bot, 'POST', '/lobbies', { members: [{ id: alice.id }] })).json.id);
    const others = Array.from({ length: 1000 }, (_, i) => emu.createUser({ username: `member${i}` }).id);
    for (let i = 0; i < 999; i += 25) {
      const chunk = others.slice(i, Math.min(i + 25, 999)).map((userId) => ({ id: userId }));
      expect((await call(emu, bot, 'POST', `/lobbies/${id}/members/bulk`, chunk)).status).toBe(200);
    }
    expect(emu.lobbies()[0]?.members).toHaveLength(1000);
    const last = others[999] ?? '';
    const refused = await call(emu, bot, 'PUT', `/lobbies/${id}/members/${last}`, {});
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 30000 });
    expect((await call(emu, bot, 'POST', `/lobbies/${id}/members/bulk`, [{ id: last }])).json).toEqual([]);
    // Members already in may still be changed.
    expect((await call(emu, bot, 'PUT', `/lobbies/${id}/members/${alice.id}`, { flags: 1 })).status).toBe(
      200,
    );
    expect(
      await nextWhere(gw, 'LOBBY_MEMBER_UPDATE', (d) => (d.member as { id: string }).id === alice.id),
    ).toMatchObject({ member: { flags: 1 } });
  });

  it('adds and updates a member with an additional name: set, kept when omitted, cleared with null', async () => {
    const { emu, bot, alice, bob } = await world();
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();
    const id = String((await call(emu, bot, 'POST', '/lobbies', { members: [{ id: alice.id }] })).json.id);
    await aliceGw.dispatch('LOBBY_CREATE');
    const path = `/lobbies/${id}/members/${bob.id}`;

    const added = await call(emu, bot, 'PUT', path, {
      additional_name: 'Sir Robin',
      metadata: { class: 'knight' },
    });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({
      id: bob.id,
      additional_name: 'Sir Robin',
      metadata: { class: 'knight' },
      flags: 0,
      connected: true,
    });
    expect(data(await bobGw.dispatch('LOBBY_CREATE'))).toMatchObject({ id });
    expect(data(await aliceGw.dispatch('LOBBY_MEMBER_ADD'))).toMatchObject({
      member: { id: bob.id, additional_name: 'Sir Robin' },
    });

    const kept = await call(emu, bot, 'PUT', path, { flags: 1 });
    expect(kept.json).toMatchObject({
      additional_name: 'Sir Robin',
      flags: 1,
      metadata: { class: 'knight' },
    });
    for (const gw of [aliceGw, bobGw]) {
      expect(data(await gw.dispatch('LOBBY_MEMBER_UPDATE'))).toMatchObject({
        lobby_id: id,
        member: { id: bob.id, flags: 1, additional_name: 'Sir Robin' },
      });
    }
    expect((await call(emu, bot, 'PUT', path, { additional_name: null })).json.additional_name).toBeNull();
    expect(data(await aliceGw.dispatch('LOBBY_MEMBER_UPDATE'))).toMatchObject({
      member: { id: bob.id, additional_name: null },
    });

    const tooLong = await call(emu, bot, 'PUT', path, { additional_name: 'x'.repeat(81) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json).toMatchObject({
      code: 50035,
      errors: { additional_name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH' }] } },
    });
    expect((await call(emu, bot, 'PUT', path, { additional_name: 'x'.repeat(80) })).status).toBe(200);
    expect((await call(emu, bot, 'PUT', path, { additional_name: '' })).status).toBe(400);
    expect((await call(emu, bot, 'PUT', path, { additional_name: 7 })).status).toBe(400);
    expect((await call(emu, bot, 'PUT', path, { flags: 2 })).status).toBe(400);
    expect((await call(emu, bot, 'PUT', path, [])).status).toBe(400);
    expect((await call(emu, bot, 'PUT', `/lobbies/${id}/members/999`, {})).json).toMatchObject({
      code: 10013,
    });
    expect(
      (await call(emu, bot, 'PUT', `/lobbies/${id}/members/${emu.applicationId}`, {})).json,
    ).toMatchObject({
      code: 10013,
    });
    expect((await call(emu, bot, 'PUT', `/lobbies/1/members/${bob.id}`, {})).json).toMatchObject({
      code: 10031,
    });
    expect((await call(emu, bob.auth, 'PUT', path, {})).status).toBe(401);

    expect((await call(emu, bot, 'DELETE', path)).status).toBe(204);
    expect(data(await bobGw.dispatch('LOBBY_DELETE'))).toEqual({ id, reason: 'removed' });
    expect(data(await aliceGw.dispatch('LOBBY_MEMBER_REMOVE'))).toMatchObject({ member: { id: bob.id } });
    expect((await call(emu, bot, 'DELETE', path)).status).toBe(204);
    expect((await call(emu, bot, 'DELETE', `/lobbies/1/members/${bob.id}`)).status).toBe(404);
    // A lobby the backend made stays when empty.
    expect((await call(emu, bot, 'DELETE', `/lobbies/${id}/members/${alice.id}`)).status).toBe(204);
    expect(emu.lobbies().map((l) => [l.id, l.members.length])).toEqual([[id, 0]]);
  });

  it('bulk: up to 25 changes; a 26th is refused with the platform error; unknown users change nothing', async () => {
    const { emu, bot, alice, bob, carol } = await world();
    const { gw: aliceGw } = await alice.connect();
    const id = String((await call(emu, bot, 'POST', '/lobbies', { members: [{ id: alice.id }] })).json.id);
    await aliceGw.dispatch('LOBBY_CREATE');
    const bulk = `/lobbies/${id}/members/bulk`;

    const changes = [
      { id: bob.id, additional_name: 'Squire', metadata: { a: '1' } },
      { id: alice.id, flags: 1 },
      ...Array.from({ length: 23 }, () => ({ id: carol.id })),
    ];
    const ok = await call(emu, bot, 'POST', bulk, changes);
    expect(ok.status).toBe(200);
    expect(ok.json.map((m) => (m as { id: string }).id)).toEqual([bob.id, alice.id, carol.id]);
    expect(ok.json[0]).toMatchObject({ additional_name: 'Squire', metadata: { a: '1' } });
    expect(emu.lobbies()[0]?.members.map((m) => [m.id, m.flags])).toEqual([
      [alice.id, 1],
      [bob.id, 0],
      [carol.id, 0],
    ]);
    expect(data(await aliceGw.dispatch('LOBBY_MEMBER_ADD'))).toMatchObject({ member: { id: bob.id } });
    expect(data(await aliceGw.dispatch('LOBBY_MEMBER_UPDATE'))).toMatchObject({
      member: { id: alice.id, flags: 1 },
    });

    const tooMany = await call(
      emu,
      bot,
      'POST',
      bulk,
      Array.from({ length: 26 }, () => ({ id: bob.id })),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        _root: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' }] },
      },
    });

    const unknown = await call(emu, bot, 'POST', bulk, [{ id: bob.id, remove_member: true }, { id: '999' }]);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 10013 });
    expect(emu.lobbies()[0]?.members).toHaveLength(3);

    const removed = await call(emu, bot, 'POST', bulk, [
      { id: bob.id, remove_member: true },
      { id: carol.id, remove_member: true },
    ]);
    expect(removed.json).toEqual([]);
    expect(emu.lobbies()[0]?.members.map((m) => m.id)).toEqual([alice.id]);

    for (const body of [
      { id: bob.id },
      [],
      [5],
      [{ id: bob.id, remove_member: 'yes' }],
      [{ id: bob.id, metadata: 'x' }],
    ]) {
      const reply = await call(emu, bot, 'POST', bulk, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json.code).toBe(50035);
    }
    const nested = await call(emu, bot, 'POST', bulk, [{ id: bob.id }, { id: bob.id, additional_name: '' }]);
    expect(nested.json.errors).toEqual({
      1: {
        additional_name: {
          _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 80 in length.' }],
        },
      },
    });
    expect((await call(emu, alice.auth, 'POST', bulk, [{ id: bob.id }])).status).toBe(401);
    expect((await call(emu, bot, 'POST', '/lobbies/1/members/bulk', [{ id: bob.id }])).status).toBe(404);
  });
});

describe('lobby messages', () => {
  async function chat(): Promise<
    Awaited<ReturnType<typeof world>> & { lobbyId: string; aliceGw: TestGateway; bobGw: TestGateway }
  > {
    const w = await world();
    const { gw: aliceGw } = await w.alice.connect();
    const { gw: bobGw } = await w.bob.connect();
    const lobbyId = String((await call(w.emu, w.alice.auth, 'PUT', '/lobbies', { secret: 'chat' })).json.id);
    await call(w.emu, w.bob.auth, 'PUT', '/lobbies', { secret: 'chat' });
    return { ...w, lobbyId, aliceGw, bobGw };
  }

  it('members post and read; everyone in the lobby gets the message with the additional name', async () => {
    const { emu, bot, alice, bob, carol, lobbyId, aliceGw, bobGw } = await chat();
    await call(emu, bot, 'PUT', `/lobbies/${lobbyId}/members/${bob.id}`, { additional_name: 'Sir Robin' });

    const sent = await call(emu, bob.auth, 'POST', `/lobbies/${lobbyId}/messages`, {
      content: 'hello',
      metadata: { team: 'blue' },
    });
    expect(sent.status).toBe(201);
    expect(sent.json).toEqual({
      id: expect.any(String) as unknown,
      type: 0,
      content: 'hello',
      lobby_id: lobbyId,
      channel_id: lobbyId,
      author: expect.objectContaining({ id: bob.id, username: 'bob' }) as unknown,
      timestamp: expect.any(String) as unknown,
      edited_timestamp: null,
      metadata: { team: 'blue' },
      moderation_metadata: {},
      flags: 1 << 16,
      application_id: emu.applicationId,
      additional_name: 'Sir Robin',
    });
    for (const gw of [aliceGw, bobGw]) {
      expect(data(await gw.dispatch('LOBBY_MESSAGE_CREATE'))).toEqual(sent.json);
    }

    // The backend posts as the application and reads any lobby.
    const fromBot = await call(emu, bot, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'welcome' });
    expect(fromBot.json).toMatchObject({ author: { id: emu.applicationId, bot: true }, flags: 1 << 16 });
    const history = await call(emu, alice.auth, 'GET', `/lobbies/${lobbyId}/messages`);
    expect(history.json.map((m) => (m as { content: string }).content)).toEqual(['welcome', 'hello']);
    expect((await call(emu, bot, 'GET', `/lobbies/${lobbyId}/messages?limit=1`)).json).toHaveLength(1);

    // Non-members may neither read nor write.
    const refused = await call(emu, carol.auth, 'GET', `/lobbies/${lobbyId}/messages`);
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ message: 'Missing Access', code: 50001 });
    expect(
      (await call(emu, carol.auth, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'hi' })).status,
    ).toBe(403);
    expect((await call(emu, carol.auth, 'GET', '/lobbies/1/messages')).json).toMatchObject({ code: 10031 });

    for (const body of [{ content: '' }, { content: 'x'.repeat(2001) }, { content: 5 }, {}, ['hi']]) {
      const reply = await call(emu, bob.auth, 'POST', `/lobbies/${lobbyId}/messages`, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json.code).toBe(50035);
    }
    expect(
      (await call(emu, bob.auth, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'x'.repeat(2000) }))
        .status,
    ).toBe(201);
    const tooMuch = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v']));
    expect(
      (await call(emu, bob.auth, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'a', metadata: tooMuch }))
        .json,
    ).toMatchObject({ code: 50035, errors: { metadata: {} } });
    for (const limit of ['0', '201', 'ten']) {
      expect((await call(emu, alice.auth, 'GET', `/lobbies/${lobbyId}/messages?limit=${limit}`)).status).toBe(
        400,
      );
    }
    expect(emu.lobbyMessages(lobbyId).map((m) => m.content)).toEqual(['x'.repeat(2000), 'welcome', 'hello']);
  });

  it('history: newest first, at most 200, at most 72 hours old by the emulator clock', async () => {
    const { emu, bot, alice, lobbyId } = await chat();
    await call(emu, bot, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'old' });
    emu.advanceTime(73 * 60 * 60_000);
    for (let i = 0; i < 205; i += 1) {
      await call(emu, bot, 'POST', `/lobbies/${lobbyId}/messages`, { content: `m${i}` });
    }
    const all = await call(emu, alice.auth, 'GET', `/lobbies/${lobbyId}/messages?limit=200`);
    expect(all.json).toHaveLength(200);
    expect((all.json[0] as { content: string }).content).toBe('m204');
    expect((all.json[199] as { content: string }).content).toBe('m5');
    const five = await call(emu, alice.auth, 'GET', `/lobbies/${lobbyId}/messages?limit=5`);
    expect(five.json.map((m) => (m as { content: string }).content)).toEqual([
      'm204',
      'm203',
      'm202',
      'm201',
      'm200',
    ]);
    // The default is 50; the 73-hour-old message is kept but never served.
    expect((await call(emu, alice.auth, 'GET', `/lobbies/${lobbyId}/messages`)).json).toHaveLength(50);
    expect(emu.lobbyMessages(lobbyId)).toHaveLength(206);
    const timestamp = Date.parse((all.json[0] as { timestamp: string }).timestamp);
    expect(timestamp).toBeGreaterThan(Date.now() + 72 * 60 * 60_000);
  });

  it('moderation metadata: the backend only; members get LOBBY_MESSAGE_UPDATE', async () => {
    const { emu, bot, alice, bob, lobbyId, aliceGw, bobGw } = await chat();
    const sent = await call(emu, bob.auth, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'maybe rude' });
    const messageId = String(sent.json.id);
    const path = `/lobbies/${lobbyId}/messages/${messageId}/moderation-metadata`;

    expect((await call(emu, alice.auth, 'PUT', path, { verdict: 'x' })).status).toBe(401);
    expect((await call(emu, bot, 'PUT', path, { verdict: 'clean', score: '0.1' })).status).toBe(204);
    for (const gw of [aliceGw, bobGw]) {
      expect(await nextWhere(gw, 'LOBBY_MESSAGE_UPDATE', (d) => d.id === messageId)).toMatchObject({
        content: 'maybe rude',
        moderation_metadata: { verdict: 'clean', score: '0.1' },
      });
    }
    const read = await call(emu, alice.auth, 'GET', `/lobbies/${lobbyId}/messages`);
    expect(read.json[0]).toMatchObject({
      id: messageId,
      moderation_metadata: { verdict: 'clean', score: '0.1' },
    });

    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v']));
    expect((await call(emu, bot, 'PUT', path, six)).status).toBe(400);
    expect((await call(emu, bot, 'PUT', path, { k: 'x'.repeat(2000) })).status).toBe(400);
    expect((await call(emu, bot, 'PUT', path, { k: 1 })).status).toBe(400);
    expect((await call(emu, bot, 'PUT', path, ['a'])).status).toBe(400);
    expect(
      (await call(emu, bot, 'PUT', `/lobbies/${lobbyId}/messages/123/moderation-metadata`, {})).json,
    ).toMatchObject({ code: 10008 });

    // The admin hook deletes a message: LOBBY_MESSAGE_DELETE to members.
    emu.deleteLobbyMessage(lobbyId, messageId);
    expect(data(await bobGw.dispatch('LOBBY_MESSAGE_DELETE'))).toEqual({ id: messageId, lobby_id: lobbyId });
    expect(emu.lobbyMessages(lobbyId)).toEqual([]);
  });
});

describe('lobby idle expiry', () => {
  it('deletes a lobby once its members have had no gateway session for its idle timeout', async () => {
    const { emu, bot, alice, bob } = await world();
    const idle = String(
      (await call(emu, bot, 'POST', '/lobbies', { members: [{ id: alice.id }], idle_timeout_seconds: 5 }))
        .json.id,
    );
    const lasting = String((await call(emu, alice.auth, 'PUT', '/lobbies', { secret: 'long' })).json.id);

    // While Alice is connected, time does not count.
    const { gw } = await alice.connect();
    emu.advanceTime(60_000);
    expect(emu.lobbies().map((l) => l.id)).toEqual([idle, lasting]);
    await disconnect(emu, gw, alice.id);

    emu.advanceTime(4_000);
    expect(emu.lobbies().map((l) => l.id)).toEqual([idle, lasting]);
    emu.advanceTime(2_000);
    expect(emu.lobbies().map((l) => l.id)).toEqual([lasting]);
    expect((await call(emu, bot, 'GET', `/lobbies/${idle}`)).json).toMatchObject({ code: 10031 });
    // The default timeout is 300 s.
    emu.advanceTime(290_000);
    expect(emu.lobbies().map((l) => l.id)).toEqual([lasting]);
    emu.advanceTime(4_000);
    expect(emu.lobbies()).toEqual([]);

    // An idle timeout can be changed later; the bot's empty lobby expires too.
    const empty = String((await call(emu, bot, 'POST', '/lobbies', {})).json.id);
    expect((await call(emu, bot, 'PATCH', `/lobbies/${empty}`, { idle_timeout_seconds: 600 })).status).toBe(
      200,
    );
    emu.advanceTime(300_000);
    expect(emu.lobbies().map((l) => l.id)).toEqual([empty]);
    emu.advanceTime(300_000);
    expect(emu.lobbies()).toEqual([]);

    // A connected member keeps the lobby; READY after a new sign-in no longer lists an expired one.
    const kept = String(
      (await call(emu, bot, 'POST', '/lobbies', { members: [{ id: bob.id }], idle_timeout_seconds: 5 })).json
        .id,
    );
    const { gw: bobGw, ready } = await bob.connect();
    expect((ready.lobbies as { id: string }[]).map((l) => l.id)).toEqual([kept]);
    emu.advanceTime(10_000);
    expect(emu.lobbies().map((l) => l.id)).toEqual([kept]);
    await disconnect(emu, bobGw, bob.id);
    emu.advanceTime(5_000);
    const { ready: later } = await bob.connect();
    expect(later.lobbies).toEqual([]);
    expect(() => {
      emu.advanceTime(-1);
    }).toThrow(RangeError);
  });
});
