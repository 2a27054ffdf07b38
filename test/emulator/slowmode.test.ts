import { GatewayIntentBits, type TextChannel } from 'discord.js';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { discordjsBotAfterEach } from './discordjsHelpers.js';

// Bits written out from the document, not imported from the emulator (see permissionBits.ts).
const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const MANAGE_CHANNELS = 1n << 4n;
const MANAGE_MESSAGES = 1n << 13n;
const BYPASS_SLOWMODE = 1n << 52n;

/** The dashboard's token, as its page carries it. */
async function dashboardToken(emu: Emulator): Promise<string> {
  const html = await (await fetch(emu.dashboard)).text();
  const token = /<meta name="dashboard-token" content="([^"]+)">/.exec(html)?.[1];
  if (!token) throw new Error('no dashboard token');
  return token;
}

describe('slowmode (rate_limit_per_user) on user sends', () => {
  let emu: Emulator | undefined;
  const bot = discordjsBotAfterEach([GatewayIntentBits.Guilds]);

  it('refuses a second user message within the window with 429 20016 and retry_after; bots are exempt', async () => {
    emu = await bot.start({ users: 4 });
    const client = await bot.connect(emu);
    const guild = emu.guilds()[0];
    const generalId = guild?.channels.find((c) => c.name === 'general')?.id ?? '';
    const general = (await client.channels.fetch(generalId)) as TextChannel;

    // The bot sets slowmode through discord.js (PATCH /channels/{id}, MANAGE_CHANNELS); out of range is 50035.
    await general.setRateLimitPerUser(30);
    expect(general.rateLimitPerUser).toBe(30);
    await expect(general.setRateLimitPerUser(21_601)).rejects.toMatchObject({ code: 50035 });

    emu.postChannelMessage(generalId, 'bob', 'first');
    let refused: unknown;
    try {
      emu.postChannelMessage(generalId, 'bob', 'second');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RangeError);
    expect(refused).toMatchObject({ status: 429, code: 20016 });
    const retryAfter = (refused as { retryAfter: number }).retryAfter;
    expect(retryAfter).toBeGreaterThan(29);
    expect(retryAfter).toBeLessThanOrEqual(30);

    // Over the dashboard's call action (what `sdkpp emulator call` uses): the platform's 429 body.
    const token = await dashboardToken(emu);
    const res = await fetch(`${emu.dashboard}/api/call/postChannelMessage`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Dashboard-Token': token },
      body: JSON.stringify({ channelId: generalId, user: 'bob', content: 'third' }),
    });
    expect(res.status).toBe(429);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ error: 'slowmode', code: 20016 });
    expect(body.message).toContain('This action cannot be performed due to slowmode rate limit');
    expect(body.retry_after).toBeGreaterThan(0);

    // Another user and another channel have windows of their own.
    emu.postChannelMessage(generalId, 'carol', 'mine is separate');
    const lfgId = guild?.channels.find((c) => c.name === 'lfg')?.id ?? '';
    emu.postChannelMessage(lfgId, 'bob', 'no slowmode here');
    emu.postChannelMessage(lfgId, 'bob', 'still none');

    // The bot is not subject to slowmode: three sends in a row pass.
    for (const text of ['one', 'two', 'three']) await general.send(text);
    expect(emu.channelMessages(generalId).map((m) => m.content)).toEqual([
      'first',
      'mine is separate',
      'one',
      'two',
      'three',
    ]);

    // Lifting slowmode lets bob write again at once.
    await general.setRateLimitPerUser(0);
    emu.postChannelMessage(generalId, 'bob', 'free again');
  });

  it('lets BYPASS_SLOWMODE and the owner through; MANAGE_MESSAGES or MANAGE_CHANNELS alone no longer do', async () => {
    emu = await bot.start({ users: 4 });
    const guild = emu.guilds()[0];
    if (!guild) throw new Error('no seeded guild');
    const generalId = guild.channels.find((c) => c.name === 'general')?.id ?? '';
    const res = await fetch(`${emu.api}/channels/${generalId}`, {
      method: 'PATCH',
      headers: { Authorization: `Bot ${emu.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ rate_limit_per_user: 600 }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Record<string, unknown>).rate_limit_per_user).toBe(600);

    emu.addGuildMember(guild.id, 'bob', { permissions: VIEW | SEND | BYPASS_SLOWMODE });
    emu.addGuildMember(guild.id, 'carol', { permissions: VIEW | SEND | MANAGE_MESSAGES | MANAGE_CHANNELS });
    for (const n of [1, 2, 3]) emu.postChannelMessage(generalId, 'bob', `bob ${n}`);
    // alice owns the guild: she holds every bit, BYPASS_SLOWMODE included.
    for (const n of [1, 2]) emu.postChannelMessage(generalId, 'alice', `alice ${n}`);
    // The document: since 2026-02-23 only BYPASS_SLOWMODE lifts slowmode (split from the manage bits).
    emu.postChannelMessage(generalId, 'carol', 'carol 1');
    expect(() => emu?.postChannelMessage(generalId, 'carol', 'carol 2')).toThrow(
      /slowmode rate limit \(retry after 6\d\d\.\d+ s\)|slowmode rate limit \(retry after 599\.\d+ s\)/,
    );
    expect(emu.channelMessages(generalId)).toHaveLength(6);
  });
});
