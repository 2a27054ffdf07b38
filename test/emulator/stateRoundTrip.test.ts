import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

import { afterAll, describe, expect, it } from 'vitest';

import {
  createInteractionsHandler,
  InteractionCallbackType,
} from '../../packages/sdkpp/src/backend/index.js';
import { loadStateFile, saveStateFile } from '../../packages/emulator/src/cli/stateFile.js';
import { startEmulator, type Emulator, type EmulatorSavedState } from '../../packages/emulator/src/index.js';
import { checkStoreState } from '../../packages/emulator/src/store/schema.js';
import { postJson, signIn } from './helpers.js';
import { call as apiCall, closeAfterEach } from './lobbyHelpers.js';

type Json = Record<string, unknown> & Record<string, unknown>[];
const call = apiCall<Json>;
const { running, cleanups } = closeAfterEach();
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-roundtrip-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Keys that name members of Object.prototype, as a hostile peer would send them. */
const HOSTILE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
/** A value of every kind a JSON body can carry, with names meant to trip up code that indexes by them. */
const HOSTILE_TEXT = '__proto__ \u0000 \u202e ‮ 🎮 <script>alert(1)</script> ${x} %s';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`;
}

/** A raw JSON body (so that `__proto__` keys reach the server as own keys, as JSON.parse makes them). */
async function raw(
  emu: Emulator,
  auth: string,
  method: string,
  route: string,
  body: string,
): Promise<number> {
  const response = await fetch(`${emu.api}${route}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: auth },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

function ok(status: number, what: string): void {
  if (status < 200 || status > 299) throw new Error(`${what}: HTTP ${status}`);
}

/** Drives every kind of record into the store, legitimately and with hostile values. */
async function buildHostileWorld(emu: Emulator): Promise<void> {
  const bot = `Bot ${emu.botToken}`;
  const guild = emu.guilds()[0];
  if (!guild) throw new Error('no seeded guild');
  emu.addBotToGuild(guild.id, { permissions: (1n << 53n) - 1n });
  const general = guild.channels.find((c) => c.name === 'general')?.id ?? '';
  const [alice, bob, carol] = emu.users;
  if (!alice || !bob || !carol) throw new Error('no users');
  // Premium: every kind of SKU, bought, consumed, cancelled, tested; then years pass (renewals
  // catch up) before the rest, which time would expire.
  const pass = emu.createSku({
    name: '__proto__',
    type: 'subscription',
    periodMs: 60_000,
    price: { amount: 499, currency: 'eur' },
  });
  const potion = emu.createSku({ name: 'Potion', type: 'consumable' });
  const sword = emu.createSku({ name: 'Sword', type: 'durable' });
  emu.purchaseSku('alice', pass.id);
  const ending = emu.purchaseSku('bob', pass.id);
  emu.cancelSubscription(ending.subscription?.id ?? '');
  const drink = emu.purchaseSku('alice', potion.id);
  ok(
    (
      await call(
        emu,
        bot,
        'POST',
        `/applications/${emu.applicationId}/entitlements/${drink.entitlement.id}/consume`,
        {},
      )
    ).status,
    'consume',
  );
  emu.purchaseSku('carol', sword.id);
  ok(
    (
      await call(emu, bot, 'POST', `/applications/${emu.applicationId}/entitlements`, {
        sku_id: sword.id,
        owner_id: guild.id,
        owner_type: 1,
      })
    ).status,
    'test entitlement',
  );
  ok(
    (
      await call(emu, bot, 'POST', `/applications/${emu.applicationId}/emojis`, {
        name: '__proto__',
        image: `data:image/png;base64,${Buffer.alloc(8, 1).toString('base64')}`,
      })
    ).status,
    'emoji',
  );
  emu.updateUser('carol', {
    globalName: '__proto__',
    avatar: 'a_0123456789abcdef0123456789abcdef',
    primaryGuildTag: 'TAG',
    premiumType: 2,
  });
  // Over a million one-minute periods to renew: done at once, not one by one.
  const jumped = performance.now();
  emu.advanceTime(3 * 365 * 86_400_000);
  if (performance.now() - jumped > 1000) throw new Error('renewals took more than a second');
  const aliceToken = (await signIn(emu, 'alice')).access_token;
  const bobToken = (await signIn(emu, 'bob')).access_token;
  const aliceAuth = `Bearer ${aliceToken}`;

  // Relationships in both graphs, and direct messages with hostile metadata.
  ok(
    (await postJson(`${emu.api}/users/@me/relationships`, { username: 'bob' }, { Authorization: aliceAuth }))
      .status,
    'friend request',
  );
  ok(
    (await call(emu, `Bearer ${bobToken}`, 'PUT', `/users/@me/relationships/${alice.id}`, {})).status,
    'accept',
  );
  await call(emu, aliceAuth, 'PUT', `/users/@me/game-relationships/${carol.id}`, {});
  const metadata = Object.fromEntries(HOSTILE_KEYS.map((k) => [k, HOSTILE_TEXT]));
  await raw(
    emu,
    aliceAuth,
    'POST',
    `/users/${bob.id}/messages`,
    `{"content":${JSON.stringify(HOSTILE_TEXT)},"metadata":${JSON.stringify(metadata)},"__proto__":{"admin":true}}`,
  );
  ok((await call(emu, aliceAuth, 'POST', `/users/${bob.id}/messages`, { content: 'hello' })).status, 'dm');

  // Provisional accounts with identities named like prototype members.
  for (const id of HOSTILE_KEYS) {
    await call(emu, bot, 'POST', '/partner-sdk/token/bot', {
      external_user_id: id,
      preferred_global_name: id,
    });
  }

  // A lobby with hostile metadata, a linked channel, messages and an invite.
  const lobby = await call(emu, bot, 'POST', '/lobbies', {
    metadata,
    members: [{ id: alice.id, metadata, flags: 1 }, { id: bob.id }],
    secret: '__proto__',
  });
  const lobbyId = String(lobby.json.id);
  ok(lobby.status, 'lobby');
  ok(
    (await call(emu, bot, 'PATCH', `/lobbies/${lobbyId}/channel-linking`, { channel_id: general })).status,
    'link',
  );
  await raw(
    emu,
    bot,
    'POST',
    `/lobbies/${lobbyId}/messages`,
    `{"content":"gg","metadata":{"__proto__":"x"},"__proto__":{"polluted":1}}`,
  );
  ok(
    (await call(emu, aliceAuth, 'POST', `/lobbies/${lobbyId}/messages`, { content: HOSTILE_TEXT })).status,
    'lobby message',
  );
  await call(emu, aliceAuth, 'POST', `/lobbies/${lobbyId}/members/${bob.id}/invites`, {});

  // Guild: roles, overwrites, messages with embeds, components, replies, forwards, pins, a never-expiring invite.
  const role = await call(emu, bot, 'POST', `/guilds/${guild.id}/roles`, {
    name: '__proto__',
    permissions: '1024',
    color: 0xffffff,
  });
  ok(role.status, 'role');
  ok(
    (await call(emu, bot, 'PUT', `/guilds/${guild.id}/members/${bob.id}/roles/${String(role.json.id)}`, {}))
      .status,
    'give role',
  );
  ok(
    (
      await call(emu, bot, 'PUT', `/channels/${general}/permissions/${String(role.json.id)}`, {
        type: 0,
        allow: '2048',
        deny: '0',
      })
    ).status,
    'overwrite',
  );
  const category = await call(emu, bot, 'POST', `/guilds/${guild.id}/channels`, {
    name: 'constructor',
    type: 4,
  });
  ok(category.status, 'category');
  ok(
    (
      await call(emu, bot, 'POST', `/guilds/${guild.id}/channels`, {
        name: 'toString',
        parent_id: category.json.id,
        topic: HOSTILE_TEXT,
        rate_limit_per_user: 5,
      })
    ).status,
    'child channel',
  );
  const embed = {
    title: HOSTILE_TEXT,
    description: 'd',
    fields: [{ name: '__proto__', value: 'x', inline: true }],
    footer: { text: 'f' },
    color: 0xffffff,
  };
  const first = await call(emu, bot, 'POST', `/channels/${general}/messages`, {
    content: HOSTILE_TEXT,
    nonce: '__proto__',
    embeds: [embed],
    components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: '__proto__', label: 'go' }] }],
  });
  ok(first.status, 'channel message');
  await raw(
    emu,
    bot,
    'POST',
    `/channels/${general}/messages`,
    `{"content":"p","embeds":[{"title":"t","__proto__":{"x":1}}],"__proto__":{"y":2}}`,
  );
  const firstId = String(first.json.id);
  ok(
    (
      await call(emu, bot, 'POST', `/channels/${general}/messages`, {
        content: 're',
        message_reference: { message_id: firstId },
      })
    ).status,
    'reply',
  );
  ok(
    (
      await call(emu, bot, 'POST', `/channels/${general}/messages`, {
        message_reference: { type: 1, message_id: firstId, channel_id: general },
      })
    ).status,
    'forward',
  );
  ok((await call(emu, bot, 'PUT', `/channels/${general}/messages/pins/${firstId}`, {})).status, 'pin');
  const form = new FormData();
  form.set(
    'payload_json',
    JSON.stringify({ content: 'file', attachments: [{ id: 0, description: HOSTILE_TEXT }] }),
  );
  form.set('files[0]', new Blob([Buffer.from('hi')], { type: 'text/plain' }), '__proto__.txt');
  const upload = await fetch(`${emu.api}/channels/${general}/messages`, {
    method: 'POST',
    headers: { Authorization: bot },
    body: form,
  });
  ok(upload.status, 'upload');
  emu.postChannelMessage(general, 'alice', `<@${bob.id}> <@&${String(role.json.id)}> ${HOSTILE_TEXT}`);
  ok(
    (
      await call(emu, bot, 'POST', `/channels/${general}/invites`, {
        max_age: 0,
        max_uses: 3,
        role_ids: [role.json.id],
      })
    ).status,
    'guild invite',
  );

  // Commands, interactions answered with components, a poll, follow-ups.
  const base = `/applications/${emu.applicationId}/commands`;
  ok(
    (
      await call(emu, bot, 'POST', base, {
        name: '__proto__',
        description: HOSTILE_TEXT.slice(0, 100),
        options: [
          {
            type: 3,
            name: 'mode',
            description: 'd',
            choices: [{ name: '__proto__', value: 'b' }],
          },
        ],
        default_member_permissions: '0',
      })
    ).status,
    'command',
  );
  ok(
    (await call(emu, bot, 'POST', base, { type: 4, name: 'launch', description: 'Play', handler: 1 })).status,
    'entry point',
  );
  ok(
    (
      await call(emu, bot, 'POST', `/applications/${emu.applicationId}/guilds/${guild.id}/commands`, {
        type: 2,
        name: 'Wave',
      })
    ).status,
    'guild command',
  );
  const tokens = new Map<string, string>();
  const url = await listen(
    createServer(
      createInteractionsHandler({
        publicKey: emu.applicationPublicKey,
        onInteraction: (interaction) => {
          tokens.set(interaction.id, interaction.token);
          return {
            type: InteractionCallbackType.ChannelMessageWithSource,
            data: {
              content: HOSTILE_TEXT,
              embeds: [embed],
              components: [
                { type: 1, components: [{ type: 2, style: 1, custom_id: 'again', label: 'again' }] },
              ],
            },
          };
        },
      }),
    ),
  );
  await emu.setInteractionsEndpointUrl(url);
  const used = await emu.invokeCommand({
    user: 'alice',
    command: '__proto__',
    channel: general,
    options: { mode: 'b' },
  });
  const hook = `/webhooks/${emu.applicationId}/${tokens.get(used.id) ?? ''}`;
  ok((await call(emu, null, 'POST', hook, { content: 'follow-up', embeds: [embed] })).status, 'follow-up');
  await emu.invokeCommand({ user: 'bob', command: '__proto__', channel: general, installation: 'user' });
}

/** The data of a state, without what a load resets (idle clocks, invite validity) and the save time. */
function comparable(saved: EmulatorSavedState): Record<string, unknown> {
  const data = structuredClone(saved.data) as Record<string, Record<string, Record<string, unknown>>>;
  for (const lobby of Object.values(data.lobbies ?? {})) lobby.idleSince = null;
  for (const message of Object.values(data.messages ?? {})) {
    if (message.activity) (message.activity as { valid: boolean }).valid = false;
  }
  return data;
}

describe('saved states after hostile input', () => {
  it('save, validate and load again with everything in them', async () => {
    const first = await startEmulator({ users: 4, autoConsent: true, rpc: false });
    running.push(first);
    await buildHostileWorld(first);
    const saved = first.exportState();
    const data = saved.data as Record<string, Record<string, unknown>>;
    // The world is what it should be: every kind of record made it into the state.
    for (const table of [
      'messages',
      'lobbies',
      'lobbyMessages',
      'channelMessages',
      'channelInvites',
      'commands',
      'appEmojis',
      'skus',
      'entitlements',
      'subscriptions',
      'identities',
      'gameRelationships',
    ]) {
      expect(Object.keys(data[table] ?? {}).length, table).toBeGreaterThan(0);
    }
    expect(checkStoreState(saved.data)).toHaveProperty('state');

    // Through the file the CLI writes and reads.
    const file = path.join(dir, 'hostile.json');
    await saveStateFile(file, saved);
    const loaded = await loadStateFile(file);
    if (!loaded) throw new Error('nothing loaded');
    const second = await startEmulator({ state: loaded, rpc: false });
    running.push(second);
    expect(comparable(second.exportState())).toEqual(comparable(saved));

    // And it serves: the dashboard, the channel's messages, a member, the store.
    expect((await fetch(`${second.http}/dashboard/api/state`)).status).toBe(200);
    const bot = `Bot ${second.botToken}`;
    const guild = second.guilds()[0];
    const general = guild?.channels.find((c) => c.name === 'general')?.id ?? '';
    expect((await call(second, bot, 'GET', `/channels/${general}/messages`)).status).toBe(200);
    expect(
      (await call(second, bot, 'GET', `/guilds/${guild?.id ?? ''}/members/${second.users[1]?.id ?? ''}`))
        .status,
    ).toBe(200);
    expect(
      second
        .subscriptions()
        .map((s) => s.status)
        .sort(),
    ).toEqual([0, 1]);
  });
});
