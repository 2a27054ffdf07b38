import { FieldErrors, requireObjectBody } from '../bodies/fieldErrors.js';
import { checkScheduledEvent, readScheduledEventBody } from '../bodies/scheduledEventBody.js';
import { wireScheduledEvent } from '../bot/resourceWire.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, invalidFormBody } from '../platform/errors.js';
import { Permission } from '../platform/permissions.js';
import type { GuildRecord, ScheduledEventRecord } from '../store/types.js';
import { jsonReply, noContentReply } from './replies.js';
import {
  guildResource,
  requireCreate,
  requireEdit,
  resourceGuild,
  type ResourceBits,
} from './resourceAccess.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** Scheduled or active events per guild (the platform's limit; 30038 beyond it). */
export const MAX_SCHEDULED_EVENTS = 100;

/** Events kept per guild, finished ones included; past it the oldest finished event is dropped. */
export const MAX_KEPT_EVENTS = 250;

const BITS: ResourceBits = { create: Permission.CREATE_EVENTS, manage: Permission.MANAGE_EVENTS };

/** Status changes the platform allows: SCHEDULED → ACTIVE or CANCELED, ACTIVE → COMPLETED. */
const NEXT_STATUS: Record<number, readonly number[]> = { 1: [2, 4], 2: [3], 3: [], 4: [] };

/**
 * A guild's scheduled events: list, get, create, modify (fields, and the status moves the platform allows)
 * and delete. Entity types: STAGE_INSTANCE (1, a stage channel, which the emulator does not model, so always a
 * field error), VOICE (2, a voice channel) and EXTERNAL (3, `entity_metadata.location` and an end time). A bot
 * needs CREATE_EVENTS to create (the document, from 2026-02-23), and MANAGE_EVENTS for another's event. Each
 * change sends GUILD_SCHEDULED_EVENT_CREATE / UPDATE / DELETE under GUILD_SCHEDULED_EVENTS.
 */
export function scheduledEventRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const resources = guilds.resources;
  const view = (guild: GuildRecord, e: ScheduledEventRecord): Record<string, unknown> =>
    wireScheduledEvent(e, guild.id, store.user(e.creatorId));
  const one = (req: RouteRequest) =>
    guildResource(ctx, req, 'scheduledEvents', 'event_id', 'Guild Scheduled Event');
  const channelKind = (guild: GuildRecord) => (id: string) => {
    const channel = guilds.channel(id);
    return channel?.guildId === guild.id ? channel.type : undefined;
  };
  const base = '/guilds/:guild_id/scheduled-events';
  return [
    apiRoute('GET', base, (req) => {
      const guild = resourceGuild(ctx, req);
      return jsonReply(
        200,
        resources.list(guild.id, 'scheduledEvents').map((e) => view(guild, e)),
      );
    }),
    apiRoute('GET', `${base}/:event_id`, (req) => {
      const { guild, record: event } = one(req);
      return jsonReply(200, view(guild, event));
    }),
    apiRoute('POST', base, async (req) => {
      const guild = resourceGuild(ctx, req);
      requireCreate(ctx, guild, BITS);
      const errors = new FieldErrors();
      const f = readScheduledEventBody(errors, requireObjectBody(await req.json()));
      if (f.status !== undefined && f.status !== 1) {
        errors.add(['status'], 'GUILD_SCHEDULED_EVENT_STATUS', 'A new event is SCHEDULED.');
      }
      const shape = {
        name: f.name,
        startsAt: f.startsAt,
        endsAt: f.endsAt ?? null,
        entityType: f.entityType,
        channelId: f.channelId ?? null,
        location: f.location ?? null,
      };
      checkScheduledEvent(errors, shape, channelKind(guild), store.now(), true);
      errors.finish();
      const all = resources.list(guild.id, 'scheduledEvents');
      const open = all.filter((e) => e.status <= 2);
      if (open.length >= MAX_SCHEDULED_EVENTS) {
        throw new ApiError(
          400,
          30038,
          `Maximum number of uncompleted guild scheduled events reached (${MAX_SCHEDULED_EVENTS})`,
        );
      }
      // Finished events (completed, canceled) stay listed, as on the platform, until the guild keeps too many:
      // then the oldest finished one goes (with its DELETE event), so the table stays bounded.
      const finished = all.filter((e) => e.status > 2);
      if (all.length >= MAX_KEPT_EVENTS && finished[0]) {
        resources.delete(guild.id, 'scheduledEvents', finished[0].id);
      }
      const record = resources.add(guild.id, 'scheduledEvents', {
        id: store.nextId(),
        channelId: shape.channelId,
        creatorId: store.state.application.id,
        name: shape.name ?? '',
        description: f.description ?? null,
        startsAt: shape.startsAt ?? 0,
        endsAt: shape.endsAt,
        entityType: shape.entityType ?? 3,
        status: 1,
        location: shape.location,
        createdAt: store.now(),
      });
      return jsonReply(200, view(guild, record));
    }),
    apiRoute('PATCH', `${base}/:event_id`, async (req) => {
      const { guild, record: event } = one(req);
      requireEdit(ctx, guild, event.creatorId, BITS);
      const errors = new FieldErrors();
      const f = readScheduledEventBody(errors, requireObjectBody(await req.json()));
      errors.finish();
      if (
        f.status !== undefined &&
        f.status !== event.status &&
        !NEXT_STATUS[event.status]?.includes(f.status)
      ) {
        throw invalidFormBody({
          status: {
            code: 'GUILD_SCHEDULED_EVENT_STATUS',
            message: `Cannot go from ${event.status} to ${f.status}.`,
          },
        });
      }
      // Moving to EXTERNAL drops the channel, as the platform does when the body leaves it out.
      const channelId = f.channelId !== undefined ? f.channelId : f.entityType === 3 ? null : event.channelId;
      const location =
        f.location !== undefined
          ? f.location
          : f.entityType === 1 || f.entityType === 2
            ? null
            : event.location;
      const shape = {
        name: f.name ?? event.name,
        startsAt: f.startsAt ?? event.startsAt,
        endsAt: f.endsAt !== undefined ? f.endsAt : event.endsAt,
        entityType: f.entityType ?? event.entityType,
        channelId,
        location,
      };
      const checks = new FieldErrors();
      checkScheduledEvent(checks, shape, channelKind(guild), store.now(), f.startsAt !== undefined);
      checks.finish();
      resources.update(guild.id, 'scheduledEvents', event, {
        name: shape.name,
        startsAt: shape.startsAt,
        endsAt: shape.endsAt,
        entityType: shape.entityType,
        channelId: shape.channelId,
        location: shape.location,
        ...(f.description === undefined ? {} : { description: f.description }),
        ...(f.status === undefined ? {} : { status: f.status }),
      });
      return jsonReply(200, view(guild, event));
    }),
    apiRoute('DELETE', `${base}/:event_id`, (req) => {
      const { guild, record: event } = one(req);
      requireEdit(ctx, guild, event.creatorId, BITS);
      resources.delete(guild.id, 'scheduledEvents', event.id);
      return noContentReply();
    }),
  ];
}
