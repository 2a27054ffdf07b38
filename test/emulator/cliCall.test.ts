/**
 * `sdkpp emulator call`: the built CLI against emulators the CLI started as separate processes, each test
 * with its own registry folder (XDG_RUNTIME_DIR), so nothing here meets another test's emulators.
 */
import { createServer, get, type Server } from 'node:http';
import {
  chmodSync,
  chownSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { LookupFunction } from 'node:net';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

import { runCall } from '../../packages/emulator/src/cli/call.js';
import { call, emulator, generalOf, isolated, removeIsolatedFolders } from './cliCallHelpers.js';
import { exitOf, hasStackTrace, killChildren, runToEnd, type EmulatorLine } from './cliProcess.js';

const servers: Server[] = [];
afterEach(() => {
  killChildren();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
  removeIsolatedFolders();
});

/** `sdkpp emulator call …` run in this process (for the many quick cases): its exit code and output. */
async function callHere(
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCall(
    args,
    {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      stopRequested: () => new Promise<string>(() => undefined),
    },
    env,
  );
  return { code, stdout, stderr };
}

/** The registry files in a folder (none when it does not exist). */
function registrations(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
}

/** Resolves every name to loopback, as a browser does for `*.localhost`. */
const loopback: LookupFunction = (_hostname, options, callback) => {
  if (options.all === true) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

/** A loopback port nothing listens on any more. */
async function freedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits (bounded) until `check` holds: for output another process writes on its own schedule. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** GETs a URL as a browser would (its own host name in Host), resolving `*.localhost` to loopback. */
function browse(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { lookup: loopback }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body }),
      );
    }).on('error', reject);
  });
}

/** Registers a global chat input command with the bot token, as the game's bot would. */
async function registerCommand(info: EmulatorLine, name: string): Promise<void> {
  const made = await fetch(`${info.api}/applications/${info.applicationId}/commands`, {
    method: 'POST',
    headers: { Authorization: `Bot ${info.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, description: `The ${name} command` }),
  });
  expect(made.status).toBe(201);
}

describe('sdkpp emulator call', { timeout: 60_000 }, () => {
  it("creates a SKU that the platform API lists, and never shows the dashboard's token", async () => {
    const { env, dir } = isolated();
    const { info, streams } = await emulator(env, ['--verbose']);
    const [file] = registrations(dir);
    expect(file).toMatch(/^emulator-\d+-\d+\.json$/);
    // Only its user may enter the folder or read the file.
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, file ?? '')).mode & 0o777).toBe(0o600);
    const token = (JSON.parse(readFileSync(path.join(dir, file ?? ''), 'utf8')) as { token: string }).token;

    const made = await call(env, 'createSku', '{"name": "Golden Board", "type": "durable"}');
    expect(made.code, made.stderr).toBe(0);
    const sku = JSON.parse(made.stdout) as { id: string; name: string; type: number };
    expect(sku).toMatchObject({ name: 'Golden Board', type: 2 });
    // --emulator after the arguments, and under another loopback name of the same port.
    const port = new URL(info.http).port;
    const second = await call(
      env,
      'createSku',
      '{"name": "Season Pass", "type": "subscription", "price": {"amount": 499, "currency": "usd"}}',
      '--emulator',
      `http://localhost:${port}`,
    );
    expect(second.code, second.stderr).toBe(0);

    const listed = await fetch(`${info.api}/applications/${info.applicationId}/skus`, {
      headers: { Authorization: `Bot ${info.botToken}` },
    });
    expect(listed.status).toBe(200);
    const skus = (await listed.json()) as {
      id: string;
      name: string;
      type: number;
      application_id: string;
    }[];
    expect(skus.map((s) => [s.name, s.type])).toEqual([
      ['Golden Board', 2],
      ['Season Pass', 5],
    ]);
    expect(skus[0]).toMatchObject({ id: sku.id, application_id: info.applicationId });

    for (const text of [
      made.stdout,
      made.stderr,
      second.stdout,
      second.stderr,
      streams.stdout(),
      streams.stderr(),
    ]) {
      expect(text).not.toContain(token);
    }
    // The verbose log has the call, not its token.
    await until(() => streams.stderr().includes('POST /dashboard/api/call/:hook 200'), 'the call logged');
    expect(streams.stderr()).not.toContain(token);
  });

  it("launches the Activity and prints the player's link, which opens the host page and its socket", async () => {
    const { env } = isolated();
    await emulator(env);
    const general = await generalOf(env);
    const launched = await call(env, 'launchActivity', JSON.stringify({ user: 'alice', channel: general }));
    expect(launched.code, launched.stderr).toBe(0);
    const launch = JSON.parse(launched.stdout) as { url: string; instanceId: string; channelId: string };
    expect(launch.channelId).toBe(general);
    expect(launch.url).toMatch(/^http:\/\/\d+\.localhost:\d+\/\.emulator\/activity\?ticket=/);

    const page = await browse(launch.url);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    const url = new URL(launch.url);
    const socket = new WebSocket(
      `ws://${url.host}/.emulator/activity/socket?ticket=${url.searchParams.get('ticket') ?? ''}`,
      { lookup: loopback },
    );
    const first = await new Promise<Record<string, unknown>>((resolve, reject) => {
      socket.once('message', (data: Buffer) =>
        resolve(JSON.parse(data.toString()) as Record<string, unknown>),
      );
      socket.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
      socket.once('error', reject);
    });
    expect(first.t).toBe('open');
    socket.close();
    const instances = JSON.parse((await call(env, 'activityInstances')).stdout) as {
      id: string;
      channelId: string;
    }[];
    expect(instances).toMatchObject([{ id: launch.instanceId, channelId: general }]);
  });

  it('lists every hook with its arguments and what it does, with no emulator running', async () => {
    const { env } = isolated();
    const list = await call(env, '--list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(
      '  createSku {name: string, type: "durable"|"consumable"|"subscription", periodMs?: integer, price?: {amount: integer, currency: string}}\n      Creates a SKU',
    );
    expect(list.stdout).toContain('  launchActivity {user: string, channel?: string, link?: string}\n');
    expect(list.stdout).toMatch(
      / {2}invokeCommand \{user: string, command: string, .*awaitResponse\?: boolean, timeoutMs\?: integer\}/,
    );
    expect(list.stdout).toContain('  voice.kick {lobbyId: string, userId: string}');
    expect(list.stdout).toContain('\nStore\n');
    // Not over JSON: functions, secrets, and stopping the command's emulator.
    for (const absent of ['browserAs', 'exportState', 'close '])
      expect(list.stdout).not.toContain(`  ${absent}`);

    const json = await call(env, '--list', '--json');
    const hooks = JSON.parse(json.stdout) as {
      name: string;
      description: string;
      arguments: { type: string };
    }[];
    expect(hooks.length).toBeGreaterThan(50);
    for (const hook of hooks) {
      expect(hook.arguments.type, hook.name).toBe('object');
      expect(hook.description.length, hook.name).toBeGreaterThan(10);
    }
    expect(hooks.find((h) => h.name === 'createSku')?.arguments).toMatchObject({
      required: ['name', 'type'],
      additionalProperties: false,
    });
  });

  it('says what is wrong, with exit codes: 2 for the command line, 1 when the emulator refuses', async () => {
    const { env } = isolated();
    // Command-line mistakes are found before looking for an emulator (none runs yet). In this process, for
    // speed; the built command's exit code is checked once below.
    const usage: [string[], string][] = [
      [['createSKu', '{}'], 'unknown hook "createSKu" (did you mean "createSku"?)'],
      [['createSku', '{"name": "Board",'], 'the arguments of createSku are not JSON'],
      [
        ['createSku', '{"name": "Board", "type": "forever"}'],
        'type: Invalid option: expected one of "durable"|"consumable"|"subscription"\ncreateSku takes {name: string, type:',
      ],
      [['createSku', '{"name": "Board", "type": "durable", "colour": "red"}'], 'Unrecognized key: "colour"'],
      [
        ['createSku', '[1]'],
        'createSku refused its arguments:\n  Invalid input: expected object, received array',
      ],
      [['createSku', '{}', 'extra'], 'unexpected argument "extra"'],
      [[], 'no hook given'],
      [['--emulatr', 'http://127.0.0.1:1', 'skus'], 'unknown option --emulatr (did you mean --emulator?)'],
      [['--json', 'skus'], '--json goes with --list'],
    ];
    for (const [args, message] of usage) {
      const run = await callHere(env, args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(message);
      expect(run.stdout).toBe('');
    }
    const built = await call(env, 'createSKu', '{}');
    expect(built.code).toBe(2);
    expect(built.stderr).toContain('unknown hook "createSKu" (did you mean "createSku"?)');
    expect(hasStackTrace(built.stderr)).toBe(false);

    const { info } = await emulator(env);
    const unknownUser = await call(env, 'purchaseSku', '{"user": "zed", "skuId": "123"}');
    expect(unknownUser.code).toBe(1);
    expect(unknownUser.stderr).toContain('sdkpp emulator call: purchaseSku refused: no user "zed"');
    expect(unknownUser.stdout).toBe('');
    const noChannel = await callHere(env, ['invokeCommand', '{"user": "alice", "command": "ping"}']);
    expect(noChannel.code).toBe(1);
    expect(noChannel.stderr).toContain(
      'invokeCommand refused: a guild-installed app is invoked in a guild channel',
    );
    // A command nobody answers (no bot, no endpoint): the awaited response fails at once, with its reason.
    await registerCommand(info, 'ping');
    const undelivered = await callHere(env, [
      'invokeCommand',
      JSON.stringify({ user: 'alice', command: 'ping', channel: await generalOf(env), awaitResponse: true }),
    ]);
    expect(undelivered.code).toBe(1);
    expect(undelivered.stderr).toMatch(
      /invokeCommand: interaction \d+ was not delivered: no bot session and no interactions endpoint URL \(not_delivered\)/,
    );
    expect(hasStackTrace(unknownUser.stderr)).toBe(false);
  });

  it('with no emulator running, or several, says which exist (exit 3)', async () => {
    const { env } = isolated();
    const none = await call(env, 'skus');
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('no emulator is running (start one with "sdkpp emulator"');

    const a = await emulator(env);
    const b = await emulator(env);
    const several = await call(env, 'skus');
    expect(several.code).toBe(3);
    expect(several.stderr).toContain('2 emulators are running; choose one with --emulator URL:');
    expect(several.stderr).toContain(a.info.http);
    expect(several.stderr).toContain(b.info.http);

    const created = await call(env, '--emulator', b.info.http, 'createUser', '{"username": "zoe"}');
    expect(created.code, created.stderr).toBe(0);
    // SDKPP_EMULATOR (what "exec" sets) picks one too.
    const users = await call({ ...env, SDKPP_EMULATOR: b.info.http }, 'users');
    expect((JSON.parse(users.stdout) as { username: string }[]).map((u) => u.username)).toEqual([
      'alice',
      'bob',
      'zoe',
    ]);
    const elsewhere = await call(env, '--emulator', 'http://127.0.0.1:1', 'skus');
    expect(elsewhere.code).toBe(3);
    expect(elsewhere.stderr).toContain(
      'no emulator started by "sdkpp emulator" is running at http://127.0.0.1:1',
    );

    // Stopped the normal way, an emulator takes its registration with it.
    a.child.kill('SIGINT');
    expect(await exitOf(a.child)).toBe(0);
    const left = await call(env, 'users');
    expect(left.code, left.stderr).toBe(0);
    expect(left.stdout).toContain('"zoe"');
  });

  it('removes the registration of a killed emulator, and of a live pid whose address is not that emulator', async () => {
    const { env, dir } = isolated();
    const killed = await emulator(env);
    expect(registrations(dir)).toHaveLength(1);
    killed.child.kill('SIGKILL');
    await exitOf(killed.child);
    expect(registrations(dir)).toHaveLength(1); // no chance to clean up
    const afterKill = await call(env, 'skus');
    expect(afterKill.code).toBe(3);
    expect(afterKill.stderr).toContain('no emulator is running');
    expect(afterKill.stderr).toContain(
      `removed the registration of one that stopped without closing (${killed.info.http}`,
    );
    expect(registrations(dir)).toEqual([]);

    // A live process (this test's) named with a running emulator's address but not its token: another
    // emulator took the port. And one whose address nobody serves any more.
    const live = await emulator(env);
    const [real] = registrations(dir);
    const forged = (http: string): string =>
      JSON.stringify({
        format: 'sdkpp-emulator-registration',
        version: 1,
        http,
        pid: process.pid,
        applicationId: '1',
        startedAt: new Date().toISOString(),
        token: 'x'.repeat(32),
      });
    // "emulator-1-…" sorts before the real file, so it is the one found for that address.
    writeFileSync(path.join(dir, 'emulator-1-1.json'), forged(live.info.http), { mode: 0o600 });
    const impostor = await call(env, '--emulator', live.info.http, 'skus');
    expect(impostor.code).toBe(3);
    expect(impostor.stderr).toContain(
      `the emulator at ${live.info.http} is not the one registered there (pid ${process.pid}); the registration was stale and is removed`,
    );
    expect(registrations(dir)).toEqual([real]);
    const realOne = await call(env, '--emulator', live.info.http, 'skus');
    expect(realOne.code, realOne.stderr).toBe(0);

    const closed = await freedPort();
    writeFileSync(path.join(dir, `emulator-2-${closed}.json`), forged(`http://127.0.0.1:${closed}`), {
      mode: 0o600,
    });
    const refused = await callHere(env, ['--emulator', `http://127.0.0.1:${closed}`, 'skus']);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain(
      'does not answer (ECONNREFUSED); its registration was stale and is removed',
    );
    expect(registrations(dir)).toEqual([real]);
  });

  it('trusts no file or folder that is not its user’s own and closed to others', async () => {
    const { env, dir } = isolated();
    const { info } = await emulator(env);
    const [real = ''] = registrations(dir);
    const file = path.join(dir, real);
    const saved = readFileSync(file, 'utf8');

    chmodSync(file, 0o644);
    const open = await call(env, 'skus');
    expect(open.code).toBe(3);
    expect(open.stderr).toContain(`ignored ${file}: others may read or change it (mode 644)`);
    chmodSync(file, 0o600);

    rmSync(file);
    const elsewhere = path.join(path.dirname(dir), 'planted.json');
    writeFileSync(elsewhere, saved, { mode: 0o600 });
    symlinkSync(elsewhere, file);
    const linked = await call(env, 'skus');
    expect(linked.code).toBe(3);
    expect(linked.stderr).toContain(`ignored ${file}: it is a symbolic link`);
    rmSync(file);

    if (process.getuid?.() === 0) {
      // Root can play the other user: a file, then the whole folder, owned by uid 4242.
      writeFileSync(file, saved, { mode: 0o600 });
      chownSync(file, 4242, 4242);
      const foreign = await call(env, 'skus');
      expect(foreign.code).toBe(3);
      expect(foreign.stderr).toContain(`ignored ${file}: it belongs to another user (uid 4242)`);
      chownSync(file, 0, 0);
      chownSync(dir, 4242, 4242);
      const foreignDir = await call(env, 'skus');
      expect(foreignDir.code).toBe(3);
      expect(foreignDir.stderr).toContain(
        `${dir} belongs to another user (uid 4242), so nothing in it is trusted`,
      );
      // An emulator started now does not write its token there either, and serves anyway.
      const second = await emulator(env);
      await until(
        () => second.streams.stderr().includes('"sdkpp emulator call" cannot reach this emulator'),
        'the warning that it is not registered',
      );
      expect(registrations(dir).filter((n) => n !== real)).toEqual([]);
      chownSync(dir, 0, 0);
    }

    // Its own file, restored, works again.
    writeFileSync(file, saved, { mode: 0o600 });
    const trusted = await call(env, '--emulator', info.http, 'skus');
    expect(trusted.code, trusted.stderr).toBe(0);
  });

  it('awaits the app’s answer over an interactions endpoint: command, then a click that updates the message', async () => {
    const { env } = isolated();
    const endpoint = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const interaction = JSON.parse(text) as { type: number; member?: { user: { username: string } } };
        const answer =
          interaction.type === 2
            ? {
                type: 4,
                data: {
                  content: `pong, ${interaction.member?.user.username ?? ''}`,
                  components: [
                    { type: 1, components: [{ type: 2, style: 1, custom_id: 'again', label: 'Again' }] },
                  ],
                },
              }
            : { type: 7, data: { content: 'pong again', components: [] } };
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    servers.push(endpoint);
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const port = (endpoint.address() as { port: number }).port;
    const { info } = await emulator(env, ['--interactions-url', `http://127.0.0.1:${port}/`]);
    await registerCommand(info, 'ping');
    const general = await generalOf(env);

    const invoked = await call(
      env,
      'invokeCommand',
      JSON.stringify({ user: 'alice', command: 'ping', channel: general, awaitResponse: true }),
    );
    expect(invoked.code, invoked.stderr).toBe(0);
    const response = JSON.parse(invoked.stdout) as {
      type: number;
      message: { id: string; content: string; components: unknown[] };
      interaction: { delivery: string };
    };
    expect(response).toMatchObject({
      type: 4,
      message: { content: 'pong, alice', components: [{ type: 1, components: [{ custom_id: 'again' }] }] },
      modal: null,
      interaction: { delivery: 'http 200' },
    });
    const clicked = await call(
      env,
      'clickComponent',
      JSON.stringify({ user: 'alice', message: response.message.id, customId: 'again', awaitResponse: true }),
    );
    expect(clicked.code, clicked.stderr).toBe(0);
    expect(JSON.parse(clicked.stdout)).toMatchObject({
      type: 7,
      message: { id: response.message.id, content: 'pong again', components: [] },
    });
  });

  it('is registered for the command "exec" runs, which finds it through SDKPP_EMULATOR', async () => {
    const { env, dir } = isolated();
    // A second emulator runs too: without SDKPP_EMULATOR the call would not know which to take.
    await emulator(env);
    const run = await runToEnd(
      [
        'emulator',
        'exec',
        '--port',
        '0',
        '--no-rpc',
        '--',
        process.execPath,
        'packages/sdkpp/dist/cli.js',
        'emulator',
        'call',
        'createUser',
        '{"username": "zoe"}',
      ],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ username: 'zoe' });
    // The exec'd emulator's registration is gone with it; the other one's stays.
    expect(registrations(dir)).toHaveLength(1);
  });
});
