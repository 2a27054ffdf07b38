import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { rawRequest, signIn, TestGateway } from './helpers.js';
import { call as apiCall, closeAfterEach, loggedEmulator, until } from './lobbyHelpers.js';
import {
  ATTACH,
  EMBED_LINKS,
  MANAGE_CHANNELS,
  MANAGE_ROLES,
  READ_HISTORY,
  SEND,
  VIEW,
} from './permissionBits.js';

type Json = Record<string, unknown> & Record<string, unknown>[];
const call = apiCall<Json>;

const { running } = closeAfterEach();

async function setUp(): Promise<{
  emu: Emulator;
  bot: string;
  guildId: string;
  channel: string;
  logs: string[];
}> {
  const { emu, logs } = await loggedEmulator(running, { users: 2 });
  const guild = emu.guilds()[0];
  if (!guild) throw new Error('no seeded guild');
  emu.addBotToGuild(guild.id, {
    permissions: VIEW | SEND | READ_HISTORY | ATTACH | EMBED_LINKS | MANAGE_CHANNELS | MANAGE_ROLES,
  });
  const channel = guild.channels.find((c) => c.name === 'general')?.id ?? '';
  return { emu, bot: `Bot ${emu.botToken}`, guildId: guild.id, channel, logs };
}

/** `{"content":"x","embeds":[{"title":"t","x":[[[…]]]}]}` with `levels` nested arrays. */
function deepMessage(levels: number): string {
  return `{"content":"x","embeds":[{"title":"t","x":${'['.repeat(levels)}${']'.repeat(levels)}}]}`;
}

/** Posts a raw multipart body with this Content-Type. */
async function postMultipart(
  emu: Emulator,
  channel: string,
  contentType: string,
  body: string,
): Promise<{ status: number; json: Json }> {
  const reply = await rawRequest(emu, {
    method: 'POST',
    path: `/api/v10/channels/${channel}/messages`,
    headers: {
      Host: new URL(emu.http).host,
      Authorization: `Bot ${emu.botToken}`,
      'Content-Type': contentType,
      'Content-Length': String(Buffer.byteLength(body)),
    },
    body,
  });
  return { status: reply.status, json: JSON.parse(reply.body) as Json };
}

function part(name: string, value: string, filename?: string): string {
  const disposition =
    filename === undefined
      ? `form-data; name="${name}"`
      : `form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/plain`;
  return `--b0undary\r\nContent-Disposition: ${disposition}\r\n\r\n${value}\r\n`;
}

describe('hostile bodies at the edge (emulator)', () => {
  it('refuses JSON nested past 32 levels before storing anything: the channel and the save stay whole', async () => {
    const { emu, bot, channel } = await setUp();
    const deep = await call(emu, bot, 'POST', `/channels/${channel}/messages`, deepMessage(20_000));
    expect([deep.status, deep.json.code]).toEqual([400, 50035]);
    expect(deep.json.errors).toEqual({
      _errors: [{ code: 'JSON_DEPTH_EXCEEDED', message: 'The JSON nests deeper than 32 levels.' }],
    });
    // The same body inside a multipart payload_json.
    const viaForm = await postMultipart(
      emu,
      channel,
      'multipart/form-data; boundary=b0undary',
      `${part('payload_json', deepMessage(100))}--b0undary--\r\n`,
    );
    expect([viaForm.status, viaForm.json.code]).toEqual([400, 50035]);
    // Nothing was stored: reads and the save work, and the saved world loads again.
    const list = await call(emu, bot, 'GET', `/channels/${channel}/messages`);
    expect(list.status).toBe(200);
    expect(list.json).toEqual([]);
    const saved = JSON.stringify(emu.exportState());
    const { emu: again } = await loggedEmulator(running, { state: JSON.parse(saved) as never });
    expect(again.guilds()[0]?.id).toBe(emu.guilds()[0]?.id);
    // Within the bound, a body is fine.
    const shallow = await call(emu, bot, 'POST', `/channels/${channel}/messages`, deepMessage(20));
    expect(shallow.status).toBe(200);
  });

  it('keeps only the fields an embed and a component have: unknown ones are dropped, not echoed', async () => {
    const { emu, bot, channel } = await setUp();
    const sent = await call(emu, bot, 'POST', `/channels/${channel}/messages`, {
      content: 'hi',
      junk: 'x'.repeat(1000),
      embeds: [
        {
          title: 'Quest',
          junk: { nested: 'x'.repeat(5000) },
          footer: { text: 'f', junk: 1 },
          fields: [{ name: 'a', value: 'b', inline: true, junk: [1, 2] }],
          image: { url: 'https://example.com/a.png', junk: true },
        },
      ],
      components: [
        {
          type: 1,
          junk: 'row',
          components: [
            {
              type: 2,
              style: 1,
              label: 'Go',
              custom_id: 'go',
              junk: { a: 1 },
              emoji: { name: '🎲', junk: 1 },
            },
          ],
        },
      ],
    });
    expect(sent.status).toBe(200);
    const expected = {
      embeds: [
        {
          title: 'Quest',
          footer: { text: 'f' },
          fields: [{ name: 'a', value: 'b', inline: true }],
          image: { url: 'https://example.com/a.png' },
        },
      ],
      components: [
        {
          type: 1,
          components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go', emoji: { name: '🎲' } }],
        },
      ],
    };
    expect(sent.json).toMatchObject(expected);
    expect(JSON.stringify(sent.json)).not.toContain('junk');
    const read = await call(emu, bot, 'GET', `/channels/${channel}/messages/${String(sent.json.id)}`);
    expect(read.json).toMatchObject(expected);
    expect(JSON.stringify(read.json)).not.toContain('junk');
    expect(JSON.stringify(emu.exportState())).not.toContain('junk');
  });

  it("keeps only a command option's own fields, sub-commands' options included", async () => {
    const { emu, bot } = await setUp();
    const made = await call(emu, bot, 'POST', `/applications/${emu.applicationId}/commands`, {
      name: 'quest',
      description: 'Start a quest',
      junk: 'x',
      options: [
        {
          type: 1,
          name: 'start',
          description: 'Start',
          junk: { deep: [1] },
          name_localizations: { fr: 'commencer', 'not a locale': 'y' },
          options: [
            {
              type: 3,
              name: 'zone',
              description: 'Where',
              choices: [{ name: 'Forest', value: 'forest', junk: 1 }],
              junk: 2,
            },
          ],
        },
      ],
    });
    expect(made.status).toBe(201);
    const expected = [
      {
        type: 1,
        name: 'start',
        description: 'Start',
        name_localizations: { fr: 'commencer' },
        options: [
          { type: 3, name: 'zone', description: 'Where', choices: [{ name: 'Forest', value: 'forest' }] },
        ],
      },
    ];
    expect(made.json.options).toMatchObject(expected);
    const read = await call(
      emu,
      bot,
      'GET',
      `/applications/${emu.applicationId}/commands/${String(made.json.id)}`,
    );
    for (const json of [made.json, read.json]) {
      expect(JSON.stringify(json)).not.toMatch(/junk|not a locale/);
    }
  });

  it('says what is wrong with a multipart body, and never dies on a part cut short', async () => {
    const { emu, channel } = await setUp();
    const wrong = (problem: string) => ({
      status: 400,
      code: 50035,
      errors: { _errors: [{ code: 'MULTIPART_BODY_INVALID', message: problem }] },
    });
    const shape = (r: { status: number; json: Json }) => ({
      status: r.status,
      code: r.json.code,
      errors: r.json.errors,
    });
    const payload = part('payload_json', '{"content":"hi"}');
    expect(shape(await postMultipart(emu, channel, 'multipart/form-data', payload))).toEqual(
      wrong('The Content-Type header names no multipart boundary.'),
    );
    expect(shape(await postMultipart(emu, channel, 'multipart/form-data; boundary=other', payload))).toEqual(
      wrong('The body holds no part delimited by the boundary its Content-Type names.'),
    );
    expect(
      shape(await postMultipart(emu, channel, 'multipart/form-data; boundary=b0undary', 'garbage')),
    ).toEqual(wrong('The body holds no part delimited by the boundary its Content-Type names.'));
    // A file part with no closing boundary: the body ends inside it.
    const cut = `${payload}--b0undary\r\nContent-Disposition: form-data; name="files[0]"; filename="a.txt"\r\n\r\nhello`;
    expect(shape(await postMultipart(emu, channel, 'multipart/form-data; boundary=b0undary', cut))).toEqual(
      wrong('The body ends before its closing boundary.'),
    );
    // Still answering.
    expect((await call(emu, `Bot ${emu.botToken}`, 'GET', `/channels/${channel}/messages`)).status).toBe(200);
  });

  it('refuses a file with an empty name unless its attachments entry names it, and serves the named one', async () => {
    const { emu, channel } = await setUp();
    const type = 'multipart/form-data; boundary=b0undary';
    const unnamed = await postMultipart(
      emu,
      channel,
      type,
      `${part('payload_json', '{"content":"x"}')}${part('files[0]', 'hello', '')}--b0undary--\r\n`,
    );
    expect([unnamed.status, unnamed.json.code]).toEqual([400, 50035]);
    expect(unnamed.json.errors).toMatchObject({
      'files[0]': { _errors: [{ code: 'ATTACHMENT_FILENAME_REQUIRED' }] },
    });
    const unnamedInList = await postMultipart(
      emu,
      channel,
      type,
      `${part('payload_json', '{"attachments":[{"id":0}]}')}${part('files[0]', 'hello', '')}--b0undary--\r\n`,
    );
    expect(unnamedInList.json.errors).toMatchObject({
      attachments: { 0: { filename: { _errors: [{ code: 'ATTACHMENT_FILENAME_REQUIRED' }] } } },
    });
    const named = await postMultipart(
      emu,
      channel,
      type,
      `${part('payload_json', '{"attachments":[{"id":0,"filename":"notes.txt"}]}')}${part('files[0]', 'hello', '')}--b0undary--\r\n`,
    );
    expect(named.status).toBe(200);
    const [attachment] = named.json.attachments as { url: string; filename: string }[];
    expect(attachment?.filename).toBe('notes.txt');
    const file = await fetch(attachment?.url ?? '');
    expect([file.status, await file.text()]).toEqual([200, 'hello']);
  });

  it('escapes control characters in log lines: a chosen name cannot forge a line or drive a terminal', async () => {
    const { emu, bot, guildId, logs } = await setUp();
    const name = 'ok\n[oauth2] tokens issued to mallory\u001b[2J\u0000\u2028';
    const role = await call(emu, bot, 'POST', `/guilds/${guildId}/roles`, { name });
    expect(role.status).toBe(200);
    await call(emu, bot, 'POST', `/guilds/${guildId}/channels`, {
      name: `c\r\n[http] GET /forged 200\u009b`,
    });
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    const controls = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
    for (const line of logs) {
      expect(line).not.toMatch(controls);
    }
    expect(
      logs.some((l) => l.includes('role ok\\n[oauth2] tokens issued to mallory\\u001b[2J\\u0000\\u2028')),
    ).toBe(true);
    expect(logs.some((l) => l.startsWith('[oauth2]'))).toBe(false);
    expect(logs.some((l) => l.includes('\\r\\n[http] GET /forged 200\\u009b'))).toBe(true);
  });

  it('logs unmatched routes with their tokens replaced', async () => {
    const { emu, logs } = await setUp();
    const token = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OTpTRUNSRVRTRUNSRVQ';
    const paths = [
      `/api/v10/interactions/1234567890123456789/${token}/callbackx`,
      `/api/v10/webhooks/1234567890123456789/${token}/nope`,
      `/api/v10/webhooks/1234567890123456789/${token.slice(0, 20)}/nope`,
      `/api/v10/users/${token}/nothing`,
    ];
    for (const path of paths) {
      const reply = await rawRequest(emu, {
        method: 'POST',
        path,
        headers: { Host: new URL(emu.http).host },
      });
      expect([404, 405]).toContain(reply.status);
    }
    const wrongMethod = await rawRequest(emu, {
      method: 'PUT',
      path: `/api/v10/interactions/1234567890123456789/${token}/callback`,
      headers: { Host: new URL(emu.http).host },
    });
    expect([404, 405]).toContain(wrongMethod.status);
    const text = logs.join('\n');
    expect(text).toContain('/interactions/1234567890123456789/:token/callbackx');
    expect(text).toContain('/webhooks/1234567890123456789/:token/nope');
    for (const length of [8, 12]) {
      expect(text).not.toContain(token.slice(0, length));
      expect(text).not.toContain(token.slice(20, 20 + length));
    }
  });

  it("stores a presence update's activities with only an activity's own fields", async () => {
    const { emu } = await setUp();
    const token = (await signIn(emu, 'alice')).access_token;
    const gw = await TestGateway.connect(emu);
    await gw.identify(`Bearer ${token}`);
    gw.send(3, {
      status: 'online',
      since: null,
      afk: false,
      activities: [
        {
          type: 0,
          name: 'Quest',
          state: 'In a dungeon',
          junk: 'x'.repeat(2000),
          assets: { large_image: 'map', junk: { deep: true } },
          party: { id: 'p1', size: [1, 4], junk: 1 },
          buttons: [{ label: 'Join', url: 'https://example.com', junk: 1 }],
        },
      ],
    });
    const alice = emu.users[0]?.id ?? '';
    await until(() => emu.presenceOf(alice).activities.length === 1, 'the activity');
    const [activity] = emu.presenceOf(alice).activities;
    expect(activity).toMatchObject({
      type: 0,
      name: 'Quest',
      state: 'In a dungeon',
      assets: { large_image: 'map' },
      party: { id: 'p1', size: [1, 4] },
      buttons: [{ label: 'Join', url: 'https://example.com' }],
    });
    expect(JSON.stringify(activity)).not.toContain('junk');
    gw.ws.close();
  });

  it('closes a gateway session whose payload nests past the bound, with a reason that says so', async () => {
    const { emu } = await setUp();
    const gw = await TestGateway.connect(emu);
    await gw.next((p) => p.op === 10);
    gw.ws.send(`{"op":1,"d":${'['.repeat(1500)}${']'.repeat(1500)}}`);
    expect(await gw.closed).toEqual({
      code: 4002,
      reason: 'Decode error: the payload nests deeper than 32 levels',
    });
  });
});
