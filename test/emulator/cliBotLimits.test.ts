import { describe, expect, it } from 'vitest';

import { runEmulatorCommand } from '../../packages/emulator/src/cli.js';

/** Runs `sdkpp emulator` in-process until `stop` resolves; returns what it wrote and the exit code. */
function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  let stop: (signal: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const exit = runEmulatorCommand(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stopRequested: () => stopped,
  });
  return { exit, stop, out: () => stdout, err: () => stderr };
}

describe('sdkpp emulator bot identify flags', () => {
  it('passes --bot-session-limit and --bot-max-concurrency to GET /gateway/bot', async () => {
    const cli = run(['--json', '--no-rpc', '--bot-session-limit', '5', '--bot-max-concurrency', '3']);
    await expect.poll(() => cli.out().includes('\n'), { timeout: 10_000 }).toBe(true);
    const info = JSON.parse(cli.out()) as { api: string; botToken: string };
    const reply = await fetch(`${info.api}/gateway/bot`, {
      headers: { Authorization: `Bot ${info.botToken}` },
    });
    const { session_start_limit: limit } = (await reply.json()) as {
      session_start_limit: Record<string, number>;
    };
    expect(limit).toMatchObject({ total: 5, remaining: 5, max_concurrency: 3 });
    cli.stop('SIGINT');
    expect(await cli.exit).toBe(0);
  });

  it('refuses a concurrency of 0 with usage', async () => {
    const cli = run(['--bot-max-concurrency', '0']);
    expect(await cli.exit).toBe(2);
    expect(cli.err()).toContain('--bot-max-concurrency must be an integer from 1 to 1024');
  });
});
