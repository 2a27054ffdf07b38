import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ApplicationFlags, Client, Events, GatewayIntentBits } from 'discord.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { exitOf, firstLine, killChildren, output, runCli } from './cliProcess.js';
import { verifyingEndpoint } from './verifyingEndpoint.js';

afterEach(killChildren);
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-app-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The `--json` line, with what these tests read of it. */
interface JsonLine {
  http: string;
  api: string;
  dashboard: string;
  applicationId: string;
  applicationPublicKey: string;
  clientSecret: string;
  botToken: string;
}

/** Starts `sdkpp emulator --port 0 --json --no-rpc` with `extra` flags, as a user would. */
async function startJson(extra: string[] = []) {
  const child = runCli(['emulator', '--port', '0', '--json', '--no-rpc', ...extra]);
  const streams = output(child);
  const info = JSON.parse(await firstLine(child)) as JsonLine;
  return {
    info,
    streams,
    stop: async (): Promise<number | null> => {
      child.kill('SIGTERM');
      return exitOf(child);
    },
  };
}

/** Calls `/applications/@me` with the bot token. */
async function application(
  info: JsonLine,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${info.api}/applications/@me`, {
    method: body === undefined ? 'GET' : 'PATCH',
    headers: { Authorization: `Bot ${info.botToken}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** The dashboard page's HTML. */
async function dashboardHtml(info: JsonLine): Promise<string> {
  const res = await fetch(info.dashboard);
  expect(res.status).toBe(200);
  return res.text();
}

/** A user invokes a command from the dashboard, as a tester clicking there would. */
async function invokeFromDashboard(
  info: JsonLine,
  command: string,
  channel: string,
): Promise<Record<string, unknown>> {
  const token = /<meta name="dashboard-token" content="([^"]+)">/.exec(await dashboardHtml(info))?.[1] ?? '';
  const res = await fetch(`${info.dashboard}/api/commands/${command}/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Dashboard-Token': token },
    body: JSON.stringify({ user: 'alice', channel }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** The seeded guild's #general, as the dashboard lists it. */
async function general(info: JsonLine): Promise<string> {
  const state = (await (await fetch(`${info.dashboard}/api/state`)).json()) as {
    bot: { guilds: { channels: { id: string; name: string }[] }[] };
  };
  return state.bot.guilds[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
}

describe('sdkpp emulator shows the application’s public key', () => {
  it('in the summary, with the client secret and one line per Activity URL mapping', async () => {
    const child = runCli([
      'emulator',
      '--port',
      '0',
      '--no-rpc',
      '--activity-url-mapping',
      '/=http://127.0.0.1:5173',
      '--activity-url-mapping',
      '/api=http://127.0.0.1:3001',
    ]);
    const streams = output(child);
    for (let i = 0; i < 200 && !streams.stdout().includes('Press Ctrl+C'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const text = streams.stdout();
    const field = (label: string): string => new RegExp(`^  ${label} +(.+)$`, 'm').exec(text)?.[1] ?? '';
    const key = /^[0-9a-f]{64}/.exec(field('Public key'))?.[0] ?? '';
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const secret = field('Client secret');
    expect(secret.length).toBeGreaterThan(10);
    expect(text.match(/^ {2}URL mapping +.+$/gm)).toEqual([
      '  URL mapping   / → http://127.0.0.1:5173',
      '  URL mapping   /api → http://127.0.0.1:3001',
    ]);
    // What it prints is what the API says: the key the platform would show as verify_key.
    const http = field('HTTP');
    const info = { api: `${http}/api/v10`, botToken: field('Bot token') } as JsonLine;
    expect((await application(info)).json.verify_key).toBe(key);
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);

    const none = runCli(['emulator', '--port', '0', '--no-rpc']);
    const noneOut = output(none);
    for (let i = 0; i < 200 && !noneOut.stdout().includes('Press Ctrl+C'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(noneOut.stdout()).toMatch(/^ {2}URL mappings +none \(--activity-url-mapping/m);
    none.kill('SIGINT');
    expect(await exitOf(none)).toBe(0);
  });

  it('in --json, /emulator.json (without the secret) and the dashboard; never in a log line', async () => {
    const { info, streams, stop } = await startJson(['--verbose']);
    expect(info.applicationPublicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof info.clientSecret).toBe('string');

    const publicInfo = await fetch(`${info.http}/emulator.json`);
    const publicText = await publicInfo.text();
    expect((JSON.parse(publicText) as Record<string, unknown>).applicationPublicKey).toBe(
      info.applicationPublicKey,
    );
    expect(publicText).not.toContain(info.clientSecret);
    expect(publicText).not.toContain(info.botToken);

    const html = await dashboardHtml(info);
    expect(html).toContain(`<code id="public-key">${info.applicationPublicKey}</code>`);
    expect(html).toContain(`<code id="client-secret">${info.clientSecret}</code>`);
    expect(html).toContain(`<code id="application-id">${info.applicationId}</code>`);

    expect((await application(info, { description: 'logged by name only' })).status).toBe(200);
    expect(await stop()).toBe(0);
    const log = streams.stderr();
    expect(log).toContain('[http] PATCH /applications/@me 200');
    expect(log).toContain('[application] edited: description');
    for (const secret of [info.clientSecret, info.botToken, 'logged by name only'])
      expect(log).not.toContain(secret);
  });

  it('keeps the key and the edits across a --state restart, and the key signs what reaches the endpoint', async () => {
    const file = path.join(dir, 'app.json');
    const first = await startJson(['--state', file]);
    // The endpoint knows the key from the first --json line only, and checks with discord-interactions.
    const endpoint = await verifyingEndpoint(() => first.info.applicationPublicKey, 'pong from the endpoint');
    try {
      const set = await application(first.info, {
        interactions_endpoint_url: endpoint.url,
        description: 'Kept',
      });
      expect(set.status).toBe(200);
      expect(endpoint.received.map((r) => [r.type, r.verified])).toEqual([
        [1, true],
        [1, false],
      ]);
      const made = await fetch(`${first.info.api}/applications/${first.info.applicationId}/commands`, {
        method: 'POST',
        headers: { Authorization: `Bot ${first.info.botToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'score', description: 'Show the score' }),
      });
      expect(made.status).toBe(201);
      const channel = await general(first.info);
      expect((await invokeFromDashboard(first.info, 'score', channel)).delivery).toMatch(/^http 200/);
      expect(endpoint.received.at(-1)).toMatchObject({
        type: 2,
        verified: true,
        body: { data: { name: 'score' } },
      });
      expect(await first.stop()).toBe(0);

      const second = await startJson(['--state', file]);
      try {
        expect(second.info.applicationPublicKey).toBe(first.info.applicationPublicKey);
        expect(second.info.clientSecret).toBe(first.info.clientSecret);
        expect((await application(second.info)).json).toMatchObject({
          verify_key: first.info.applicationPublicKey,
          description: 'Kept',
          interactions_endpoint_url: endpoint.url,
        });
        // Still delivered over HTTP, and still verified with the first run's key.
        expect((await invokeFromDashboard(second.info, 'score', channel)).delivery).toMatch(/^http 200/);
        expect(endpoint.received.at(-1)).toMatchObject({ type: 2, verified: true });
        expect(endpoint.received.filter((r) => r.type === 2 && !r.verified)).toEqual([]);
      } finally {
        expect(await second.stop()).toBe(0);
      }
    } finally {
      await endpoint.close();
    }
  });

  it('answers discord.js’s client.application.fetch() and edit()', async () => {
    const { info, stop } = await startJson(['--privileged-intents', 'members']);
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${info.http}/api` } });
    try {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(info.botToken);
      await ready;
      const app = await client.application?.fetch();
      expect(app?.id).toBe(info.applicationId);
      expect(app?.name).toBe('sdkpp Demo Game');
      expect(app?.verifyKey).toBe(info.applicationPublicKey);
      expect(app?.bot?.id).toBe(info.applicationId);
      expect(app?.flags?.has(ApplicationFlags.GatewayGuildMembersLimited)).toBe(true);
      expect(app?.approximateGuildCount).toBe(1);
      expect(app?.owner).toMatchObject({ username: 'alice' });
      const edited = await app?.edit({ description: 'Edited by discord.js', tags: ['arcade'] });
      expect(edited?.description).toBe('Edited by discord.js');
      expect(edited?.tags).toEqual(['arcade']);
      expect((await application(info)).json).toMatchObject({
        description: 'Edited by discord.js',
        tags: ['arcade'],
      });
    } finally {
      await client.destroy();
      expect(await stop()).toBe(0);
    }
  });
});
