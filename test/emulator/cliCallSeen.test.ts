/**
 * Issue 31's "done when": a SKU made and an Activity launched with `sdkpp emulator call` are seen by
 * discord.js and by a browser. The emulator is the built CLI's, a separate process; the bot is discord.js 14
 * logged in with its bot token; the browser is the suite's headless Chromium driven by playwright-core.
 */
import { Client, Events, GatewayIntentBits, SKUType } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { startActivityServer, type ActivityServer } from '../../examples/activity/server.js';
import { sharedChromium } from '../setup/browser.js';
import { call, channelOf, emulator, isolated, removeIsolatedFolders } from './cliCallHelpers.js';
import { killChildren, type EmulatorLine } from './cliProcess.js';

afterEach(() => {
  killChildren();
  removeIsolatedFolders();
});

const browser = sharedChromium();

/** What `call activityInstances` answers, as far as these tests read it. */
interface InstanceView {
  id: string;
  channelId: string | null;
  participants: string[];
  console: { userId: string; level: string; message: string }[];
}

/** `call <hook> [json]` that must succeed; its parsed answer. */
async function called<T>(env: NodeJS.ProcessEnv, hook: string, args?: unknown): Promise<T> {
  const run = await call(env, hook, ...(args === undefined ? [] : [JSON.stringify(args)]));
  expect(run.code, `${hook}: ${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** Polls `check` every 100 ms for up to `timeoutMs`; resolves with its last answer once it holds. */
async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`never: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('what sdkpp emulator call makes is seen by discord.js and by a browser', () => {
  it("a SKU made with call createSku is in discord.js's client.application.fetchSKUs()", async () => {
    const { env } = isolated();
    const { info } = await emulator(env);
    const made = await called<{ id: string }>(env, 'createSku', { name: 'Golden Board', type: 'durable' });
    const pass = await called<{ id: string }>(env, 'createSku', {
      name: 'Season Pass',
      type: 'subscription',
      price: { amount: 499, currency: 'usd' },
    });

    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${info.http}/api` } });
    try {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(info.botToken);
      await ready;
      const application = client.application;
      if (!application) throw new Error('discord.js has no application after READY');
      expect(application.id).toBe(info.applicationId);
      const skus = await application.fetchSKUs();
      // Exactly what the calls made (the emulator seeds no SKU), in order, as discord.js's SKU objects.
      expect([...skus.keys()]).toEqual([made.id, pass.id]);
      expect(skus.get(made.id)).toMatchObject({
        name: 'Golden Board',
        type: SKUType.Durable,
        applicationId: info.applicationId,
      });
      expect(skus.get(pass.id)).toMatchObject({ name: 'Season Pass', type: SKUType.Subscription });
    } finally {
      await client.destroy();
    }
  }, 30_000);

  it("an Activity launched with call launchActivity starts in Chromium from the printed link, and its shop shows the call's SKU", async () => {
    const { env } = isolated();
    // The --json line has the client secret too, which the game's server needs.
    const info = (await emulator(env, ['--auto-consent'])).info as EmulatorLine & { clientSecret: string };
    const alice = info.users.find((u) => u.username === 'alice')?.id ?? '';
    expect(alice).not.toBe('');
    let game: ActivityServer | undefined;
    const page = await browser().newPage();
    try {
      // The game (the Activity sample's server, which exchanges the code with the client secret) behind the
      // root URL mapping, set with the call verb too; the SKU its shop sells, made before anyone launches.
      game = await startActivityServer({
        api: info.api,
        clientId: info.applicationId,
        clientSecret: info.clientSecret,
      });
      await called(env, 'setActivityUrlMappings', {
        mappings: [
          { prefix: '/', target: game.url },
          { prefix: '/tips', target: game.tipsUrl },
        ],
      });
      await called(env, 'createSku', {
        name: 'Golden Board',
        type: 'durable',
        price: { amount: 499, currency: 'usd' },
      });

      const voice = await channelOf(env, 'General', 2);
      expect(voice).not.toBe('');
      const launch = await called<{ url: string; instanceId: string; channelId: string }>(
        env,
        'launchActivity',
        { user: 'alice', channel: voice },
      );
      expect(launch.channelId).toBe(voice);
      expect(launch.url).toMatch(/^http:\/\/\d+\.localhost:\d+\/\.emulator\/activity\?ticket=/);
      // Launched but not yet open: nobody is connected to the instance.
      expect(await called<InstanceView[]>(env, 'activityInstances')).toMatchObject([
        { id: launch.instanceId, channelId: voice, participants: [] },
      ]);

      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(launch.url, { timeout: 10_000 });
      // The host page got its open message and framed the game; the emulator lists alice only once the
      // frame's Embedded App SDK finished its handshake (READY).
      await page.locator('#state', { hasText: 'running' }).waitFor({ timeout: 10_000 });
      await page.locator('#participants li', { hasText: /alice/i }).waitFor({ timeout: 10_000 });
      expect(await page.locator('#instance').innerText()).toBe(launch.instanceId);
      // Inside the frame: the game signed in (AUTHORIZE, its server's code exchange, AUTHENTICATE), lists
      // alice from GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS and sells the SKU the call made (GET_SKUS).
      const frame = page.frameLocator('iframe');
      await frame.locator(`#participants li[data-id="${alice}"]`).waitFor({ timeout: 10_000 });
      expect(await frame.locator('#instance').innerText()).toBe(launch.instanceId);
      await frame.locator('#buy', { hasText: 'Buy the Golden Board ($4.99)' }).waitFor({ timeout: 10_000 });

      // The emulator's side, asked with the call verb: alice's frame is connected, and its console line
      // (captured by the SDK) says the game signed her in.
      const [instance] = await eventually(
        () => called<InstanceView[]>(env, 'activityInstances'),
        (list) => list[0]?.console.some((l) => l.message.includes('signed in as alice')) === true,
        "the frame's console line",
      );
      expect(instance).toMatchObject({ id: launch.instanceId, channelId: voice, participants: [alice] });
      expect(problems).toEqual([]);

      // Closing the window ends the instance: the browser was what kept it running.
      await page.close();
      await eventually(
        () => called<InstanceView[]>(env, 'activityInstances'),
        (list) => list.length === 0,
        'the instance ended',
      );
    } finally {
      if (!page.isClosed()) await page.close();
      await game?.close();
    }
  }, 60_000);
});
