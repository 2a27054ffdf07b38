import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { signIn, TestGateway } from './helpers.js';
import { call, data } from './lobbyHelpers.js';

/** An API call with `token` as the Bearer token. */
const api = (emu: Emulator, token: string, method: string, path: string, body?: unknown) =>
  call<unknown>(emu, `Bearer ${token}`, method, path, body);

describe('relationships and presence', () => {
  let emu: Emulator;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true, users: 4 });
    for (const user of emu.users) {
      id[user.username] = user.id;
      token[user.username] = (await signIn(emu, user.username)).access_token;
    }
  });
  afterAll(async () => {
    await emu.close();
  });

  it('request by username, accept by id: both sides get RELATIONSHIP_ADD with the right types', async () => {
    const alice = await TestGateway.connect(emu);
    await alice.identify(`Bearer ${token.alice ?? ''}`);
    const bob = await TestGateway.connect(emu);
    await bob.identify(`Bearer ${token.bob ?? ''}`);

    expect(
      (await api(emu, token.alice ?? '', 'POST', '/users/@me/relationships', { username: 'bob' })).status,
    ).toBe(204);
    expect(data(await alice.dispatch('RELATIONSHIP_ADD'))).toMatchObject({ id: id.bob, type: 4 });
    expect(data(await bob.dispatch('RELATIONSHIP_ADD'))).toMatchObject({
      id: id.alice,
      type: 3,
      should_notify: true,
      user: { username: 'alice' },
    });

    expect(
      (await api(emu, token.bob ?? '', 'PUT', `/users/@me/relationships/${id.alice ?? ''}`, {})).status,
    ).toBe(204);
    expect(data(await alice.dispatch('RELATIONSHIP_ADD'))).toMatchObject({ id: id.bob, type: 1 });
    expect(data(await bob.dispatch('RELATIONSHIP_ADD'))).toMatchObject({ id: id.alice, type: 1 });
    // New friends learn each other's presence at once.
    expect(data(await alice.dispatch('PRESENCE_UPDATE'))).toMatchObject({
      user: { id: id.bob },
      status: 'online',
    });

    const list = await api(emu, token.alice ?? '', 'GET', '/users/@me/relationships');
    expect(list.json).toEqual([expect.objectContaining({ id: id.bob, type: 1 })]);

    // Presence fans out to friends, without secrets, with the join flag.
    alice.send(3, {
      since: null,
      afk: false,
      status: 'online',
      activities: [
        {
          name: 'Game',
          type: 0,
          state: 'In a party',
          party: { id: 'p1', size: [1, 4], privacy: 1 },
          secrets: { join: 'hidden' },
        },
      ],
    });
    const update = data(
      await bob.next((p) => p.t === 'PRESENCE_UPDATE' && (data(p).activities as unknown[]).length > 0),
    );
    expect(update).toMatchObject({ user: { id: id.alice }, status: 'online' });
    const [activity] = update.activities as Record<string, unknown>[];
    expect(activity).toMatchObject({ name: 'Game', state: 'In a party', application_id: emu.applicationId });
    expect(activity).not.toHaveProperty('secrets');
    expect((activity?.flags as number) & 0b11000010).toBe(0b11000010);
    expect(emu.presenceOf('alice').activities[0]).toMatchObject({ secrets: { join: 'hidden' } });

    // READY of a new session carries the friend, their user and presence.
    const again = await TestGateway.connect(emu);
    const ready = data(await again.identify(`Bearer ${token.bob ?? ''}`));
    expect(ready.relationships).toEqual([expect.objectContaining({ id: id.alice, type: 1 })]);
    expect(ready.presences).toEqual([expect.objectContaining({ user: { id: id.alice }, status: 'online' })]);
    again.ws.close();

    // The friend goes offline when their last session ends.
    alice.ws.close(1000);
    await expect
      .poll(() => bob.pending().some((p) => p.t === 'PRESENCE_UPDATE' && data(p).status === 'offline'))
      .toBe(true);
    bob.ws.close();
  });

  it('refuses requests to yourself, to unknown names, to friends and between blocked users', async () => {
    const carol = token.carol ?? '';
    expect(
      (await api(emu, carol, 'POST', '/users/@me/relationships', { username: 'carol' })).json,
    ).toMatchObject({ code: 80003 });
    expect(
      (await api(emu, carol, 'POST', '/users/@me/relationships', { username: 'nobody_here' })).json,
    ).toMatchObject({ code: 80004 });
    expect((await api(emu, carol, 'POST', '/users/@me/relationships', {})).status).toBe(400);
    expect((await api(emu, carol, 'PUT', '/users/@me/relationships/123', {})).json).toMatchObject({
      code: 10013,
    });

    emu.befriend('carol', 'dave');
    expect(
      (await api(emu, carol, 'POST', '/users/@me/relationships', { username: 'dave' })).json,
    ).toMatchObject({ code: 80007 });

    // Blocking ends the friendship on both sides; the blocked user can't send a request.
    expect(
      (await api(emu, carol, 'PUT', `/users/@me/relationships/${id.dave ?? ''}`, { type: 2 })).status,
    ).toBe(204);
    expect(emu.relationshipsOf('carol').discord).toEqual([{ id: id.dave, type: 2 }]);
    expect(emu.relationshipsOf('dave').discord).toEqual([]);
    expect(
      (await api(emu, token.dave ?? '', 'POST', '/users/@me/relationships', { username: 'carol' })).json,
    ).toMatchObject({ code: 80001 });
    // Unblock is a DELETE of the block.
    expect((await api(emu, carol, 'DELETE', `/users/@me/relationships/${id.dave ?? ''}`)).status).toBe(204);
    expect(emu.relationshipsOf('carol').discord).toEqual([]);
    expect((await api(emu, carol, 'DELETE', `/users/@me/relationships/${id.dave ?? ''}`)).status).toBe(404);
  });

  it('keeps game relationships apart, and cancels and rejects requests', async () => {
    const carol = token.carol ?? '';
    const dave = token.dave ?? '';
    expect(
      (await api(emu, carol, 'POST', '/users/@me/game-relationships', { username: 'dave' })).status,
    ).toBe(204);
    expect(emu.relationshipsOf('dave').game).toEqual([{ id: id.carol, type: 3 }]);
    expect(emu.relationshipsOf('dave').discord).toEqual([]);
    // Cancel (the sender deletes), then request again and reject (the receiver deletes).
    expect((await api(emu, carol, 'DELETE', `/users/@me/game-relationships/${id.dave ?? ''}`)).status).toBe(
      204,
    );
    expect(emu.relationshipsOf('dave').game).toEqual([]);
    await api(emu, carol, 'POST', '/users/@me/game-relationships', { username: 'dave' });
    expect((await api(emu, dave, 'DELETE', `/users/@me/game-relationships/${id.carol ?? ''}`)).status).toBe(
      204,
    );
    expect(emu.relationshipsOf('carol').game).toEqual([]);
    // Game relationships have no block.
    await api(emu, carol, 'PUT', `/users/@me/game-relationships/${id.dave ?? ''}`, {});
    await api(emu, dave, 'PUT', `/users/@me/game-relationships/${id.carol ?? ''}`, {});
    expect(emu.relationshipsOf('carol').game).toEqual([{ id: id.dave, type: 1 }]);
  });

  it('needs the relationships scopes and a valid presence payload', async () => {
    const narrow = (await signIn(emu, 'alice', 'identify gateway.connect')).access_token;
    expect((await api(emu, narrow, 'GET', '/users/@me/relationships')).status).toBe(403);
    const gw = await TestGateway.connect(emu);
    await gw.identify(`Bearer ${narrow}`);
    gw.send(3, { status: 'online', activities: [{ name: '', type: 0 }] });
    expect((await gw.closed).code).toBe(4002);
  });
});
