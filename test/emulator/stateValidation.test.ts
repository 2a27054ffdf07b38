import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { saveStateFile } from '../../packages/emulator/src/cli/stateFile.js';
import { startEmulator, type EmulatorSavedState } from '../../packages/emulator/src/index.js';
import { exitOf, firstLine, hasStackTrace, killChildren, output, runCli } from './cliProcess.js';
import { closeAfterEach } from './lobbyHelpers.js';

afterEach(killChildren);
const { running } = closeAfterEach();
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-validation-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Table = Record<string, Record<string, unknown>>;

/** A saved world with a guild and an ACTIVE subscription to a one-day SKU; with the ids the cases damage. */
async function savedWorld(): Promise<{
  saved: EmulatorSavedState;
  guildId: string;
  memberId: string;
  skuId: string;
  subscriptionId: string;
}> {
  const emu = await startEmulator({ users: 3, rpc: false });
  running.push(emu);
  const sku = emu.createSku({ name: 'Gold', type: 'subscription', periodMs: 86_400_000 });
  const bought = emu.purchaseSku('alice', sku.id);
  const guild = emu.guilds()[0];
  const memberId = emu.users[1]?.id;
  if (!guild || !memberId || !bought.subscription) throw new Error('no world');
  return {
    saved: emu.exportState(),
    guildId: guild.id,
    memberId,
    skuId: sku.id,
    subscriptionId: bought.subscription.id,
  };
}

/** Each damage, as the JSON text of a state file (own `__proto__` keys exist only in parsed JSON). */
async function damagedStates(): Promise<{ name: string; text: string; message: string }[]> {
  const { saved, guildId, memberId, skuId, subscriptionId } = await savedWorld();
  const variant = (change: (data: Record<string, Table>) => void): string => {
    const copy = structuredClone(saved) as EmulatorSavedState & { data: Record<string, Table> };
    change(copy.data);
    return JSON.stringify(copy);
  };
  const stalled = (periodMs: number) =>
    variant((data) => {
      const sku = data.skus?.[skuId];
      const subscription = data.subscriptions?.[subscriptionId];
      if (!sku || !subscription) throw new Error('no subscription');
      sku.periodMs = periodMs;
      subscription.currentPeriodEnd = Date.now() - 60_000;
    });
  const guild = `data.guilds["${guildId}"]`;
  const member = (data: Record<string, Table>): Record<string, unknown> =>
    (data.guilds?.[guildId]?.members as Table)[memberId] ?? {};
  return [
    {
      name: 'period0',
      text: stalled(0),
      message: `data.skus["${skuId}"].periodMs: must be a positive integer`,
    },
    {
      name: 'periodNeg',
      text: stalled(-1),
      message: `data.skus["${skuId}"].periodMs: must be a positive integer`,
    },
    {
      name: 'protoMember',
      text: variant((data) => {
        (data.guilds?.[guildId]?.members as Table).PROTO = member(data);
      }).replace('"PROTO"', '"__proto__"'),
      message: `${guild}.members.__proto__: is not an allowed key`,
    },
    {
      name: 'protoUser',
      text: variant((data) => {
        const users = data.users ?? {};
        users.PROTO = { ...users[memberId], id: '__proto__', username: 'proto' };
      }).replace('"PROTO"', '"__proto__"'),
      message: 'data.users.__proto__: is not an allowed key',
    },
    {
      name: 'guildNumber',
      text: variant((data) => {
        (data.guilds as Record<string, unknown>)[guildId] = 5;
      }),
      message: `${guild}: must be an object`,
    },
    {
      name: 'joinedAt',
      text: variant((data) => {
        member(data).joinedAt = 1e308;
      }),
      message: `${guild}.members["${memberId}"].joinedAt: must be a time (Unix ms that Date accepts)`,
    },
    {
      name: 'noMembers',
      text: variant((data) => {
        const g = data.guilds?.[guildId];
        if (g) g.members = {};
      }),
      message: `${guild}.ownerId: must be one of its members`,
    },
  ];
}

describe('state files are checked field by field when loaded', () => {
  it('refuses each damaged state through the API, naming the bad field', async () => {
    for (const { name, text, message } of await damagedStates()) {
      const state = JSON.parse(text) as EmulatorSavedState;
      // An emulator that loads it anyway is closed at once: its first tick could hang this process.
      const outcome = await startEmulator({ state, rpc: false }).then(
        async (emu) => {
          await emu.close();
          return 'it loaded';
        },
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      expect(outcome, name).toContain(`the saved state is damaged: ${message}`);
    }
  });

  it('refuses each damaged file at the command line: exit 1, the file and the path of the bad field', async () => {
    const cases = await damagedStates();
    // All at once, each given a while to exit: one that starts serving instead is stopped and counted.
    const runs = await Promise.all(
      cases.map(async ({ name, text }) => {
        const file = path.join(dir, `${name}.json`);
        writeFileSync(file, text);
        const child = runCli(['emulator', '--port', '0', '--no-rpc', '--state', file]);
        const streams = output(child);
        const limit = setTimeout(() => child.kill('SIGKILL'), 8000);
        const code = await exitOf(child);
        clearTimeout(limit);
        return { file, code, stderr: streams.stderr() };
      }),
    );
    cases.forEach(({ name, text, message }, i) => {
      const run = runs[i];
      expect(run?.code, name).toBe(1);
      expect(run?.stderr, name).toContain(
        `could not start: the state file ${run?.file ?? ''} cannot be loaded: the saved state is damaged: ${message}`,
      );
      expect(hasStackTrace(run?.stderr ?? ''), name).toBe(false);
      // Refused whole: nothing was saved over it.
      expect(readFileSync(run?.file ?? '', 'utf8'), name).toBe(text);
    });
  });

  it('starts within 2 s and answers HTTP with a valid state owing millions of renewals', async () => {
    const { saved, skuId, subscriptionId } = await savedWorld();
    const data = saved.data as Record<string, Table>;
    const sku = data.skus?.[skuId];
    const subscription = data.subscriptions?.[subscriptionId];
    if (!sku || !subscription) throw new Error('no subscription');
    // One-minute periods since 1970: about 29 million of them to catch up.
    sku.periodMs = 60_000;
    subscription.currentPeriodStart = 0;
    subscription.currentPeriodEnd = 60_000;
    const file = path.join(dir, 'backlog.json');
    await saveStateFile(file, saved);

    const started = performance.now();
    // Without the voice gateway's TLS: a new state file's first start also makes its certificate authority
    // (FILE.ca, once), which is not what this measures.
    const child = runCli([
      'emulator',
      '--port',
      '0',
      '--json',
      '--no-rpc',
      '--voice-ca',
      'none',
      '--state',
      file,
    ]);
    const streams = output(child);
    const info = JSON.parse(await firstLine(child)) as { api: string; botToken: string };
    expect(performance.now() - started).toBeLessThan(2000);
    // Premium catches up on its first tick (a second in); every answer must still come at once.
    const route = `${info.api}/skus/${skuId}/subscriptions/${subscriptionId}`;
    let end = 0;
    while (end <= Date.now()) {
      const answer = await fetch(route, {
        headers: { Authorization: `Bot ${info.botToken}` },
        signal: AbortSignal.timeout(2000),
      });
      expect(answer.status).toBe(200);
      end = Date.parse(((await answer.json()) as { current_period_end: string }).current_period_end);
      if (end <= Date.now()) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(end - Date.now()).toBeLessThanOrEqual(60_000);
    const stopping = performance.now();
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);
    expect(performance.now() - stopping).toBeLessThan(2000);
    expect(streams.stderr()).not.toContain('could not save');
    const after = JSON.parse(readFileSync(file, 'utf8')) as { data: Record<string, Table> };
    expect(after.data.subscriptions?.[subscriptionId]).toMatchObject({ status: 0, currentPeriodEnd: end });
  });
});

describe('subscription renewals', () => {
  it('catch up a year of one-minute periods in one step: one renewal, one log line, no time', async () => {
    const logs: string[] = [];
    const emu = await startEmulator({ users: 2, rpc: false, log: (line) => logs.push(line) });
    running.push(emu);
    const sku = emu.createSku({ name: 'Minute', type: 'subscription', periodMs: 60_000 });
    const bought = emu.purchaseSku('alice', sku.id);
    const start = bought.subscription?.currentPeriodEnd ?? '';
    const started = performance.now();
    emu.advanceTime(365 * 86_400_000);
    expect(performance.now() - started).toBeLessThan(500);
    const renewals = logs.filter((l) => l.includes('renewed'));
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toContain('(525600 periods)');
    const [subscription] = emu.subscriptions();
    expect(subscription?.status).toBe(0);
    expect(Date.parse(subscription?.currentPeriodEnd ?? '')).toBe(Date.parse(start) + 525_600 * 60_000);
  });
});
