import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';

import { exitOf, hasStackTrace, killChildren, output, runCli, runToEnd } from './cliProcess.js';

afterEach(killChildren);

/** A Node program the exec'd command runs: reads the environment, asks the emulator, exits 3. */
const CHILD = `
const env = process.env;
const reply = await fetch(env.SDKPP_EMULATOR_HTTP + '/emulator.json');
const info = await reply.json();
const me = await fetch(env.SDKPP_EMULATOR_API + '/users/@me', {
  headers: { Authorization: 'Bot ' + env.SDKPP_BOT_TOKEN },
});
console.log(JSON.stringify({
  env: Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('SDKPP_') && k !== 'SDKPP_BOT_TOKEN' && k !== 'SDKPP_CLIENT_SECRET')),
  clientSecretLength: (env.SDKPP_CLIENT_SECRET ?? '').length,
  caFile: env.NODE_EXTRA_CA_CERTS ?? null,
  info,
  bot: me.status,
  args: process.argv.slice(1),
}));
process.exit(3);
`;

describe('sdkpp emulator exec', () => {
  it("runs a command with the emulator's addresses in its environment and returns its exit code", async () => {
    const run = await runToEnd([
      'emulator',
      'exec',
      '--port',
      '0',
      '--users',
      '3',
      '--',
      process.execPath,
      '--input-type=module',
      '-e',
      CHILD,
      'one',
      '--two',
    ]);
    expect(run.code).toBe(3);
    const seen = JSON.parse(run.stdout) as {
      env: Record<string, string>;
      info: {
        http: string;
        applicationId: string;
        applicationPublicKey: string;
        users: Array<{ username: string }>;
      };
      clientSecretLength: number;
      caFile: string | null;
      bot: number;
      args: string[];
    };
    expect(seen.bot).toBe(200);
    expect(seen.args).toEqual(['one', '--two']);
    const http = seen.info.http;
    expect(http).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(seen.env).toMatchObject({
      SDKPP_EMULATOR: http,
      SDKPP_EMULATOR_HTTP: http,
      SDKPP_EMULATOR_API: `${http}/api/v10`,
      SDKPP_EMULATOR_GATEWAY: `${http.replace('http:', 'ws:')}/gateway`,
      SDKPP_EMULATOR_DASHBOARD: `${http}/dashboard`,
      SDKPP_APPLICATION_ID: seen.info.applicationId,
      SDKPP_APP_ID: seen.info.applicationId,
      SDKPP_APP_PUBLIC_KEY: seen.info.applicationPublicKey,
    });
    expect(seen.info.applicationPublicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(seen.clientSecretLength).toBeGreaterThan(0);
    // Node reads it at start: the command's bots trust the voice gateway's wss:// certificate.
    expect(seen.caFile).toMatch(/authority[/\\]ca\.pem$/);
    expect(readFileSync(seen.caFile ?? '', 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(seen.env.SDKPP_EMULATOR_RPC_SOCKET).toMatch(/discord-ipc-0$/);
    expect(seen.info.users.map((u) => u.username)).toEqual(['alice', 'bob', 'carol']);
    // The summary went to stderr, and the emulator is gone once the command ended.
    expect(run.stderr).toContain('sdkpp emulator is running');
    await expect(fetch(`${http}/emulator.json`)).rejects.toThrow();
  });

  it('exits 128+n when a signal ends the command, and 127 when the command does not exist', async () => {
    const killed = await runToEnd([
      'emulator',
      'exec',
      '--port',
      '0',
      '--no-rpc',
      process.execPath,
      '-e',
      "process.kill(process.pid, 'SIGTERM')",
    ]);
    expect(killed.code).toBe(143);

    const missing = await runToEnd([
      'emulator',
      'exec',
      '--port',
      '0',
      '--no-rpc',
      '--',
      'no-such-command-sdkpp',
    ]);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain('cannot run "no-such-command-sdkpp": ENOENT');
    expect(hasStackTrace(missing.stderr)).toBe(false);
  });

  it('passes SIGTERM and SIGINT on to the command and stops the emulator after it', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = runCli([
        'emulator',
        'exec',
        '--port',
        '0',
        '--no-rpc',
        '--',
        process.execPath,
        '-e',
        `process.on('${signal}', () => { console.log('got ${signal}'); process.exit(7); });
         console.log('ready ' + process.env.SDKPP_EMULATOR_HTTP);
         setTimeout(() => process.exit(1), 15000);`,
      ]);
      const streams = output(child);
      await new Promise<void>((resolve) => {
        child.stdout?.on('data', () => {
          if (streams.stdout().includes('\n')) resolve();
        });
      });
      const http = /ready (\S+)/.exec(streams.stdout())?.[1] ?? '';
      expect((await fetch(`${http}/emulator.json`)).status).toBe(200);
      child.kill(signal);
      expect(await exitOf(child)).toBe(7);
      expect(streams.stdout()).toContain(`got ${signal}`);
      await expect(fetch(`${http}/emulator.json`)).rejects.toThrow();
    }
  });
});
