import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { verifyKey } from 'discord-interactions';
import { describe, expect, it } from 'vitest';

import {
  createInteractionsHandler,
  InteractionCallbackType,
} from '../../packages/sdkpp/src/backend/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { botSession } from './botHelpers.js';
import { call as apiCall, closeAfterEach, loggedEmulator, withCommand } from './lobbyHelpers.js';

type Json = Record<string, unknown> & Record<string, unknown>[];
const call = apiCall<Json>;
const { running, cleanups } = closeAfterEach();

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`;
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function general(emu: Emulator): string {
  return emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
}

describe('application commands over HTTP', () => {
  it('keeps the limits: 15 per context-menu type, one global entry point, and names unique per type', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    const bot = `Bot ${emu.botToken}`;
    const base = `/applications/${emu.applicationId}/commands`;
    for (let i = 0; i < 15; i += 1) {
      expect((await call(emu, bot, 'POST', base, { type: 2, name: `Wave ${i}` })).status).toBe(201);
    }
    const sixteenth = await call(emu, bot, 'POST', base, { type: 2, name: 'Wave 15' });
    expect([sixteenth.status, sixteenth.json.code]).toEqual([400, 30032]);
    // The message type counts apart, and the same name again replaces (200).
    expect((await call(emu, bot, 'POST', base, { type: 3, name: 'Wave 0' })).status).toBe(201);
    expect((await call(emu, bot, 'POST', base, { type: 2, name: 'Wave 0' })).status).toBe(200);
    const entry = { type: 4, name: 'launch', description: 'Play', handler: 2 };
    expect((await call(emu, bot, 'POST', base, entry)).status).toBe(201);
    const second = await call(emu, bot, 'POST', base, { ...entry, name: 'launch2' });
    expect(second.json).toMatchObject({ code: 50035, errors: { type: {} } });
    const guildId = emu.guilds()[0]?.id ?? '';
    const inGuild = await call(
      emu,
      bot,
      'POST',
      `/applications/${emu.applicationId}/guilds/${guildId}/commands`,
      entry,
    );
    expect(inGuild.json).toMatchObject({ code: 50035, errors: { type: {} } });
    const noHandler = await call(emu, bot, 'PUT', base, [{ type: 4, name: 'launch', description: 'Play' }]);
    expect(noHandler.json).toMatchObject({ code: 50035, errors: { handler: {} } });
    const badName = await call(emu, bot, 'POST', base, { name: 'Has Spaces', description: 'x' });
    expect(badName.json).toMatchObject({ code: 50035, errors: { name: {} } });
    // Bulk overwrite: what is named again keeps its id, the rest goes.
    const list = await call(emu, bot, 'GET', base);
    const keepId = list.json.find((c) => c.name === 'launch')?.id;
    const overwritten = await call(emu, bot, 'PUT', base, [
      entry,
      { name: 'score', description: 'Show the score' },
    ]);
    expect(overwritten.json.map((c) => c.name)).toEqual(['launch', 'score']);
    expect(overwritten.json[0]?.id).toBe(keepId);
  });
});

describe('interactions delivered over HTTP, signed', () => {
  it('checks the endpoint as the portal does: a signed PING answered, a forged one refused', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    const careless = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":1}');
      }),
    );
    await expect(emu.setInteractionsEndpointUrl(careless)).rejects.toThrow(
      'must refuse a wrongly signed request with 401',
    );
    const url = await listen(
      createServer(
        createInteractionsHandler({
          publicKey: emu.applicationPublicKey,
          onInteraction: () => ({ type: InteractionCallbackType.Pong }),
        }),
      ),
    );
    await emu.setInteractionsEndpointUrl(url);
  });

  it('reads only the options given: one named like an Object.prototype member is absent when not sent', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    emu.addBotToGuild(emu.guilds()[0]?.id ?? '');
    await withCommand(emu, {
      options: [
        { type: 3, name: 'constructor', description: 'Who builds' },
        { type: 3, name: 'tostring', description: 'How to print' },
      ],
    });
    const { gw } = await botSession(emu, 1);
    cleanups.push(() => gw.ws.close());
    const without = await emu.invokeCommand({ user: 'alice', command: 'score', channel: general(emu) });
    expect(without.delivery).toBe('gateway');
    const given = await emu.invokeCommand({
      user: 'alice',
      command: 'score',
      channel: general(emu),
      options: { constructor: 'bob' },
    });
    expect(given.delivery).toBe('gateway');
    const first = (await gw.dispatch('INTERACTION_CREATE')).d as { data: { options?: unknown[] } };
    expect(first.data.options ?? []).toEqual([]);
    const second = (await gw.dispatch('INTERACTION_CREATE')).d as { data: { options?: unknown[] } };
    expect(second.data.options).toEqual([{ name: 'constructor', type: 3, value: 'bob' }]);
  });

  it('refuses an endpoint answer nested past 32 levels: nothing is posted, and the channel and the save stay whole', async () => {
    const deep = `{"type":4,"data":{"content":"x","embeds":[{"title":"t","x":${'['.repeat(20_000)}${']'.repeat(20_000)}}]}}`;
    const url = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(deep);
      }),
    );
    const { emu, logs } = await loggedEmulator(running, { users: 2, interactionsEndpointUrl: url });
    emu.addBotToGuild(emu.guilds()[0]?.id ?? '');
    await withCommand(emu);
    const interaction = await emu.invokeCommand({ user: 'alice', command: 'score', channel: general(emu) });
    expect(interaction.delivery).toBe('http 200: JSON nested deeper than 32 levels');
    expect(logs.some((l) => l.includes("the endpoint's answer is nested too deep"))).toBe(true);
    const list = await call(emu, `Bot ${emu.botToken}`, 'GET', `/channels/${general(emu)}/messages`);
    expect([list.status, list.json]).toEqual([200, []]);
    expect(() => JSON.stringify(emu.exportState())).not.toThrow();
  });

  it("signs so that discord-interactions' verifyKey accepts it, and not a tampered body", async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    await withCommand(emu);
    const seen: { body: string; signature: string; timestamp: string }[] = [];
    const url = await listen(
      createServer((req, res) => {
        void readAll(req).then((body) => {
          seen.push({
            body,
            signature: String(req.headers['x-signature-ed25519']),
            timestamp: String(req.headers['x-signature-timestamp']),
          });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ type: 4, data: { content: 'ok' } }));
        });
      }),
    );
    emu.addBotToGuild(emu.guilds()[0]?.id ?? '');
    // Set without the portal check (this endpoint does not verify), as an option would.
    const second = await loggedEmulator(running, { users: 2, interactionsEndpointUrl: url });
    await withCommand(second.emu);
    const interaction = await second.emu.invokeCommand({
      user: 'alice',
      command: 'score',
      channel: general(second.emu),
    });
    expect(interaction.delivery).toBe('http 200');
    const last = seen.at(-1);
    if (!last) throw new Error('nothing arrived');
    expect(await verifyKey(last.body, last.signature, last.timestamp, second.emu.applicationPublicKey)).toBe(
      true,
    );
    expect(
      await verifyKey(`${last.body} `, last.signature, last.timestamp, second.emu.applicationPublicKey),
    ).toBe(false);
    const payload = JSON.parse(last.body) as Record<string, unknown>;
    expect(payload).toMatchObject({
      type: 2,
      data: { name: 'score', type: 1 },
      authorizing_integration_owners: { '0': emu.guilds().length > 0 ? second.emu.guilds()[0]?.id : '' },
      context: 0,
      attachment_size_limit: 10 * 1024 * 1024,
      member: { user: { username: 'alice' } },
    });
    expect(typeof payload.app_permissions).toBe('string');
    expect(second.emu.channelMessages(general(second.emu)).at(-1)?.content).toBe('ok');
  });

  it('defers, then edits the original into a poll; follow-ups stop at 5 for a user-installed app', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    await withCommand(emu);
    const tokens = new Map<string, string>();
    const url = await listen(
      createServer(
        createInteractionsHandler({
          publicKey: emu.applicationPublicKey,
          onInteraction: (interaction) => {
            tokens.set(interaction.id, interaction.token);
            return { type: InteractionCallbackType.DeferredChannelMessageWithSource };
          },
        }),
      ),
    );
    await emu.setInteractionsEndpointUrl(url);
    const used = await emu.invokeCommand({
      user: 'alice',
      command: 'score',
      channel: general(emu),
      installation: 'user',
    });
    expect(used.responseType).toBe(5);
    const token = tokens.get(used.id) ?? '';
    const hook = `/webhooks/${emu.applicationId}/${token}`;
    const loading = await call(emu, null, 'GET', `${hook}/messages/@original`);
    expect(loading.json.flags).toBe(1 << 7);
    const poll = {
      question: { text: 'Rematch?' },
      answers: [{ poll_media: { text: 'Yes' } }, { poll_media: { text: 'No' } }],
    };
    const edited = await call(emu, null, 'PATCH', `${hook}/messages/@original`, { content: 'Vote', poll });
    expect(edited.json).toMatchObject({
      content: 'Vote',
      flags: 0,
      poll: { question: { text: 'Rematch?' } },
    });
    const again = await call(emu, null, 'PATCH', `${hook}/messages/@original`, { poll });
    expect(again.json).toMatchObject({ code: 50035, errors: { poll: {} } });
    for (let i = 1; i <= 5; i += 1) {
      const follow = await call(emu, null, 'POST', hook, { content: `follow-up ${i}` });
      expect(follow.json.interaction_metadata).toMatchObject({
        authorizing_integration_owners: { '1': emu.users[0]?.id },
      });
    }
    const sixth = await call(emu, null, 'POST', hook, { content: 'follow-up 6' });
    expect([sixth.status, sixth.json.code]).toEqual([400, 40094]);
    // AutoMod blocks an edit.
    emu.setAutoModKeywords(emu.guilds()[0]?.id ?? '', ['cheat']);
    const blocked = await call(emu, null, 'PATCH', `${hook}/messages/@original`, {
      content: 'free cheat codes',
    });
    expect([blocked.status, blocked.json.code]).toEqual([400, 200000]);
  });
});

describe('a careless or hostile interactions endpoint', () => {
  it('is cut off past 1 MiB of answer and after 3 s of silence, and the interaction fails with a log line', async () => {
    let mode: 'flood' | 'silent' = 'flood';
    const url = await listen(
      createServer((_req, res) => {
        if (mode === 'silent') return; // never answers
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = (): void => {
          while (res.write(chunk));
          res.once('drain', pump);
        };
        res.on('error', () => undefined);
        pump();
      }),
    );
    const flooded = await loggedEmulator(running, { users: 2, interactionsEndpointUrl: url });
    await withCommand(flooded.emu);
    const first = await flooded.emu.invokeCommand({
      user: 'alice',
      command: 'score',
      channel: general(flooded.emu),
    });
    expect(first.delivery).toBe('failed: the answer is over 1048576 bytes');
    expect(flooded.logs.some((l) => l.includes('not delivered: failed: the answer is over'))).toBe(true);
    mode = 'silent';
    const started = Date.now();
    const second = await flooded.emu.invokeCommand({
      user: 'alice',
      command: 'score',
      channel: general(flooded.emu),
    });
    expect(second.delivery).toMatch(/^failed: /);
    expect(Date.now() - started).toBeLessThan(4500);
  }, 15_000);
});

describe('interaction callbacks over the gateway route', () => {
  it('refuses a late response (10062), a second one (40060), a wrong type, and disabled on a modal select', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    await withCommand(emu);
    const cb = (id: string, token: string, body: unknown) =>
      call(emu, null, 'POST', `/interactions/${id}/${token}/callback`, body);
    const orphan = await emu.invokeCommand({ user: 'alice', command: 'score', channel: general(emu) });
    expect(orphan.delivery).toBe('failed: no bot session and no interactions endpoint URL');
    const { tokenOf } = await listeningBot(emu);
    const first = await emu.invokeCommand({ user: 'alice', command: 'score', channel: general(emu) });
    expect(first.delivery).toBe('gateway');
    const token = await tokenOf(first.id);
    const wrongType = await cb(first.id, token, { type: 7, data: { content: 'x' } });
    expect(wrongType.json).toMatchObject({ code: 50035, errors: { type: {} } });
    const modal = {
      type: 9,
      data: {
        custom_id: 'm',
        title: 'Pick',
        components: [
          {
            type: 18,
            label: 'Class',
            component: { type: 3, custom_id: 'c', disabled: true, options: [{ label: 'A', value: 'a' }] },
          },
        ],
      },
    };
    const disabled = await cb(first.id, token, modal);
    expect(disabled.json).toMatchObject({
      code: 50035,
      errors: {
        data: {
          components: {
            0: { component: { disabled: { _errors: [{ code: 'COMPONENT_FIELD_NOT_ALLOWED_IN_MODAL' }] } } },
          },
        },
      },
    });
    const labelled = await cb(first.id, token, {
      type: 9,
      data: {
        custom_id: 'm',
        title: 'Pick',
        components: [
          { type: 18, label: 'Name', component: { type: 4, custom_id: 'n', style: 1, label: 'Name' } },
        ],
      },
    });
    expect(labelled.json).toMatchObject({
      errors: { data: { components: { 0: { component: { label: {} } } } } },
    });
    expect((await cb(first.id, token, { type: 4, data: { content: 'hi' } })).status).toBe(204);
    const twice = await cb(first.id, token, { type: 4, data: { content: 'hi' } });
    expect([twice.status, twice.json.code]).toEqual([400, 40060]);
    const late = await emu.invokeCommand({ user: 'alice', command: 'score', channel: general(emu) });
    emu.advanceTime(3001);
    const lateReply = await cb(late.id, await tokenOf(late.id), { type: 4, data: { content: 'hi' } });
    expect([lateReply.status, lateReply.json.code]).toEqual([404, 10062]);
  });

  it('makes user-installed responses ephemeral where USE_EXTERNAL_APPS is off and the app is not in the guild', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    await withCommand(emu);
    const guild = emu.createGuild({ name: 'No apps', owner: 'bob', members: ['alice'] });
    const channel = guild.channels[0]?.id ?? '';
    const { tokenOf } = await listeningBot(emu);
    const used = await emu.invokeCommand({ user: 'alice', command: 'score', channel, installation: 'user' });
    const token = await tokenOf(used.id);
    const reply = await call(
      emu,
      null,
      'POST',
      `/interactions/${used.id}/${token}/callback?with_response=true`,
      {
        type: 4,
        data: { content: 'only you' },
      },
    );
    expect(reply.json).toMatchObject({
      interaction: { response_message_ephemeral: true },
      resource: { type: 4 },
    });
    expect(emu.channelMessages(channel)).toEqual([]);
    expect(emu.interactions().find((i) => i.id === used.id)?.privateMessages[0]?.content).toBe('only you');
  });
});

/** A bot session that collects INTERACTION_CREATE payloads; `tokenOf(id)` reads one's token as the app would. */
async function listeningBot(emu: Emulator): Promise<{ tokenOf: (id: string) => Promise<string> }> {
  const { gw } = await botSession(emu, 1);
  cleanups.push(() => gw.ws.close());
  return {
    tokenOf: async (id) => {
      const payload = await gw.next((p) => p.t === 'INTERACTION_CREATE' && (p.d as { id: string }).id === id);
      return (payload.d as { token: string }).token;
    },
  };
}
