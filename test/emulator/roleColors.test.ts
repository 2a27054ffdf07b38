import { Events, GatewayIntentBits, type Guild } from 'discord.js';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { discordjsBotAfterEach } from './discordjsHelpers.js';

// Bits written out from the document, not imported from the emulator (see permissionBits.ts).
const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const MANAGE_ROLES = 1n << 28n;

describe('role colors (gradients with ENHANCED_ROLE_COLORS)', () => {
  let emu: Emulator | undefined;
  const bot = discordjsBotAfterEach([GatewayIntentBits.Guilds]);

  it('refuses a gradient without the feature, keeps color = primary_color, and saves the colors', async () => {
    emu = await bot.start({ users: 2 });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | MANAGE_ROLES });
    const guild = await bot.login(emu);
    expect(guild.features).toEqual([]);

    // A solid colour through `colors`: the deprecated `color` follows the primary colour.
    const solid = await guild.roles.create({ name: 'solid', colors: { primaryColor: 0x3366ff } });
    expect(solid.colors).toEqual({ primaryColor: 0x3366ff, secondaryColor: null, tertiaryColor: null });
    // The deprecated alias is what this checks: it must stay in step with colors.primary_color.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    expect(solid.color).toBe(0x3366ff);

    // A gradient in a guild without ENHANCED_ROLE_COLORS: 400 50035 naming colors.secondary_color.
    const refused = await guild.roles
      .create({ name: 'gradient', colors: { primaryColor: 0xff0000, secondaryColor: 0x0000ff } })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, code: 50035 });
    expect(JSON.stringify((refused as { rawError: unknown }).rawError)).toContain('secondary_color');
    expect(guild.roles.cache.find((r) => r.name === 'gradient')).toBeUndefined();

    // Bad values are field errors too, never a crash.
    const bad = await fetch(`${emu.api}/guilds/${guild.id}/roles`, {
      method: 'POST',
      headers: { Authorization: `Bot ${emu.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bad', colors: { primary_color: 0x1000000, secondary_color: 'red' } }),
    });
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as { code: number; errors: { colors: Record<string, unknown> } };
    expect(badBody.code).toBe(50035);
    expect(Object.keys(badBody.errors.colors).sort()).toEqual(['primary_color', 'secondary_color']);

    // With the feature (the admin hook), gradients and the holographic style are accepted.
    const updated = new Promise<Guild>((resolve) =>
      bot.client?.once(Events.GuildUpdate, (_old, now) => resolve(now)),
    );
    emu.setGuildFeatures(guild.id, ['ENHANCED_ROLE_COLORS']);
    // GUILD_UPDATE tells the bot at once.
    expect((await updated).features).toEqual(['ENHANCED_ROLE_COLORS']);
    const gradient = await guild.roles.create({
      name: 'gradient',
      colors: { primaryColor: 0xff0000, secondaryColor: 0x0000ff },
    });
    expect(gradient.colors).toEqual({
      primaryColor: 0xff0000,
      secondaryColor: 0x0000ff,
      tertiaryColor: null,
    });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the alias follows the primary colour
    expect(gradient.color).toBe(0xff0000);
    const holo = await guild.roles.create({
      name: 'holo',
      colors: { primaryColor: 11127295, secondaryColor: 16759788, tertiaryColor: 16761760 },
    });
    expect(holo.colors?.tertiaryColor).toBe(16761760);

    // The legacy `color` alone changes the primary colour and leaves the gradient.
    const patched = await fetch(`${emu.api}/guilds/${guild.id}/roles/${gradient.id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bot ${emu.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ color: 0x00ff00 }),
    });
    expect(await patched.json()).toMatchObject({
      color: 0x00ff00,
      colors: { primary_color: 0x00ff00, secondary_color: 0x0000ff, tertiary_color: null },
    });
    // Clearing the second colour makes it solid again.
    const cleared = await guild.roles.edit(gradient, {
      colors: { primaryColor: 0x00ff00, secondaryColor: null },
    });
    expect(cleared.colors?.secondaryColor).toBeNull();

    // The guild object carries the feature; the saved state keeps the feature and the colours.
    const fetched = await fetch(`${emu.api}/guilds/${guild.id}`, {
      headers: { Authorization: `Bot ${emu.botToken}` },
    });
    expect(((await fetched.json()) as { features: string[] }).features).toEqual(['ENHANCED_ROLE_COLORS']);
    const saved = emu.exportState();
    await bot.logout();
    await emu.close();
    emu = await bot.start({ state: saved, rpc: false });
    const again = await fetch(`${emu.api}/guilds/${guild.id}/roles/${holo.id}`, {
      headers: { Authorization: `Bot ${emu.botToken}` },
    });
    expect(await again.json()).toMatchObject({
      colors: { primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 },
    });
    expect(() => emu?.setGuildFeatures(guild.id, ['not a feature'])).toThrow(RangeError);
  });
});
