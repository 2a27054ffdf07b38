import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { exitOf, killChildren, startWithState as start, type EmulatorLine } from './cliProcess.js';
import { rawExchange } from './helpers.js';

afterEach(killChildren);
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-hostile-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** One raw HTTP/1.1 exchange that closes after the answer. */
function raw(port: number, lines: string[]): Promise<string> {
  return rawExchange(port, [...lines, 'Connection: close']);
}

/** The resident memory of a process, in MiB (Linux). */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
}

async function api(info: EmulatorLine, method: string, route: string, body?: string | FormData) {
  const headers: Record<string, string> = { Authorization: `Bot ${info.botToken}` };
  if (typeof body === 'string') headers['Content-Type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(`${info.api}${route}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started };
}

describe('a run that sees hostile input (emulator process)', () => {
  it('keeps answering within 2 s with bounded memory, and its state saves and loads again', async () => {
    // The game's server behind the Activity proxy: what reaches `/secret` is a request that left its mapping.
    const reached: string[] = [];
    const game = createServer((req, res) => {
      reached.push(req.url ?? '');
      res.end('game');
    });
    await new Promise<void>((resolve) => game.listen(0, '127.0.0.1', resolve));
    const gamePort = (game.address() as AddressInfo).port;
    const file = path.join(dir, 'hostile.json');
    const first = await start(file, ['--activity-url-mapping', `/api=http://127.0.0.1:${gamePort}/apiroot`]);
    const { info, child } = first;
    // The seeded guild and its #general, as the dashboard's state (loopback only) lists them.
    const state = (await (await fetch(`${info.http}/dashboard/api/state`)).json()) as {
      bot: { guilds: { id: string; channels: { id: string; name: string }[] }[] };
    };
    const guildId = state.bot.guilds[0]?.id ?? '';
    const channel = state.bot.guilds[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
    const probe = async (): Promise<void> => {
      const answer = await api(info, 'GET', `/channels/${channel}/messages?limit=1`);
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(2000);
    };
    await probe();
    const before = rssMiB(child.pid ?? 0);

    // 1. Deeply nested bodies, as JSON and inside multipart payload_json: refused, nothing stored.
    const deep = `{"content":"x","embeds":[{"title":"t","x":${'['.repeat(20_000)}${']'.repeat(20_000)}}]}`;
    for (let i = 0; i < 20; i += 1) {
      expect((await api(info, 'POST', `/channels/${channel}/messages`, deep)).status).toBe(400);
      const form = new FormData();
      form.set('payload_json', deep);
      expect((await api(info, 'POST', `/channels/${channel}/messages`, form)).status).toBe(400);
    }
    await probe();

    // 2. Messages carrying 800 KB of unknown fields: stored without them (100 of them held 80 MB before).
    const junk = 'j'.repeat(400 * 1024);
    for (let i = 0; i < 100; i += 1) {
      const sent = await api(
        info,
        'POST',
        `/channels/${channel}/messages`,
        JSON.stringify({ content: `m${i}`, junk, embeds: [{ title: 't', junk }] }),
      );
      expect(sent.status).toBe(200);
      expect(sent.text).not.toContain('jjjj');
    }
    await probe();

    // 3. A role whose name forges log lines, and unreadable multipart bodies.
    const role = await api(
      info,
      'POST',
      `/guilds/${guildId}/roles`,
      JSON.stringify({ name: 'ok\n[oauth2] tokens issued to mallory\u001b[2J' }),
    );
    expect([200, 403]).toContain(role.status);
    const garbage = await fetch(`${info.api}/channels/${channel}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bot ${info.botToken}`, 'Content-Type': 'multipart/form-data; boundary=x' },
      body: 'garbage',
    });
    expect(garbage.status).toBe(400);
    await probe();

    // 4. The Activity proxy asked to climb out of its mapping, and the store page under a rebinding Host.
    const port = Number(new URL(info.http).port);
    const proxyHost = `${info.applicationId}.localhost:${port}`;
    for (const target of ['/api/../../secret', '/api/%2e%2e/%2e%2e/secret', '/api/..\\..\\secret']) {
      const answer = await raw(port, [`GET ${target} HTTP/1.1`, `Host: ${proxyHost}`]);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect(reached.filter((url) => !url.startsWith('/apiroot'))).toEqual([]);
    const rebound = await raw(port, ['GET /store HTTP/1.1', `Host: rebind.evil.example:${port}`]);
    expect(rebound).toMatch(/^HTTP\/1\.1 421 /);
    await probe();

    const growth = rssMiB(child.pid ?? 0) - before;
    expect(growth).toBeLessThan(48);

    // The run saves at SIGINT and the saved world loads again, with what was sent and nothing unknown.
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);
    const saved = readFileSync(file, 'utf8');
    expect(saved).not.toContain('jjjj');
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(first.streams.stderr()).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    const second = await start(file);
    try {
      const history = await api(second.info, 'GET', `/channels/${channel}/messages?limit=100`);
      expect(history.status).toBe(200);
      expect((JSON.parse(history.text) as { content: string }[]).map((m) => m.content)).toContain('m99');
    } finally {
      second.child.kill('SIGINT');
      expect(await exitOf(second.child)).toBe(0);
      game.close();
    }
  }, 60_000);
});
