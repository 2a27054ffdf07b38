import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

import { verifyKey } from 'discord-interactions';
import { describe, expect, it } from 'vitest';

import type { Emulator, EmulatorUploadFile } from '../../packages/emulator/src/index.js';
import { call, closeAfterEach, loggedEmulator, withCommand } from './lobbyHelpers.js';
import { verifyingEndpoint } from './verifyingEndpoint.js';

type Json = Record<string, unknown> & Record<string, unknown>[];
const { running, cleanups } = closeAfterEach();

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An interactions endpoint checking signatures with discord-interactions, that answers commands with
 * `modal` and modal submissions with a message, recording each submission's payload.
 */
async function modalEndpoint(emu: Emulator, modal: unknown): Promise<Record<string, unknown>[]> {
  const submissions: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    void readAll(req).then(async (text) => {
      const signature = String(req.headers['x-signature-ed25519'] ?? '');
      const timestamp = String(req.headers['x-signature-timestamp'] ?? '');
      if (!(await verifyKey(text, signature, timestamp, emu.applicationPublicKey))) {
        res.writeHead(401).end('invalid request signature');
        return;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      const answer =
        body.type === 1
          ? { type: 1 }
          : body.type === 2
            ? { type: 9, data: modal }
            : { type: 4, data: { content: 'received', flags: 64 } };
      if (body.type === 5) submissions.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  await emu.setInteractionsEndpointUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/i`);
  return submissions;
}

/** alice runs /score in #general. */
function invoke(emu: Emulator) {
  const channel = emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
  return emu.invokeCommand({ user: 'alice', command: 'score', channel });
}

const label = (text: string, component: Record<string, unknown>) => ({ type: 18, label: text, component });
const options = (...values: string[]) => values.map((v) => ({ label: v.toUpperCase(), value: v }));

/** A modal with every modal-only input, each inside a Label. */
const SIGNUP = {
  custom_id: 'signup',
  title: 'Sign up',
  components: [
    label('Screenshots', {
      type: 19,
      custom_id: 'shots',
      min_values: 1,
      max_values: 2,
      file_types: ['image', '.log'],
    }),
    label('Notes', { type: 19, custom_id: 'notes', min_values: 0, max_values: 10, required: false }),
    label('Class', { type: 3, custom_id: 'class', options: options('mage', 'rogue') }),
    label('Extra', { type: 3, custom_id: 'extra', required: false, options: options('pet') }),
    label('Team', { type: 21, custom_id: 'team', options: options('red', 'blue') }),
    label('Perks', {
      type: 22,
      custom_id: 'perks',
      min_values: 1,
      max_values: 2,
      options: options('a', 'b', 'c'),
    }),
    label('Rules', { type: 23, custom_id: 'rules' }),
  ],
};

describe('modals: File Upload and the modal-only inputs inside Labels', () => {
  it('refuses a modal past 5 top-level components: no modal opens', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    await withCommand(emu);
    // SIGNUP has 7 Labels: past the modal's 5, so the answer is refused and no modal opens.
    const tooMany = await modalEndpoint(emu, SIGNUP);
    expect(tooMany).toEqual([]);
    const refused = await invoke(emu);
    expect(refused.delivery).toMatch(/50035/);
    expect(refused.modal).toBeNull();
  });

  it('checks each answer and hands the app the uploads', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    await withCommand(emu);
    const modal = { ...SIGNUP, components: SIGNUP.components.slice(0, 5) };
    const submissions = await modalEndpoint(emu, modal);
    const opened = await invoke(emu);
    expect(opened.modal?.customId).toBe('signup');
    const shot: EmulatorUploadFile = { filename: 'win.png', contentType: 'image/png', data: PNG };
    const submit = (
      values: Record<string, string | string[] | boolean>,
      files: Record<string, (typeof shot)[]>,
    ) => emu.submitModal({ user: 'alice', interaction: opened.id, values, files });
    const good = { class: 'mage', team: 'red' };

    // File Upload: required by default, min/max, its file types, the 10 MiB limit.
    await expect(submit(good, {})).rejects.toThrow(/"shots" is required/);
    await expect(submit(good, { shots: [shot, shot, shot] })).rejects.toThrow(/upload 1–2 files/);
    await expect(
      submit(good, { shots: [{ filename: 'notes.txt', contentType: 'text/plain', data: PNG }] }),
    ).rejects.toThrow(/not of the types/);
    const huge = { filename: 'big.png', contentType: 'image/png', data: Buffer.alloc(10 * 1024 * 1024 + 1) };
    await expect(submit(good, { shots: [huge] })).rejects.toThrow(/upload limit/);
    await expect(submit({ ...good, shots: 'x' }, { shots: [shot] })).rejects.toThrow(/give it files/);
    // String Select: `required` defaults to true in a modal; `required: false` makes it optional.
    await expect(submit({ team: 'red' }, { shots: [shot] })).rejects.toThrow(/"class" is required/);
    await expect(submit({ ...good, class: 'bard' }, { shots: [shot] })).rejects.toThrow(/not options/);
    // Radio Group: one value of its options.
    await expect(submit({ class: 'mage' }, { shots: [shot] })).rejects.toThrow(/"team" is required/);
    await expect(submit({ ...good, team: 'green' }, { shots: [shot] })).rejects.toThrow(/not an option/);
    await expect(submit({ ...good, team: ['red', 'blue'] }, { shots: [shot] })).rejects.toThrow(/one value/);
    await expect(submit(good, { shots: [shot], nope: [shot] })).rejects.toThrow(/no field nope/);
    expect(submissions).toEqual([]);

    const log = { filename: 'crash.log', data: Buffer.from('boom\n').toString('base64') };
    const sent = await submit(good, { shots: [shot, log] });
    expect(sent.type).toBe(5);
    const payload = submissions[0] as { data: { components: Json; resolved: { attachments: Json } } };
    const [shots, notes, klass, extra, team] = payload.data.components.map((c) => c.component as Json);
    expect(shots).toMatchObject({ type: 19, custom_id: 'shots' });
    expect(notes).toMatchObject({ type: 19, custom_id: 'notes', values: [] });
    expect(klass).toMatchObject({ type: 3, custom_id: 'class', values: ['mage'] });
    expect(extra).toMatchObject({ type: 3, custom_id: 'extra', values: [] });
    expect(team).toMatchObject({ type: 21, custom_id: 'team', value: 'red' });
    const ids = Reflect.get(shots ?? {}, 'values') as string[];
    expect(ids).toHaveLength(2);
    const [png, crash] = ids.map((id) => payload.data.resolved.attachments[id as unknown as number] as Json);
    expect(png).toMatchObject({
      id: ids[0],
      filename: 'win.png',
      size: PNG.length,
      content_type: 'image/png',
      ephemeral: true,
    });
    expect(crash).toMatchObject({ filename: 'crash.log', size: 5, ephemeral: true });
    // The uploads download from their url on the emulator, byte for byte.
    const downloaded = await fetch(String(png?.url));
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(PNG)).toBe(true);
    expect(await (await fetch(String(crash?.url))).text()).toBe('boom\n');
    // Under another name or channel, nothing.
    expect((await fetch(String(png?.url).replace('win.png', 'other.png'))).status).toBe(404);
    // The modal is closed once submitted.
    await expect(submit(good, { shots: [shot] })).rejects.toThrow(/no open modal/);
  });

  it('takes Checkbox Group counts and a Checkbox boolean', async () => {
    const { emu } = await loggedEmulator(running, { users: 1 });
    await withCommand(emu);
    const submissions = await modalEndpoint(emu, {
      custom_id: 'prefs',
      title: 'Preferences',
      components: [SIGNUP.components[5], SIGNUP.components[6], { type: 10, content: '**Choose**' }],
    });
    const opened = await invoke(emu);
    const submit = (values: Record<string, string | string[] | boolean>) =>
      emu.submitModal({ user: 'alice', interaction: opened.id, values });
    await expect(submit({ perks: ['a', 'b', 'c'] })).rejects.toThrow(/pick 1–2 values/);
    await expect(submit({ perks: ['z'] })).rejects.toThrow(/not options/);
    await expect(submit({ perks: ['a'], rules: 'yes' })).rejects.toThrow(/true or false/);
    await submit({ perks: ['a', 'c'], rules: true });
    const components = (submissions[0]?.data as { components: Json }).components;
    expect(components.map((c) => c.component ?? { type: c.type })).toMatchObject([
      { type: 22, custom_id: 'perks', values: ['a', 'c'] },
      { type: 23, custom_id: 'rules', value: true },
      { type: 10 },
    ]);
  });

  it('refuses modal-only inputs outside a Label or in messages, and bad File Upload bounds', async () => {
    const { emu } = await loggedEmulator(running, { users: 1 });
    await withCommand(emu);
    const bad = [
      // Radio Group, Checkbox Group and Checkbox only inside a Label.
      { custom_id: 'm', title: 'T', components: [{ type: 21, custom_id: 'r', options: options('x') }] },
      { custom_id: 'm', title: 'T', components: [{ type: 23, custom_id: 'c' }] },
      { custom_id: 'm', title: 'T', components: [label('F', { type: 19, custom_id: 'f', max_values: 11 })] },
      { custom_id: 'm', title: 'T', components: [label('F', { type: 19, custom_id: 'f', min_values: -1 })] },
      {
        custom_id: 'm',
        title: 'T',
        components: [label('F', { type: 19, custom_id: 'f', file_types: ['exe'] })],
      },
    ];
    for (const modal of bad) {
      const { emu: each } = await loggedEmulator(running, { users: 1 });
      await withCommand(each);
      await modalEndpoint(each, modal);
      const invoked = await invoke(each);
      expect(invoked.delivery, JSON.stringify(modal)).toMatch(/50035/);
      expect(invoked.modal).toBeNull();
    }
    // In a message, a checkbox is no component of an action row.
    const channel = emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
    for (const type of [21, 22, 23, 19]) {
      const sent = await call<Json>(emu, `Bot ${emu.botToken}`, 'POST', `/channels/${channel}/messages`, {
        components: [{ type: 1, components: [{ type, custom_id: 'x', options: options('a') }] }],
      });
      expect([sent.status, sent.json.code]).toEqual([400, 50035]);
    }
  });
});

describe('ATTACHMENT options and their file types', () => {
  it('keeps file_types on attachment options, refuses it elsewhere, and checks the files invoked with', async () => {
    const { emu } = await loggedEmulator(running, { users: 1 });
    // The three commands below go the same way (the bot registers them): only the command differs.
    const register = (command: Record<string, unknown>) =>
      call<Json>(emu, `Bot ${emu.botToken}`, 'POST', `/applications/${emu.applicationId}/commands`, command);
    const made = await register({
      name: 'upload',
      description: 'Upload a replay',
      options: [{ type: 11, name: 'replay', description: 'The replay', file_types: ['.rep', 'video'] }],
    });
    expect(made.status).toBe(201);
    expect((made.json.options as Json)[0]).toMatchObject({ file_types: ['.rep', 'video'] });
    const wrong = await register({
      name: 'named',
      description: 'A name',
      options: [{ type: 3, name: 'name', description: 'A name', file_types: ['image'] }],
    });
    expect(wrong.json).toMatchObject({ code: 50035, errors: { options: { 0: { file_types: {} } } } });
    const junk = await register({
      name: 'junk',
      description: 'Junk',
      options: [{ type: 11, name: 'f', description: 'F', file_types: ['png'] }],
    });
    expect(junk.json).toMatchObject({ code: 50035, errors: { options: { 0: { file_types: { 0: {} } } } } });

    // Invoked with a file: checked against file_types, then in resolved.attachments and downloadable.
    const endpoint = await verifyingEndpoint(() => emu.applicationPublicKey);
    cleanups.push(() => void endpoint.close());
    await emu.setInteractionsEndpointUrl(endpoint.url);
    const channel = emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
    const run = (replay: unknown) =>
      emu.invokeCommand({ user: 'alice', command: 'upload', channel, options: { replay } });
    await expect(run({ filename: 'notes.txt', contentType: 'text/plain', data: 'aGk=' })).rejects.toThrow(
      /not of the types/,
    );
    await expect(run('1234')).rejects.toThrow(/takes a file/);
    await expect(run({ filename: 'a.rep', data: 'not base64!' })).rejects.toThrow(/not base64/);
    await run({ filename: 'final.rep', data: Buffer.from('GG').toString('base64') });
    const data = endpoint.received.at(-1)?.body?.data as {
      options: { name: string; type: number; value: string }[];
      resolved: { attachments: Record<string, Record<string, unknown>> };
    };
    const [replay] = data.options;
    expect(replay).toMatchObject({ name: 'replay', type: 11 });
    const attachment = data.resolved.attachments[replay?.value ?? ''];
    expect(attachment).toMatchObject({ filename: 'final.rep', size: 2, ephemeral: true });
    expect(await (await fetch(String(attachment?.url))).text()).toBe('GG');
  });
});
