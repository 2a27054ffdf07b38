import {
  Events,
  GatewayIntentBits,
  GuildScheduledEventEntityType,
  GuildScheduledEventPrivacyLevel,
  GuildScheduledEventStatus,
  type GuildScheduledEvent,
} from 'discord.js';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { discordjsBotAfterEach } from './discordjsHelpers.js';

// Bits written out from the document, not imported from the emulator (see permissionBits.ts).
const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const MANAGE_EVENTS = 1n << 33n;
const CREATE_EVENTS = 1n << 44n;

const HOUR = 3_600_000;

describe('guild scheduled events through discord.js', () => {
  let emu: Emulator | undefined;
  const bot = discordjsBotAfterEach([GatewayIntentBits.Guilds, GatewayIntentBits.GuildScheduledEvents]);

  it('creates voice and external events with CREATE_EVENTS, checks each entity type, and moves status', async () => {
    emu = await bot.start({ users: 2 });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    const voiceId = seeded.channels.find((c) => c.type === 2)?.id ?? '';
    const textId = seeded.channels.find((c) => c.name === 'general')?.id ?? '';
    const guild = await bot.login(emu);
    const start = new Date(Date.now() + HOUR);
    const external = {
      name: 'Tournament',
      scheduledStartTime: start,
      scheduledEndTime: new Date(start.getTime() + HOUR),
      privacyLevel: GuildScheduledEventPrivacyLevel.GuildOnly,
      entityType: GuildScheduledEventEntityType.External,
      entityMetadata: { location: 'The arena' },
    } as const;

    // Without CREATE_EVENTS (MANAGE_EVENTS alone no longer does, from 2026-02-23): 403 50013.
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | MANAGE_EVENTS });
    await expect(guild.scheduledEvents.create(external)).rejects.toMatchObject({
      status: 403,
      code: 50013,
      message: expect.stringContaining('CREATE_EVENTS') as unknown,
    });

    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | CREATE_EVENTS });
    const announced = new Promise<GuildScheduledEvent>((resolve) =>
      bot.client?.once(Events.GuildScheduledEventCreate, resolve),
    );
    const event = await guild.scheduledEvents.create({ ...external, description: 'Finals' });
    expect(event).toMatchObject({
      name: 'Tournament',
      description: 'Finals',
      status: GuildScheduledEventStatus.Scheduled,
      channelId: null,
      creatorId: emu.applicationId,
    });
    expect(event.entityMetadata?.location).toBe('The arena');
    expect(event.scheduledStartTimestamp).toBe(start.getTime());
    expect((await announced).id).toBe(event.id);

    const voice = await guild.scheduledEvents.create({
      name: 'Voice night',
      scheduledStartTime: start,
      privacyLevel: GuildScheduledEventPrivacyLevel.GuildOnly,
      entityType: GuildScheduledEventEntityType.Voice,
      channel: voiceId,
    });
    expect(voice.channelId).toBe(voiceId);

    // Each entity type's required fields, and the rules between them: 50035 naming the field.
    const refusals: [Record<string, unknown>, string][] = [
      [{ entity_type: 3, scheduled_end_time: null }, 'scheduled_end_time'],
      [{ entity_type: 3, entity_metadata: null }, 'location'],
      [{ entity_type: 2, channel_id: textId, entity_metadata: null }, 'channel_id'],
      [{ entity_type: 1, channel_id: voiceId, entity_metadata: null }, 'channel_id'],
      [{ scheduled_start_time: new Date(Date.now() - HOUR).toISOString() }, 'scheduled_start_time'],
      [{ scheduled_start_time: 'yesterday' }, 'scheduled_start_time'],
      [{ privacy_level: 1 }, 'privacy_level'],
      [{ name: '' }, 'name'],
    ];
    for (const [change, field] of refusals) {
      const res = await fetch(`${emu.api}/guilds/${seeded.id}/scheduled-events`, {
        method: 'POST',
        headers: { Authorization: `Bot ${emu.botToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: 'x',
          privacy_level: 2,
          scheduled_start_time: start.toISOString(),
          scheduled_end_time: new Date(start.getTime() + HOUR).toISOString(),
          entity_type: 3,
          entity_metadata: { location: 'here' },
          ...change,
        }),
      });
      expect(res.status, JSON.stringify(change)).toBe(400);
      const body = (await res.json()) as { code: number };
      expect(body.code).toBe(50035);
      expect(JSON.stringify(body), JSON.stringify(change)).toContain(field);
    }

    // Status moves: SCHEDULED → ACTIVE → COMPLETED; nothing goes back.
    const updated = new Promise<GuildScheduledEvent | null>((resolve) =>
      bot.client?.once(Events.GuildScheduledEventUpdate, (_old, now) => resolve(now)),
    );
    const active = await event.setStatus(GuildScheduledEventStatus.Active);
    expect(active.status).toBe(GuildScheduledEventStatus.Active);
    expect((await updated)?.status).toBe(GuildScheduledEventStatus.Active);
    // discord.js's types already forbid going back; the emulator answers the platform's 50035 to a raw call.
    const back = await fetch(`${emu.api}/guilds/${seeded.id}/scheduled-events/${event.id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bot ${emu.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: GuildScheduledEventStatus.Scheduled }),
    });
    expect(back.status).toBe(400);
    expect(((await back.json()) as { code: number }).code).toBe(50035);
    const done = await guild.scheduledEvents.edit(event.id, { status: GuildScheduledEventStatus.Completed });
    expect(done.status).toBe(GuildScheduledEventStatus.Completed);

    // Voice → external needs a location and an end.
    const moved = await guild.scheduledEvents.edit(voice.id, {
      entityType: GuildScheduledEventEntityType.External,
      entityMetadata: { location: 'Outside' },
      scheduledEndTime: new Date(start.getTime() + 2 * HOUR),
      channel: null,
    });
    expect(moved).toMatchObject({ channelId: null, entityType: GuildScheduledEventEntityType.External });

    const fetched = await guild.scheduledEvents.fetch();
    expect(fetched.map((e) => e.name).sort()).toEqual(['Tournament', 'Voice night']);

    const deleted = new Promise<{ id: string }>((resolve) =>
      bot.client?.once(Events.GuildScheduledEventDelete, resolve),
    );
    await guild.scheduledEvents.delete(voice.id);
    expect((await deleted).id).toBe(voice.id);
    await expect(guild.scheduledEvents.fetch(voice.id)).rejects.toMatchObject({ status: 404, code: 10070 });
  });

  it('needs MANAGE_EVENTS for a member’s event, and keeps events in the saved state and GUILD_CREATE', async () => {
    emu = await bot.start({ users: 2 });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | CREATE_EVENTS });
    const hers = emu.addGuildResource({
      guildId: seeded.id,
      user: 'alice',
      kind: 'event',
      name: 'Alice night',
    });
    const guild = await bot.login(emu);
    // GUILD_CREATE carried it.
    expect(guild.scheduledEvents.cache.get(hers)?.name).toBe('Alice night');
    await expect(guild.scheduledEvents.edit(hers, { name: 'Mine' })).rejects.toMatchObject({
      status: 403,
      code: 50013,
      message: expect.stringContaining('MANAGE_EVENTS') as unknown,
    });
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | MANAGE_EVENTS });
    const renamed = await guild.scheduledEvents.edit(hers, { name: 'Our night' });
    expect(renamed.name).toBe('Our night');

    const saved = emu.exportState();
    await bot.logout();
    await emu.close();
    emu = await bot.start({ state: saved, rpc: false });
    const restored = await bot.login(emu);
    expect(restored.scheduledEvents.cache.get(hers)).toMatchObject({
      name: 'Our night',
      creatorId: seeded.ownerId,
    });
  });
  it('bounds the list: 100 uncompleted events (30038), and the oldest finished one goes at 250 kept', async () => {
    // Hundreds of calls in a row: the emulator's HTTP rate limits would answer 429 first.
    emu = await bot.start({ users: 2, rateLimits: 'off' });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | CREATE_EVENTS });
    const e = emu;
    const start = Date.now() + HOUR;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${e.api}/guilds/${seeded.id}/scheduled-events${path}`, {
        method,
        headers: { Authorization: `Bot ${e.botToken}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    const create = (n: number) =>
      call('POST', '', {
        name: `event ${n}`,
        privacy_level: 2,
        scheduled_start_time: new Date(start + n).toISOString(),
        scheduled_end_time: new Date(start + HOUR + n).toISOString(),
        entity_type: 3,
        entity_metadata: { location: 'here' },
      });
    const ids: string[] = [];
    // 150 events made and canceled (finished), then 100 open ones.
    for (let n = 0; n < 150; n += 1) {
      const made = await create(n);
      expect(made.status).toBe(200);
      ids.push(String(made.json.id));
      expect((await call('PATCH', `/${String(made.json.id)}`, { status: 4 })).status).toBe(200);
    }
    for (let n = 150; n < 250; n += 1) expect((await create(n)).status).toBe(200);
    const refused = await create(250);
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe(30038);
    // Completing one open event frees a place; the table is full, so the oldest finished event goes.
    const list = await fetch(`${e.api}/guilds/${seeded.id}/scheduled-events`, {
      headers: { Authorization: `Bot ${e.botToken}` },
    });
    const events = (await list.json()) as { id: string; status: number }[];
    expect(events).toHaveLength(250);
    const open = events.find((ev) => ev.status === 1);
    expect((await call('PATCH', `/${open?.id ?? ''}`, { status: 2 })).status).toBe(200);
    expect((await call('PATCH', `/${open?.id ?? ''}`, { status: 3 })).status).toBe(200);
    expect((await create(251)).status).toBe(200);
    expect((await call('GET', `/${ids[0] ?? ''}`)).status).toBe(404);
    expect((await call('GET', `/${ids[1] ?? ''}`)).status).toBe(200);
  });
});
