import { describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { botSession } from './botHelpers.js';
import { signIn } from './helpers.js';
import { call as apiCall, closeAfterEach, loggedEmulator, withCommand } from './lobbyHelpers.js';
import { verifyingEndpoint } from './verifyingEndpoint.js';

type Json = Record<string, unknown> & Record<string, unknown>[];
const call = apiCall<Json>;
const { running, cleanups } = closeAfterEach();

/** A 1×1 transparent PNG as a data URI. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function me(emu: Emulator, body?: unknown, auth = `Bot ${emu.botToken}`) {
  return body === undefined
    ? call(emu, auth, 'GET', '/applications/@me')
    : call(emu, auth, 'PATCH', '/applications/@me', body);
}

async function endpoint(emu: Emulator) {
  const server = await verifyingEndpoint(() => emu.applicationPublicKey);
  cleanups.push(() => void server.close());
  return server;
}

describe('GET /applications/@me', () => {
  it('serves the application object to the bot token: its key, bot, owner, flags and counts', async () => {
    const { emu } = await loggedEmulator(running, {
      users: 2,
      applicationName: 'Catch the Star',
      privilegedIntents: ['members', 'message_content'],
    });
    const got = await me(emu);
    expect(got.status).toBe(200);
    const [alice] = emu.users;
    expect(got.json).toMatchObject({
      id: emu.applicationId,
      name: 'Catch the Star',
      icon: null,
      description: '',
      verify_key: emu.applicationPublicKey,
      bot_public: true,
      bot_require_code_grant: false,
      bot: { id: emu.applicationId, bot: true },
      owner: { id: alice?.id, username: 'alice' },
      team: null,
      // GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED: the portal's toggles, unverified.
      flags: (1 << 15) | (1 << 19),
      flags_new: String((1 << 15) | (1 << 19)),
      // The seeded guild, which has the bot.
      approximate_guild_count: 1,
      approximate_user_install_count: 0,
      approximate_user_authorization_count: 0,
      interactions_endpoint_url: null,
      event_webhooks_url: null,
      // New apps: both installation contexts, with applications.commands (the document's default).
      integration_types_config: {
        0: { oauth2_install_params: { scopes: ['applications.commands'], permissions: '0' } },
        1: { oauth2_install_params: { scopes: ['applications.commands'], permissions: '0' } },
      },
    });
    expect(emu.applicationPublicKey).toMatch(/^[0-9a-f]{64}$/);
    // Nothing secret in it.
    const text = JSON.stringify(got.json);
    expect(text).not.toContain(emu.botToken);
    expect(text).not.toContain(emu.clientSecret);

    // Counts follow the world: the bot joins a guild, alice authorizes, a global command appears.
    emu.addBotToGuild(emu.createGuild({ name: 'Second', owner: 'alice' }).id);
    emu.createGuild({ name: 'Botless', owner: 'bob' });
    const tokens = await signIn(emu, 'alice', 'identify applications.commands');
    await signIn(emu, 'bob', 'identify');
    await withCommand(emu);
    const later = await me(emu);
    expect(later.json).toMatchObject({
      approximate_guild_count: 2,
      approximate_user_install_count: 1,
      approximate_user_authorization_count: 2,
      // APPLICATION_COMMAND_BADGE joins the intent flags.
      flags: (1 << 15) | (1 << 19) | (1 << 23),
    });

    // The bot token only: no credentials, a user's Bearer token, or another bot token get 401.
    expect((await call(emu, null, 'GET', '/applications/@me')).status).toBe(401);
    expect((await me(emu, undefined, `Bearer ${tokens.access_token}`)).status).toBe(401);
    expect((await me(emu, undefined, 'Bot not-the-token')).status).toBe(401);
  });

  it('says in READY the flags it serves', async () => {
    const { emu } = await loggedEmulator(running, { users: 1, privilegedIntents: ['presences'] });
    const { gw, ready } = await botSession(emu, 1);
    cleanups.push(() => gw.ws.close());
    expect((ready.d as { application: unknown }).application).toMatchObject({
      id: emu.applicationId,
      flags: 1 << 13,
    });
  });
});

describe('PATCH /applications/@me', () => {
  it('edits what an app may edit, drops unknown fields, and answers the object', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 1 });
    const edited = await me(emu, {
      description: 'Catch falling stars with friends',
      icon: PNG,
      cover_image: PNG,
      tags: ['arcade', 'multiplayer'],
      custom_install_url: 'https://example.com/install',
      role_connections_verification_url: 'https://example.com/verify',
      install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048', extra: true },
      integration_types_config: {
        0: { oauth2_install_params: { scopes: ['bot'], permissions: 3072 } },
        1: {},
      },
      // Not editable, or not the platform's: dropped.
      name: 'Renamed',
      verify_key: 'f'.repeat(64),
      owner: { id: '1' },
      nonsense: 42,
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({
      name: 'sdkpp Demo Game',
      verify_key: emu.applicationPublicKey,
      description: 'Catch falling stars with friends',
      tags: ['arcade', 'multiplayer'],
      custom_install_url: 'https://example.com/install',
      role_connections_verification_url: 'https://example.com/verify',
      install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
      integration_types_config: {
        0: { oauth2_install_params: { scopes: ['bot'], permissions: '3072' } },
        1: {},
      },
    });
    expect(edited.json.icon).toMatch(/^[0-9a-f]{32}$/);
    expect(edited.json.cover_image).toMatch(/^[0-9a-f]{32}$/);
    expect(edited.json).not.toHaveProperty('nonsense');
    expect(await me(emu)).toMatchObject({ json: { description: 'Catch falling stars with friends' } });
    // Only the edit's field names reach the log, never the values.
    expect(logs).toContain(
      '[application] edited: description, icon, coverImage, tags, customInstallUrl, roleConnectionsVerificationUrl, installParams, installContexts',
    );
    expect(logs.some((l) => l.includes('example.com'))).toBe(false);

    // A field left out stays; null clears.
    const cleared = await me(emu, { icon: null, tags: null, install_params: null, custom_install_url: '' });
    expect(cleared.json).toMatchObject({ icon: null, description: 'Catch falling stars with friends' });
    expect(cleared.json).not.toHaveProperty('tags');
    expect(cleared.json).not.toHaveProperty('install_params');
    expect(cleared.json).not.toHaveProperty('custom_install_url');
    // Without the user context the user install count goes too.
    const guildOnly = await me(emu, { integration_types_config: { 0: {} } });
    expect(guildOnly.json.integration_types_config).toEqual({ 0: {} });
    expect(guildOnly.json).not.toHaveProperty('approximate_user_install_count');
  });

  it('answers bad bodies with the platform’s field errors and changes nothing', async () => {
    const { emu } = await loggedEmulator(running, { users: 1 });
    const bad = await me(emu, {
      description: 'x'.repeat(401),
      icon: 'not an image',
      tags: ['ok', 'a tag much longer than twenty', 7, 'four', 'five'],
      custom_install_url: 'ftp://example.com/',
      role_connections_verification_url: 'not a url',
      interactions_endpoint_url: 'javascript:alert(1)',
      install_params: { scopes: ['bot', 'nope'], permissions: 'all' },
      integration_types_config: { 1: { oauth2_install_params: { scopes: ['bot'] } }, 2: {} },
      flags: 1,
      event_webhooks_url: 'https://example.com/events',
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect(bad.json.errors).toEqual({
      description: {
        _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 0 and 400 in length.' }],
      },
      icon: {
        _errors: [{ code: 'BINARY_TYPE_INVALID', message: 'A data URI of a png, jpeg, gif or webp image.' }],
      },
      tags: {
        1: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 20 in length.' }] },
        2: { _errors: [{ code: 'BASE_TYPE_STRING', message: 'Must be a string.' }] },
      },
      custom_install_url: {
        _errors: [
          {
            code: 'URL_TYPE_INVALID_SCHEME',
            message: "Scheme \"ftp\" is not supported. Scheme must be one of ('http', 'https').",
          },
        ],
      },
      role_connections_verification_url: {
        _errors: [{ code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' }],
      },
      interactions_endpoint_url: {
        _errors: [
          {
            code: 'URL_TYPE_INVALID_SCHEME',
            message: "Scheme \"javascript\" is not supported. Scheme must be one of ('http', 'https').",
          },
        ],
      },
      install_params: {
        scopes: {
          1: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value "nope" is not a valid scope.' }] },
        },
        permissions: {
          _errors: [
            { code: 'NUMBER_TYPE_COERCE', message: 'Value "all" is not a bitfield of known permissions.' },
          ],
        },
      },
      integration_types_config: {
        1: {
          oauth2_install_params: {
            scopes: {
              0: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'A user install cannot add a bot.' }] },
            },
          },
        },
        2: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (0, 1).' }] },
      },
      flags: {
        _errors: [
          {
            code: 'BASE_TYPE_CHOICES',
            message:
              'Only GATEWAY_PRESENCE_LIMITED, GATEWAY_GUILD_MEMBERS_LIMITED and GATEWAY_MESSAGE_CONTENT_LIMITED may change.',
          },
        ],
      },
      event_webhooks_url: {
        _errors: [
          {
            code: 'BASE_TYPE_CHOICES',
            message:
              'The emulator sets the webhook events URL at start (--webhook-events-url), not through this endpoint.',
          },
        ],
      },
    });
    // One bad field keeps the good ones of the same body out too.
    const mixed = await me(emu, { description: 'kept?', tags: 'arcade' });
    expect(mixed.json.errors).toEqual({
      tags: { _errors: [{ code: 'BASE_TYPE_LIST', message: 'Must be a list.' }] },
    });
    const sixTags = await me(emu, { tags: ['a', 'b', 'c', 'd', 'e', 'f'] });
    expect(sixTags.json.errors).toEqual({
      tags: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 5 or fewer in length.' }] },
    });
    const noContext = await me(emu, { integration_types_config: {} });
    expect(noContext.json.errors).toEqual({
      integration_types_config: {
        _errors: [{ code: 'BASE_TYPE_MIN_LENGTH', message: 'Must be 1 or more in length.' }],
      },
    });
    expect((await me(emu, [1, 2])).json).toMatchObject({ code: 50035 });
    expect(
      (await call(emu, `Bot ${emu.botToken}`, 'PATCH', '/applications/@me', '{"description":')).status,
    ).toBe(400);
    expect((await me(emu)).json).toMatchObject({
      description: '',
      icon: null,
      interactions_endpoint_url: null,
    });
    expect((await me(emu)).json).not.toHaveProperty('tags');
  });

  it('switches the privileged intents with the limited intent flags, as the portal toggles do', async () => {
    const { emu } = await loggedEmulator(running, { users: 1 });
    const guildId = emu.guilds()[0]?.id ?? '';
    emu.addBotToGuild(guildId);
    const members = (): Promise<number> =>
      call(emu, `Bot ${emu.botToken}`, 'GET', `/guilds/${guildId}/members?limit=5`).then((r) => r.status);
    expect(await members()).toBe(403);
    // A client sends back the flags it read with a bit added: the read-only bits it carries are as they are.
    const before = (await me(emu)).json.flags as number;
    const on = await me(emu, { flags: before | (1 << 15) });
    expect(on.json.flags).toBe(1 << 15);
    expect(await members()).toBe(200);
    const off = await me(emu, { flags: 0 });
    expect(off.json.flags).toBe(0);
    expect(await members()).toBe(403);
  });

  it('checks a new interactions endpoint with a signed PING and refuses one that fails', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 1 });
    // An endpoint checking with some other key refuses the emulator's PING: the URL is refused.
    const stranger = await verifyingEndpoint(() => 'a'.repeat(64));
    cleanups.push(() => void stranger.close());
    const refused = await me(emu, { interactions_endpoint_url: stranger.url, description: 'not kept' });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        interactions_endpoint_url: {
          _errors: [
            {
              code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
              message: 'The specified interactions endpoint URL could not be verified.',
            },
          ],
        },
      },
    });
    expect(stranger.received.map((r) => [r.type, r.verified])).toEqual([[1, false]]);
    expect((await me(emu)).json).toMatchObject({ interactions_endpoint_url: null, description: '' });
    // Nothing listening: refused the same way.
    const closed = await verifyingEndpoint(() => emu.applicationPublicKey);
    await closed.close();
    expect((await me(emu, { interactions_endpoint_url: closed.url })).json).toMatchObject({ code: 50035 });

    // The endpoint that checks with verify_key passes: PING verified, the forged one refused.
    const app = await endpoint(emu);
    const set = await me(emu, { interactions_endpoint_url: app.url });
    expect(set.status).toBe(200);
    expect(set.json.interactions_endpoint_url).toBe(app.url);
    expect(app.received.map((r) => [r.type, r.verified])).toEqual([
      [1, true],
      [1, false],
    ]);
    // Interactions now go there, signed with the same key.
    emu.addBotToGuild(emu.guilds()[0]?.id ?? '');
    await call(emu, `Bot ${emu.botToken}`, 'POST', `/applications/${emu.applicationId}/commands`, {
      name: 'score',
      description: 'Show the score',
    });
    const general = emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
    const used = await emu.invokeCommand({ user: 'alice', command: 'score', channel: general });
    expect(used.delivery).toMatch(/^http 200/);
    expect(app.received.at(-1)).toMatchObject({ type: 2, verified: true });
    expect(emu.channelMessages(general).at(-1)?.content).toBe('verified');
    // null goes back to the gateway, with no check.
    const back = await me(emu, { interactions_endpoint_url: null });
    expect(back.json.interactions_endpoint_url).toBeNull();
    expect(logs.some((l) => l.includes(app.url))).toBe(false);
  });

  it('keeps the key pair and the edits in the saved state; an older state gets a key once', async () => {
    const first = await startEmulator({ users: 1 });
    running.push(first);
    const app = await endpoint(first);
    expect(
      (
        await me(first, {
          description: 'Saved',
          tags: ['kept'],
          interactions_endpoint_url: app.url,
          flags: 1 << 19,
        })
      ).status,
    ).toBe(200);
    const saved = first.exportState();
    await first.close();

    const second = await startEmulator({ state: saved });
    running.push(second);
    expect(second.applicationPublicKey).toBe(first.applicationPublicKey);
    expect(second.clientSecret).toBe(first.clientSecret);
    expect((await me(second)).json).toMatchObject({
      verify_key: first.applicationPublicKey,
      description: 'Saved',
      tags: ['kept'],
      interactions_endpoint_url: app.url,
      flags: 1 << 19,
    });
    // An endpoint given at start replaces the saved one.
    const other = await endpoint(second);
    const third = await startEmulator({ state: second.exportState(), interactionsEndpointUrl: other.url });
    running.push(third);
    expect((await me(third)).json.interactions_endpoint_url).toBe(other.url);

    // A state saved before the application kept its key and portal settings still loads: it gets a new key
    // and the defaults, and the next save keeps that key.
    const old = structuredClone(saved);
    const application = old.data.application as Record<string, unknown>;
    for (const field of [
      'signatureKey',
      'description',
      'icon',
      'coverImage',
      'tags',
      'customInstallUrl',
      'roleConnectionsVerificationUrl',
      'installParams',
      'installContexts',
      'interactionsEndpointUrl',
    ]) {
      Reflect.deleteProperty(application, field);
    }
    const migrated = await startEmulator({ state: old });
    running.push(migrated);
    expect(migrated.applicationPublicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(migrated.applicationPublicKey).not.toBe(first.applicationPublicKey);
    expect((await me(migrated)).json).toMatchObject({
      description: '',
      interactions_endpoint_url: null,
      integration_types_config: { 0: {}, 1: {} },
    });
    const again = await startEmulator({ state: migrated.exportState() });
    running.push(again);
    expect(again.applicationPublicKey).toBe(migrated.applicationPublicKey);

    // A damaged key is refused by path, as any damaged field is.
    const damaged = structuredClone(saved);
    const key = (damaged.data.application as { signatureKey: { x: string } }).signatureKey;
    key.x = `${key.x.startsWith('A') ? 'B' : 'A'}${key.x.slice(1)}`;
    await expect(startEmulator({ state: damaged })).rejects.toThrow(
      "data.application.signatureKey: is not the seed's public key",
    );
  });
});
