import { Common } from '@discord/embedded-app-sdk';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { closeOf, dispatchOf, HostSocket, voiceChannel, type HostMessage } from './activityHostHelpers.js';
import { call, closeAfterEach, loggedEmulator, until } from './lobbyHelpers.js';

const { running } = closeAfterEach();
const SECRET = 'activity-test-client-secret';

async function exchange(
  emu: Emulator,
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${emu.api}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: emu.applicationId, ...fields }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A player's frame, handshaken, in the seeded voice channel's instance. */
async function frameFor(emu: Emulator, user: string): Promise<HostSocket> {
  const host = await HostSocket.open(emu, emu.launchActivity({ user, channel: voiceChannel(emu) }).url);
  await host.handshake(emu);
  return host;
}

/** AUTHORIZE (approved in the modal), the code exchanged with the secret, AUTHENTICATE; returns the token. */
async function signInFrame(emu: Emulator, host: HostSocket, scope: string[]): Promise<string> {
  const authorize = host.command('AUTHORIZE', { client_id: emu.applicationId, response_type: 'code', scope });
  await host.consent(true);
  const { code } = (await authorize).data as { code: string };
  const token = await exchange(emu, { code, client_secret: SECRET });
  const accessToken = String(token.body.access_token);
  const reply = await host.command('AUTHENTICATE', { access_token: accessToken });
  expect(reply.evt).toBeNull();
  return accessToken;
}

describe('the Activity host: the desktop client around the game frame', () => {
  it('refuses a socket without a live launch, and opens the frame with the SDK query of its instance', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 2 });
    const launch = emu.launchActivity({ user: 'alice', channel: voiceChannel(emu) });
    const forged = new URL(launch.url);
    forged.searchParams.set('ticket', 'not-a-ticket');
    await expect(HostSocket.open(emu, forged.href)).rejects.toThrow('refused with 403');
    expect(logs.some((l) => l.includes('host socket refused'))).toBe(true);

    const host = await HostSocket.open(emu, launch.url);
    const place = await host.place();
    expect(place.get('instance_id')).toBe(launch.instanceId);
    expect(place.get('platform')).toBe('desktop');
    expect(place.get('channel_id')).toBe(voiceChannel(emu));
    expect(place.get('guild_id')).toBe(emu.guilds()[0]?.id);
    expect(place.get('location_id')).toBe(launch.locationId);
    expect(launch.locationId).toBe(`gc-${launch.guildId}-${launch.channelId}`);
    expect(place.get('frame_id')).toMatch(/^[0-9a-f-]{36}$/);

    // Players launching in the same channel share the instance; a private launch is its own.
    expect(emu.launchActivity({ user: 'bob', channel: voiceChannel(emu) }).instanceId).toBe(
      launch.instanceId,
    );
    // A player may have 8 frames open in one instance; a 9th socket is refused.
    const more: HostSocket[] = [];
    for (let i = 1; i < 8; i += 1) more.push(await HostSocket.open(emu, launch.url));
    await expect(HostSocket.open(emu, launch.url)).rejects.toThrow('refused with 429');
    for (const socket of [host, ...more]) socket.close();
    await Promise.all([host, ...more].map((socket) => socket.closed));
    const solo = emu.launchActivity({ user: 'bob' });
    expect(solo.instanceId).not.toBe(launch.instanceId);
    expect(solo.locationId).toBe(`pc-${emu.users[1]?.id}`);
    expect(() => emu.launchActivity({ user: 'nobody' })).toThrow(RangeError);
    // Nobody ever joined them: ten minutes on, the next launch drops them, and their links stop working.
    expect(emu.activityInstances()).toHaveLength(2);
    emu.advanceTime(10 * 60_000 + 1);
    emu.launchActivity({ user: 'alice' });
    expect(emu.activityInstances().map((i) => i.locationId)).toEqual([`pc-${emu.users[0]?.id}`]);
    await expect(HostSocket.open(emu, launch.url)).rejects.toThrow('refused with 403');
  });

  it('checks the handshake: client id (4000), version (4004), frame id and order (1003), each logged', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 2 });
    const url = (): string => emu.launchActivity({ user: 'alice', channel: voiceChannel(emu) }).url;
    const cases: [Record<string, unknown> | null, number][] = [
      [{ v: 1, client_id: '1234', frame_id: 'x' }, 4000],
      [{ v: 2, client_id: emu.applicationId }, 4004],
      [{ v: 1, client_id: emu.applicationId, frame_id: 'someone-else' }, 1003],
      [null, 1003],
    ];
    for (const [handshake, code] of cases) {
      const host = await HostSocket.open(emu, url());
      const place = await host.place();
      if (handshake === null) host.frame(1, { cmd: 'AUTHENTICATE', args: {}, nonce: 'n' });
      else host.frame(0, { ...handshake, frame_id: handshake.frame_id ?? place.get('frame_id') });
      const close = await host.next((m) => closeOf(m) !== undefined, `CLOSE ${code}`);
      expect(closeOf(close)?.code).toBe(code);
      await host.next((m) => m.t === 'closed', 'the closed message for the page');
      await host.closed;
    }
    expect(logs.filter((l) => /frame \d+: (handshake|protocol violation)/.test(l)).length).toBe(4);

    const host = await HostSocket.open(emu, url());
    const ready = await host.handshake(emu);
    expect(ready).toMatchObject({
      v: 1,
      config: { api_endpoint: emu.api, environment: 'production' },
      user: { id: emu.users[0]?.id, username: 'alice', discriminator: '0' },
    });
    // A second handshake, garbage and binary each close the frame.
    host.frame(0, { v: 1, client_id: emu.applicationId });
    expect(closeOf(await host.next((m) => closeOf(m) !== undefined, 'CLOSE'))?.message).toBe(
      'a second handshake',
    );
    for (const bad of ['not json', Buffer.from([1, 2, 3]), '{"t":"frame","d":[1]}']) {
      const other = await HostSocket.open(emu, url());
      await other.handshake(emu);
      other.raw(bad);
      await other.next((m) => closeOf(m) !== undefined, 'CLOSE');
      await other.closed;
    }
  });

  it('AUTHORIZE asks the player in the page; the code needs the client secret; AUTHENTICATE and SET_ACTIVITY follow the scopes', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, autoConsent: false, clientSecret: SECRET });
    const host = await frameFor(emu, 'alice');
    const args = { client_id: emu.applicationId, response_type: 'code', state: '', prompt: 'none' };

    const declined = host.command('AUTHORIZE', { ...args, scope: ['identify'] });
    const ask = await host.consent(false);
    expect(ask).toMatchObject({ application: 'sdkpp Demo Game', scopes: [{ scope: 'identify' }] });
    expect((await declined).data).toMatchObject({ code: 5000 });
    expect(
      (await host.command('AUTHORIZE', { ...args, client_id: '1', scope: ['identify'] })).data,
    ).toMatchObject({ code: 4000 });
    expect((await host.command('AUTHORIZE', { ...args, scope: ['identify', 'made.up'] })).data).toMatchObject(
      {
        code: 4000,
      },
    );

    const approved = host.command('AUTHORIZE', { ...args, scope: ['identify'] });
    await host.consent(true);
    const { code } = (await approved).data as { code: string };
    // No PKCE challenge was sent, so only the confidential client exchanges it; a verifier is refused.
    expect(await exchange(emu, { code })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await exchange(emu, { code, client_secret: SECRET, code_verifier: 'v'.repeat(43) })).toMatchObject(
      { status: 400, body: { error: 'invalid_grant' } },
    );
    const token = await exchange(emu, { code, client_secret: SECRET });
    expect(token.status).toBe(200);
    const accessToken = String(token.body.access_token);

    expect((await host.command('SET_ACTIVITY', { activity: { details: 'early' } })).data).toMatchObject({
      code: 4006,
    });
    expect((await host.command('AUTHENTICATE', { access_token: 'nope' })).data).toMatchObject({ code: 4009 });
    const authenticated = await host.command('AUTHENTICATE', { access_token: accessToken });
    expect(authenticated.data).toMatchObject({
      access_token: accessToken,
      user: { id: emu.users[0]?.id, username: 'alice', public_flags: 0 },
      scopes: ['identify'],
      application: { id: emu.applicationId },
    });
    // identify alone does not allow rich presence.
    expect((await host.command('SET_ACTIVITY', { activity: { details: 'x1' } })).data).toMatchObject({
      code: 4006,
    });

    const second = await frameFor(emu, 'alice');
    await signInFrame(emu, second, ['identify', 'rpc.activities.write']);
    expect(
      (await second.command('SET_ACTIVITY', { activity: { details: 'Catching', details_url: 'not a url' } }))
        .data,
    ).toMatchObject({ code: 4000 });
    const set = await second.command('SET_ACTIVITY', {
      activity: {
        details: 'Catching stars',
        details_url: 'https://example.com/stars',
        state: '2 of 5',
        state_url: 'https://example.com/state',
        assets: { large_image: 'star', large_url: 'https://example.com/star.png' },
      },
    });
    expect(set.evt).toBeNull();
    expect(set.data).toMatchObject({ name: 'sdkpp Demo Game', type: 0, application_id: emu.applicationId });
    const presence = emu.presenceOf(emu.users[0]?.id ?? '');
    expect(presence.status).toBe('online');
    expect(presence.activities[0]).toMatchObject({
      details_url: 'https://example.com/stars',
      assets: { large_url: 'https://example.com/star.png' },
    });
    // Closing the frame takes its activity away.
    second.close();
    await second.closed;
    await until(() => emu.presenceOf(emu.users[0]?.id ?? '').activities.length === 0, 'the activity cleared');
  });

  it('tells each frame who is connected: GET, the update event on join and leave; the last frame ends the instance', async () => {
    const { emu } = await loggedEmulator(running, { users: 3 });
    const alice = await frameFor(emu, 'alice');
    expect((await alice.command('SUBSCRIBE', {}, 'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE')).data).toEqual({
      evt: 'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
    });
    // Bob has a nickname in the guild, which participants carry.
    const guildId = emu.guilds()[0]?.id ?? '';
    const nicknamer = emu.createRole(guildId, { name: 'Nicknamer', permissions: 1n << 27n });
    emu.setMemberRoles(guildId, '@bot', [nicknamer.id]);
    const nick = await call(
      emu,
      `Bot ${emu.botToken}`,
      'PATCH',
      `/guilds/${guildId}/members/${emu.users[1]?.id ?? ''}`,
      {
        nick: 'Bobby',
      },
    );
    expect(nick.status).toBe(200);
    const bob = await frameFor(emu, 'bob');
    const update = (m: HostMessage): unknown[] | undefined => {
      const d = dispatchOf(m);
      return d?.evt === 'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE'
        ? (d.data as { participants: unknown[] }).participants
        : undefined;
    };
    const joined = update(await alice.next((m) => update(m)?.length === 2, 'the update for Bob'));
    expect(joined).toEqual([
      expect.objectContaining({ id: emu.users[0]?.id, username: 'alice', bot: false, discriminator: '0' }),
      expect.objectContaining({ id: emu.users[1]?.id, username: 'bob', flags: 0, nickname: 'Bobby' }),
    ]);
    expect(joined?.[0]).not.toHaveProperty('nickname');
    const got = await bob.command('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS');
    expect((got.data as { participants: { id: string }[] }).participants.map((p) => p.id)).toEqual([
      emu.users[0]?.id,
      emu.users[1]?.id,
    ]);
    // The page shows them too.
    await bob.next((m) => m.t === 'participants' && (m.names as string[]).length === 2, 'the names');
    expect(emu.activityInstances()).toEqual([
      expect.objectContaining({
        participants: [emu.users[0]?.id, emu.users[1]?.id],
        launchedBy: emu.users[0]?.id,
      }),
    ]);

    // A second frame of Bob's is one participant; only closing both makes him leave.
    const bobAgain = await frameFor(emu, 'bob');
    bob.close();
    await bob.closed;
    expect((await alice.command('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS')).data).toMatchObject({
      participants: [{ username: 'alice' }, { username: 'bob' }],
    });
    bobAgain.close();
    await alice.next((m) => update(m)?.length === 1, 'the update for Bob leaving');
    expect((await alice.command('UNSUBSCRIBE', {}, 'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE')).evt).toBeNull();
    alice.close();
    await until(() => emu.activityInstances().length === 0, 'the instance ended');
  });

  it('sells in the Activity: SKUs with prices, the purchase modal, entitlements and ENTITLEMENT_CREATE', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, autoConsent: false });
    const board = emu.createSku({
      name: 'Golden Board',
      type: 'durable',
      price: { amount: 499, currency: 'usd' },
    });
    const boost = emu.createSku({ name: 'Star Boost', type: 'consumable' });
    expect(() =>
      emu.createSku({ name: 'Bad', type: 'durable', price: { amount: 1.5, currency: 'usd' } }),
    ).toThrow(RangeError);
    const host = await frameFor(emu, 'alice');
    expect((await host.command('GET_SKUS_EMBEDDED')).data).toEqual({
      skus: [
        {
          id: board.id,
          name: 'Golden Board',
          type: 2,
          price: { amount: 499, currency: 'usd' },
          application_id: emu.applicationId,
          flags: 4,
          release_date: null,
        },
        expect.objectContaining({ id: boost.id, type: 3, price: { amount: 0, currency: 'usd' } }),
      ],
    });
    expect((await host.command('SUBSCRIBE', {}, 'ENTITLEMENT_CREATE')).evt).toBeNull();

    const declined = host.command('START_PURCHASE', { sku_id: board.id });
    expect(await host.consent(false)).toMatchObject({
      kind: 'purchase',
      sku: { name: 'Golden Board', price: '4.99 USD' },
    });
    expect((await declined).data).toBeNull();
    expect(emu.entitlements()).toEqual([]);

    const bought = host.command('START_PURCHASE', { sku_id: board.id });
    await host.consent(true);
    const [entitlement] = (await bought).data as Record<string, unknown>[];
    expect(entitlement).toMatchObject({
      sku_id: board.id,
      user_id: emu.users[0]?.id,
      type: 1,
      gift_code_flags: 0,
      consumed: false,
    });
    const event = await host.next((m) => dispatchOf(m)?.evt === 'ENTITLEMENT_CREATE', 'ENTITLEMENT_CREATE');
    expect(dispatchOf(event)?.data).toEqual({ entitlement });
    expect((await host.command('GET_ENTITLEMENTS_EMBEDDED')).data).toEqual({ entitlements: [entitlement] });

    // A durable is bought once, and an unknown SKU never: both are refused before any modal.
    expect((await host.command('START_PURCHASE', { sku_id: board.id })).data).toMatchObject({
      code: 4000,
      message: 'the user already owns this durable SKU',
    });
    expect((await host.command('START_PURCHASE', { sku_id: '1' })).data).toMatchObject({ code: 4000 });
    // A purchase elsewhere (the store page, another device) reaches the frame too.
    expect(host.messages.filter((m) => m.t === 'consent')).toHaveLength(2);
    emu.purchaseSku('alice', boost.id);
    await host.next(
      (m) =>
        (dispatchOf(m)?.data as { entitlement?: { sku_id?: string } } | undefined)?.entitlement?.sku_id ===
        boost.id,
      'ENTITLEMENT_CREATE for the boost',
    );
  });

  it("GET_RELATIONSHIPS and RELATIONSHIP_UPDATE need relationships.read, and match the SDK's own schemas, as GET_USER does", async () => {
    const { emu } = await loggedEmulator(running, { users: 3, autoConsent: false, clientSecret: SECRET });
    const [, bob, cara] = emu.users;
    emu.befriend('alice', 'bob');
    const host = await frameFor(emu, 'alice');
    expect((await host.command('GET_RELATIONSHIPS')).data).toMatchObject({ code: 4006 });
    expect((await host.command('SUBSCRIBE', {}, 'RELATIONSHIP_UPDATE')).data).toMatchObject({ code: 4006 });
    const token = await signInFrame(emu, host, ['identify', 'relationships.read', 'relationships.write']);
    expect((await host.command('SUBSCRIBE', {}, 'RELATIONSHIP_UPDATE')).evt).toBeNull();

    // Bob plays in his own frame; Alice's friend list shows what he does, in the shape the SDK parses.
    const bobFrame = await frameFor(emu, 'bob');
    await signInFrame(emu, bobFrame, ['identify', 'rpc.activities.write']);
    await bobFrame.command('SET_ACTIVITY', {
      activity: {
        details: 'Catching stars',
        state: '1 of 5',
        party: { id: 'room-1', size: [2, 8] },
        buttons: [{ label: 'Watch', url: 'https://example.com/watch' }],
      },
    });
    const update = await host.next(
      (m) => dispatchOf(m)?.evt === 'RELATIONSHIP_UPDATE',
      "RELATIONSHIP_UPDATE for Bob's activity",
    );
    expect(Common.Relationship.parse(dispatchOf(update)?.data)).toMatchObject({
      type: 1,
      user: { id: bob?.id, username: 'bob' },
      presence: { status: 'online', activity: { details: 'Catching stars', buttons: ['Watch'] } },
    });
    const listed = (await host.command('GET_RELATIONSHIPS')).data as { relationships: unknown[] };
    expect(listed.relationships).toHaveLength(1);
    expect(Common.Relationship.parse(listed.relationships[0])).toMatchObject({
      presence: { activity: { party: { id: 'room-1', size: [2, 8] } } },
    });

    // A new friend reaches the frame too.
    emu.befriend('alice', cara?.username ?? '');
    const added = await host.next(
      (m) => (dispatchOf(m)?.data as { user?: { id?: string } } | undefined)?.user?.id === cara?.id,
      'RELATIONSHIP_UPDATE for Cara',
    );
    expect(Common.Relationship.parse(dispatchOf(added)?.data)).toMatchObject({ type: 1 });
    // Alice removes Cara (the API, with her token): the frame hears type 0, with no presence.
    const removed = await call(
      emu,
      `Bearer ${token}`,
      'DELETE',
      `/users/@me/relationships/${cara?.id ?? ''}`,
    );
    expect(removed.status).toBe(204);
    const gone = await host.next((m) => {
      const data = dispatchOf(m)?.data as { type?: number; user?: { id?: string } } | undefined;
      return data?.type === 0 && data.user?.id === cara?.id;
    }, 'RELATIONSHIP_UPDATE type 0 for Cara');
    expect(Common.Relationship.parse(dispatchOf(gone)?.data)).not.toHaveProperty('presence');

    expect(Common.User.parse((await host.command('GET_USER', { id: bob?.id })).data)).toMatchObject({
      username: 'bob',
      bot: false,
    });
    expect((await host.command('GET_USER', { id: '1' })).data).toBeNull();
    expect((await host.command('GET_USER', {})).data).toMatchObject({ code: 4000 });
  });

  it('answers the client commands, refuses unknown ones, and keeps console lines out of the log', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 2 });
    const host = await frameFor(emu, 'alice');
    expect((await host.command('USER_SETTINGS_GET_LOCALE')).data).toEqual({ locale: 'en-US' });
    expect((await host.command('ENCOURAGE_HW_ACCELERATION')).data).toEqual({ enabled: true });
    expect((await host.command('SET_CONFIG', { use_interactive_pip: true })).data).toEqual({
      use_interactive_pip: true,
    });
    expect((await host.command('GET_PLATFORM_BEHAVIORS')).data).toEqual({ iosKeyboardResizesView: false });
    expect((await host.command('SET_ORIENTATION_LOCK_STATE', { lock_state: 1 })).data).toBeNull();
    expect((await host.command('OPEN_EXTERNAL_LINK', { url: 'https://example.com/' })).data).toEqual({
      opened: true,
    });
    await host.next((m) => m.t === 'link' && m.url === 'https://example.com/', 'the link for the page');
    expect((await host.command('OPEN_EXTERNAL_LINK', { url: 'javascript:alert(1)' })).data).toMatchObject({
      code: 4000,
    });
    expect((await host.command('GET_QUEST')).data).toMatchObject({ code: 4002 });
    // Voice events are known now; without AUTHENTICATE and rpc.voice.read they are 4006. An unknown one is 4004.
    expect((await host.command('SUBSCRIBE', {}, 'VOICE_STATE_UPDATE')).data).toMatchObject({ code: 4006 });
    expect((await host.command('SUBSCRIBE', {}, 'VOICE_CHANNEL_SELECT')).data).toMatchObject({ code: 4004 });

    for (let i = 0; i < 205; i += 1) {
      void host.command('CAPTURE_LOG', { level: 'log', message: `line ${i} access_token=xyz` });
    }
    expect((await host.command('CAPTURE_LOG', { level: 'warn', message: 'y'.repeat(5000) })).data).toBeNull();
    const [instance] = emu.activityInstances();
    expect(instance?.console).toHaveLength(200);
    expect(instance?.console.at(-1)).toEqual({
      userId: emu.users[0]?.id,
      level: 'warn',
      message: 'y'.repeat(2000),
    });
    expect(logs.some((l) => l.includes('access_token=xyz'))).toBe(false);

    // A host page may not send more than 256 KiB at once.
    host.raw(
      JSON.stringify({ t: 'frame', d: [1, { cmd: 'CAPTURE_LOG', args: { message: 'z'.repeat(300_000) } }] }),
    );
    expect((await host.closed).code).toBe(1009);
  });
});
