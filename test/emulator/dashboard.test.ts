import { describe, expect, it } from 'vitest';

import {
  ActivityPartyPrivacy,
  ActivityTypes,
  CallStatus,
  ClientStatus,
  RelationshipType,
} from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { bothInCall, twoInALobby } from '../integration/callHelpers.js';
import { allSecrets, emulatorFor, eventually, linkAndConnect, userAt } from '../integration/helpers.js';
import { act, pageToken } from './dashboardHelpers.js';
import { rawRequest } from './helpers.js';
import { Peer } from './rpcPeer.js';

/** The page's token, read the way the page's script reads it. */
interface DashboardStateJson {
  users: {
    id: string;
    username: string;
    status: string;
    banned: boolean;
    friends: string[];
    activities: { details: string | null; party: { size: number | null; max: number | null } | null }[];
  }[];
  lobbies: { id: string; members: { id: string; connected: boolean }[]; messages: { content: string }[] }[];
  desktopClient: {
    notifications: { at: number; authorId: string; body: string; shown: boolean }[];
    opened: { at: number; kind: string; messageId: string | null }[];
  };
  calls: {
    channelId: string;
    guildId: string | null;
    daveProtocolVersion: number | null;
    daveEpoch: string | null;
    privacyCode: null;
    participants: { userId: string; ssrc: number | null }[];
  }[];
  sessions: { id: string; userId: string; connected: boolean }[];
}

async function state(emulator: Emulator): Promise<DashboardStateJson> {
  const res = await fetch(`${emulator.dashboard}/api/state`);
  expect(res.status).toBe(200);
  return (await res.json()) as DashboardStateJson;
}

/** A reader of `/dashboard/events`: every event so far, and a wait for one that matches. */
async function openEvents(emulator: Emulator): Promise<{
  events: { event: string; data: string }[];
  raw: () => string;
  waitFor: (event: string, match: (data: string) => boolean, what: string) => Promise<string>;
  close: () => void;
}> {
  const abort = new AbortController();
  const res = await fetch(`${emulator.dashboard}/events`, { signal: abort.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: { event: string; data: string }[] = [];
  let text = '';
  let pending = '';
  const decoder = new TextDecoder();
  void (async () => {
    const reader = res.body?.getReader();
    if (!reader) return;
    try {
      for (;;) {
        const { value, done } = (await reader.read()) as { value?: Uint8Array; done: boolean };
        if (done) return;
        const chunk = decoder.decode(value, { stream: true });
        text += chunk;
        pending += chunk;
        let end = pending.indexOf('\n\n');
        while (end >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) events.push({ event, data });
          end = pending.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    events,
    raw: () => text,
    waitFor: async (event, match, what) => {
      let found: string | undefined;
      await eventually(
        () => {
          found = events.find((e) => e.event === event && match(e.data))?.data;
          return found !== undefined;
        },
        10_000,
        what,
      );
      return found ?? '';
    },
    close: () => {
      abort.abort();
    },
  };
}

describe('the emulator dashboard over HTTP', () => {
  it('serves the page under a strict policy, with its own script, style and a per-emulator token', async () => {
    const emulator = await emulatorFor();
    expect(emulator.dashboard).toBe(`${emulator.http}/dashboard`);
    expect(JSON.parse(JSON.stringify(emulator))).toMatchObject({ dashboard: emulator.dashboard });
    const page = await fetch(emulator.dashboard);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('<script src="/dashboard/app.js" defer></script>');
    expect(html).not.toMatch(/<script>|https?:\/\/(?!127\.0\.0\.1)/);
    const script = await fetch(`${emulator.dashboard}/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain("new EventSource('/dashboard/events')");
    const style = await fetch(`${emulator.dashboard}/app.css`);
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);

    const other = await startedAnother();
    expect(await pageToken(other)).not.toBe(await pageToken(emulator));
  });

  it('shows users, presence, relationships, lobbies and messages, and no secret', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    await alice.client.sendDiscordFriendRequest('bob');
    await eventually(
      () =>
        bob.client.getRelationshipHandle(alice.user.id).discordRelationshipType ===
        RelationshipType.PendingIncoming,
    );
    await bob.client.acceptDiscordFriendRequest(alice.user.id);
    await bob.client.updateRichPresence({
      type: ActivityTypes.Playing,
      details: 'Ranked',
      party: { id: 'party-1', currentSize: 1, maxSize: 4, privacy: ActivityPartyPrivacy.Public },
      secrets: { join: 'join-secret-on-the-dashboard' },
    });
    const lobbyId = await alice.client.createOrJoinLobby('lobby-secret-on-the-dashboard', { map: 'harbour' });
    await alice.client.sendLobbyMessage(lobbyId, 'hello dashboard');

    await eventually(() => emulator.presenceOf(bob.user.id).activities.length > 0, 5000, 'Bob’s activity');
    const res = await fetch(`${emulator.dashboard}/api/state`);
    const text = await res.text();
    const view = JSON.parse(text) as DashboardStateJson;
    const aliceView = view.users.find((u) => u.id === alice.user.id);
    const bobView = view.users.find((u) => u.id === bob.user.id);
    expect(aliceView).toMatchObject({ username: 'alice', status: 'online', friends: [bob.user.id] });
    expect(bobView?.activities[0]).toMatchObject({ details: 'Ranked', party: { size: 1, max: 4 } });
    expect(view.lobbies).toHaveLength(1);
    expect(view.lobbies[0]).toMatchObject({
      id: lobbyId,
      metadata: { map: 'harbour' },
      members: [{ id: alice.user.id, connected: true }],
      messages: [{ content: 'hello dashboard' }],
    });
    expect(view.sessions.map((s) => s.userId).sort()).toEqual([alice.user.id, bob.user.id].sort());
    for (const secret of [
      ...allSecrets,
      emulator.botToken,
      'join-secret-on-the-dashboard',
      'lobby-secret-on-the-dashboard',
    ]) {
      expect(text).not.toContain(secret);
    }
    const sessionIds = emulator.gatewaySessions().map((s) => s.sessionId);
    for (const id of sessionIds) expect(text).not.toContain(id);
  });

  it('streams the state again when something changes, and the log lines (never a token)', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const feed = await openEvents(emulator);
    await feed.waitFor('state', (data) => data.includes('"username":"alice"'), 'the first state');
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const lobbyId = await alice.client.createOrJoinLobby('streamed');
    await feed.waitFor('state', (data) => data.includes(`"id":"${lobbyId}"`), 'a state with the lobby');
    await feed.waitFor(
      'log',
      (data) => data.includes('"area":"http"') && data.includes('PUT /lobbies'),
      'the request',
    );
    await feed.waitFor(
      'log',
      (data) => data.includes('"area":"gateway"') && data.includes('identified'),
      'Identify',
    );
    // Gateway dispatches show by event name and user, never with their payload.
    const ready = await feed.waitFor(
      'log',
      (data) => data.includes('"area":"dispatch"') && data.includes('READY'),
      'the READY dispatch',
    );
    expect(JSON.parse(ready)).toMatchObject({ area: 'dispatch', message: 'READY → alice' });
    await alice.client.sendLobbyMessage(lobbyId, 'streamed message');
    await feed.waitFor('state', (data) => data.includes('streamed message'), 'a state with the message');
    feed.close();
    for (const secret of [...alice.secrets, emulator.botToken]) expect(feed.raw()).not.toContain(secret);
  });

  it("shows the desktop client's DM notifications and what it opened for games", async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const peer = new Peer(emulator.rpcSocket ?? '');
    await peer.handshake(emulator.applicationId);
    const first = emulator.sendDirectMessageFromDiscord('bob', 'alice', 'ping');
    await peer.command('SET_SHOWING_CHAT', { showing_chat: true });
    emulator.sendDirectMessageFromDiscord('bob', 'alice', 'quiet');
    await peer.command('OPEN_MESSAGE', { message_id: first });
    await peer.command('OPEN_CONNECTED_GAMES_SETTINGS', {});
    const view = await state(emulator);
    const bob = userAt(emulator, 1).id;
    expect(view.desktopClient.notifications.map(({ at: _at, ...n }) => n)).toEqual([
      { authorId: bob, body: 'ping', shown: true },
      { authorId: bob, body: 'quiet', shown: false },
    ]);
    expect(view.desktopClient.opened.map(({ at: _at, ...o }) => o)).toEqual([
      { kind: 'message', messageId: first },
      { kind: 'connectedGamesSettings', messageId: null },
    ]);
    const page = await (await fetch(emulator.dashboard)).text();
    expect(page).toContain('id="desktop-notifications"');
    peer.socket.end();
    await peer.ended;
  });

  it('ends open streams when the emulator closes, without holding the port', async () => {
    const emulator = await emulatorFor();
    const res = await fetch(`${emulator.dashboard}/events`);
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no stream');
    const started = Date.now();
    await emulator.close();
    expect(Date.now() - started).toBeLessThan(2000);
    for (;;) {
      const { done } = (await reader.read()) as { done: boolean };
      if (done) break;
    }
  });

  it('creates a user, and refuses a taken or malformed name with a clear 4xx', async () => {
    const emulator = await emulatorFor();
    const token = await pageToken(emulator);
    const headers = { 'X-Dashboard-Token': token };
    const created = await act(emulator, 'users', { username: 'tester', globalName: 'The Tester' }, headers);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ username: 'tester' });
    expect(emulator.users.map((u) => u.username)).toContain('tester');
    expect((await state(emulator)).users.some((u) => u.username === 'tester')).toBe(true);
    const seeded = await act(emulator, 'users', {}, headers);
    expect(seeded.status).toBe(201);
    expect(seeded.json.username).toBe('carol');

    expect(await act(emulator, 'users', { username: 'tester' }, headers)).toMatchObject({
      status: 409,
      json: { error: 'username_taken' },
    });
    expect(await act(emulator, 'users', { username: 'no spaces!' }, headers)).toMatchObject({
      status: 400,
      json: { error: 'bad_field' },
    });
    expect(await act(emulator, 'users', { username: 42 }, headers)).toMatchObject({
      status: 400,
      json: { error: 'bad_field', message: '"username" must be a string' },
    });
    expect(await act(emulator, 'users', [1, 2], headers)).toMatchObject({
      status: 400,
      json: { error: 'bad_body' },
    });
    expect(await act(emulator, 'users', '{"username":', headers)).toMatchObject({
      status: 400,
      json: { error: 'bad_json' },
    });
  });

  it("bans a user: the banned player's client is disconnected and stays out", async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const token = await pageToken(emulator);
    const banned = await act(emulator, `users/${bob.user.id}/ban`, {}, { 'X-Dashboard-Token': token });
    expect(banned).toEqual({ status: 200, json: { banned: bob.user.id } });
    await eventually(() => bob.client.getStatus() === ClientStatus.Disconnected, 5000, 'Bob disconnected');
    await expect(bob.client.fetchCurrentUser(bob.accessToken)).rejects.toMatchObject({ status: 401 });
    expect((await state(emulator)).users.find((u) => u.id === bob.user.id)?.banned).toBe(true);
  });

  it("revokes a user's tokens: the client's next request gets 401", async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    expect((await alice.client.fetchCurrentUser(alice.accessToken)).username).toBe('alice');
    const token = await pageToken(emulator);
    // A username names the user as well as the id does.
    const revoked = await act(emulator, 'users/alice/revoke-tokens', {}, { 'X-Dashboard-Token': token });
    expect(revoked).toEqual({ status: 200, json: { revoked: alice.user.id } });
    await expect(alice.client.fetchCurrentUser(alice.accessToken)).rejects.toMatchObject({ status: 401 });
    await eventually(
      () => alice.client.getStatus() === ClientStatus.Disconnected,
      5000,
      'Alice disconnected',
    );
  });

  it("drops a user's gateway connection: the client resumes the same session", async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const before = emulator.gatewaySessions(alice.user.id)[0]?.sessionId;
    const seen: ClientStatus[] = [];
    alice.client.on('statusChanged', (status) => seen.push(status));
    const token = await pageToken(emulator);
    const dropped = await act(
      emulator,
      `users/${alice.user.id}/drop-gateway`,
      {},
      { 'X-Dashboard-Token': token },
    );
    expect(dropped).toEqual({ status: 200, json: { dropped: 1 } });
    await eventually(() => seen.includes(ClientStatus.Reconnecting), 5000, 'Reconnecting');
    await eventually(() => alice.client.getStatus() === ClientStatus.Ready, 10_000, 'Ready again');
    const after = emulator.gatewaySessions(alice.user.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ sessionId: before, connected: true });
  });

  it('shows a call with SSRCs and the DAVE epoch, never a privacy code, and kicks a member', async () => {
    const { emulator, alice, bob, lobbyId } = await twoInALobby();
    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    await eventually(() => aliceCall.getPrivacyCode() !== '', 10_000, 'the DAVE group');
    await eventually(() => bobCall.getPrivacyCode() === aliceCall.getPrivacyCode(), 10_000, 'one epoch');
    const res = await fetch(`${emulator.dashboard}/api/state`);
    const text = await res.text();
    const call = (JSON.parse(text) as DashboardStateJson).calls[0];
    expect(call).toMatchObject({
      channelId: lobbyId,
      guildId: null,
      daveProtocolVersion: 1,
      privacyCode: null,
    });
    expect(call?.daveEpoch).toBe(String(emulator.voice.calls()[0]?.daveEpoch));
    expect(Number(call?.daveEpoch)).toBeGreaterThan(0);
    const ssrcs = emulator.voice.calls()[0]?.participants.map((p) => p.voice?.ssrc);
    expect(call?.participants.map((p) => p.ssrc)).toEqual(ssrcs);
    // The server cannot know the code: the page must not carry it.
    expect(text).not.toContain(aliceCall.getPrivacyCode());

    const token = await pageToken(emulator);
    const kicked = await act(
      emulator,
      `calls/${lobbyId}/kick`,
      { userId: bob.user.id },
      { 'X-Dashboard-Token': token },
    );
    expect(kicked).toEqual({ status: 200, json: { kicked: bob.user.id, lobbyId } });
    await eventually(() => bobCall.getStatus() === CallStatus.Disconnected, 5000, 'Bob’s call ended');
    expect(aliceCall.getStatus()).toBe(CallStatus.Connected);
    expect(
      await act(emulator, `calls/${lobbyId}/kick`, { userId: bob.user.id }, { 'X-Dashboard-Token': token }),
    ).toMatchObject({
      status: 404,
      json: { error: 'not_in_call' },
    });
    expect(
      await act(emulator, 'calls/123/kick', { userId: bob.user.id }, { 'X-Dashboard-Token': token }),
    ).toMatchObject({
      status: 404,
      json: { error: 'unknown_call' },
    });
    expect(await act(emulator, `calls/${lobbyId}/kick`, {}, { 'X-Dashboard-Token': token })).toMatchObject({
      status: 400,
      json: { message: '"userId" is required' },
    });
  });

  it('refuses hostile requests: cross-origin, no or a wrong token, a form body, another Host, unknown users', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const token = await pageToken(emulator);
    const path = `users/${alice.user.id}/ban`;

    expect(
      await act(emulator, path, {}, { 'X-Dashboard-Token': token, Origin: 'http://evil.example' }),
    ).toMatchObject({
      status: 403,
      json: { error: 'cross_origin' },
    });
    expect(
      await act(emulator, path, {}, { 'X-Dashboard-Token': token, 'Sec-Fetch-Site': 'cross-site' }),
    ).toMatchObject({ status: 403, json: { error: 'cross_origin' } });
    expect(await act(emulator, path, {}, {})).toMatchObject({
      status: 401,
      json: { error: 'missing_token' },
    });
    expect(await act(emulator, path, {}, { 'X-Dashboard-Token': `${token}x` })).toMatchObject({
      status: 403,
      json: { error: 'bad_token' },
    });
    // What a cross-site HTML form can send: a form body, no custom header.
    const form = await fetch(`${emulator.dashboard}/api/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Dashboard-Token': token },
      body: 'a=1',
    });
    expect(form.status).toBe(415);
    // A DNS-rebinding page reaches the port under its own host name.
    const rebound = await rawRequest(emulator, {
      method: 'POST',
      path: `/dashboard/api/${path}`,
      headers: {
        Host: 'attacker.example:80',
        'Content-Type': 'application/json',
        'X-Dashboard-Token': token,
      },
      body: '{}',
    });
    expect(rebound.status).toBe(421);
    const reboundRead = await rawRequest(emulator, {
      method: 'GET',
      path: '/dashboard/api/state',
      headers: { Host: 'attacker.example' },
    });
    expect(reboundRead.status).toBe(421);
    // Nothing above took effect.
    expect(alice.client.getStatus()).toBe(ClientStatus.Ready);
    expect((await state(emulator)).users.find((u) => u.id === alice.user.id)?.banned).toBe(false);

    expect(await act(emulator, 'users/nobody/ban', {}, { 'X-Dashboard-Token': token })).toMatchObject({
      status: 404,
      json: { error: 'unknown_user', message: 'No user "nobody"' },
    });
    expect(await act(emulator, 'users/123/revoke-tokens', {}, { 'X-Dashboard-Token': token })).toMatchObject({
      status: 404,
    });
    // The application's bot is not a user a tester manages.
    expect(
      await act(emulator, `users/${emulator.applicationId}/ban`, {}, { 'X-Dashboard-Token': token }),
    ).toMatchObject({ status: 404 });
    const wrongMethod = await fetch(`${emulator.dashboard}/api/${path}`);
    expect(wrongMethod.status).toBe(405);
    const unknown = await fetch(`${emulator.dashboard}/api/nothing-here`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'not_found' });
  });
});

/** A second emulator for comparing per-instance values; closed after the test like the first. */
function startedAnother(): Promise<Emulator> {
  return emulatorFor();
}
