import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { closeOf, frameOf, HostSocket, voiceChannel } from './activityHostHelpers.js';
import { closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

const { running } = closeAfterEach();
const SECRET = 'activity-hostile-client-secret';

/** The fields a stored SET_ACTIVITY activity may have: what the platform keeps, and nothing a game made up. */
const KNOWN_FIELDS = new Set([
  'name',
  'type',
  'state',
  'state_url',
  'details',
  'details_url',
  'status_display_type',
  'timestamps',
  'assets',
  'party',
  'secrets',
  'instance',
  'flags',
  'buttons',
  'application_id',
  'created_at',
]);

/** A handshaken frame of `user` in the seeded voice channel's instance, signed in with rpc.activities.write. */
async function signedInFrame(emu: Emulator, user: string): Promise<HostSocket> {
  const host = await HostSocket.open(emu, emu.launchActivity({ user, channel: voiceChannel(emu) }).url);
  await host.handshake(emu);
  const authorize = await host.command('AUTHORIZE', {
    client_id: emu.applicationId,
    response_type: 'code',
    scope: ['identify', 'rpc.activities.write'],
  });
  const { code } = authorize.data as { code: string };
  const token = await fetch(`${emu.api}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: emu.applicationId,
      client_secret: SECRET,
      code,
    }),
  });
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  expect((await host.command('AUTHENTICATE', { access_token: accessToken })).evt).toBeNull();
  return host;
}

/** Sends a command as raw text (for bodies `JSON.stringify` cannot build) and waits for its reply. */
async function rawCommand(host: HostSocket, cmd: string, argsJson: string): Promise<Record<string, unknown>> {
  const nonce = randomUUID();
  host.raw(`{"t":"frame","d":[1,{"cmd":"${cmd}","nonce":"${nonce}","args":${argsJson}}]}`);
  const reply = await host.next(
    (m) => frameOf(m)?.nonce === nonce || closeOf(m) !== undefined,
    `the reply to ${cmd}`,
  );
  return frameOf(reply) ?? { closed: closeOf(reply) };
}

async function dashboardStatus(emu: Emulator): Promise<{ status: number; size: number }> {
  const res = await fetch(`${emu.dashboard}/api/state`);
  return { status: res.status, size: (await res.text()).length };
}

describe('the Activity host under hostile frames', () => {
  it('refuses a deeply nested SET_ACTIVITY with an error, storing nothing, and the dashboard keeps answering', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 2, clientSecret: SECRET });
    const alice = emu.users[0]?.id ?? '';
    const host = await signedInFrame(emu, 'alice');
    const depth = 100_000;
    const reply = await rawCommand(
      host,
      'SET_ACTIVITY',
      `{"activity":{"details":"Catching stars","junk":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
    );
    expect(reply).toMatchObject({ evt: 'ERROR', data: { code: 4000 } });
    expect(String((reply.data as { message?: unknown }).message)).toMatch(/nest/);
    expect(logs.some((l) => /frame \d+: SET_ACTIVITY refused \(.*nest/.test(l))).toBe(true);
    expect(emu.presenceOf(alice).activities).toEqual([]);
    expect((await dashboardStatus(emu)).status).toBe(200);
    // The frame stays open: the next command is answered as usual.
    expect((await host.command('USER_SETTINGS_GET_LOCALE')).data).toEqual({ locale: 'en-US' });
  });

  it('stores and echoes only the activity fields the platform keeps, and checks every known one before storing', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, clientSecret: SECRET });
    const alice = emu.users[0]?.id ?? '';
    const host = await signedInFrame(emu, 'alice');
    const junk = 'j'.repeat(240_000);
    const set = await host.command('SET_ACTIVITY', {
      activity: {
        details: 'Catching stars',
        state: '2 of 5',
        junk,
        nested: { a: { b: { c: [1, 2, { d: 'x' }] } } },
        assets: { large_image: 'star', made_up: junk.slice(0, 1000) },
        party: { id: 'room-1', size: [2, 8], extra: 'y' },
        timestamps: { start: 1_700_000_000_000, extra: 1 },
        buttons: [{ label: 'Watch', url: 'https://example.com/watch', extra: 'z' }],
      },
    });
    expect(set.evt).toBeNull();
    const echoed = set.data as Record<string, unknown>;
    expect(JSON.stringify(echoed).length).toBeLessThan(1000);
    expect(Object.keys(echoed).every((k) => KNOWN_FIELDS.has(k))).toBe(true);
    expect(echoed).toMatchObject({
      details: 'Catching stars',
      assets: { large_image: 'star' },
      party: { id: 'room-1', size: [2, 8] },
      timestamps: { start: 1_700_000_000_000 },
      buttons: [{ label: 'Watch', url: 'https://example.com/watch' }],
    });
    const [stored] = emu.presenceOf(alice).activities;
    expect(stored).toEqual(echoed);
    expect(JSON.stringify(stored)).not.toMatch(/junk|nested|made_up|extra|jjj/);
    const dashboard = await dashboardStatus(emu);
    expect(dashboard.status).toBe(200);
    expect(dashboard.size).toBeLessThan(100_000);

    // A known field of the wrong shape is refused as a whole, and the activity set before stays.
    for (const activity of [
      { details: 'Other', assets: { large_image: { deep: [1] } } },
      { details: 'Other', party: { id: 'room-2', size: ['a', 'b'] } },
      { details: 'Other', timestamps: { start: 'soon' } },
      { details: 'Other', buttons: [{ label: 7, url: 'https://example.com/' }] },
      { details: 'Other', secrets: { join: { x: 1 } } },
      { details: { text: 'Other' } },
    ]) {
      expect((await host.command('SET_ACTIVITY', { activity })).data).toMatchObject({ code: 4000 });
    }
    expect(emu.presenceOf(alice).activities).toEqual([stored]);
  });
});
