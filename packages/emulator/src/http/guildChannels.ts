import {
  FieldErrors,
  isRecord,
  optionalArray,
  optionalBoolean,
  optionalInteger,
  optionalBitfield,
  optionalName,
  optionalString,
  requireObjectBody,
} from '../bodies/fieldErrors.js';
import { readVoiceFields } from '../bodies/voiceChannelFields.js';
import { wireChannel, wireGuild } from '../bot/guildWire.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, missingPermissions, unknown } from '../platform/errors.js';
import { Permission, hasAll, parsePermissions, permissionNames } from '../platform/permissions.js';
import { ChannelKind, type ChannelChange } from '../social/Guilds.js';
import type { ChannelOverwriteRecord, GuildChannelRecord, GuildRecord } from '../store/types.js';
import { channelForBot, guildForBot } from './botAccess.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** Channels per guild (the platform's limit). */
export const MAX_CHANNELS = 500;

/**
 * The guild and channel routes of the bot: Get Guild, Get Channel, Create Guild Channel, Modify and Delete
 * Channel (MANAGE_CHANNELS), and Edit / Delete Channel Permission (MANAGE_ROLES; an overwrite may grant or
 * deny only bits the bot holds in the channel). Each change reaches bot sessions as CHANNEL_* events.
 */
export function guildChannelRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const botId = store.state.application.id;

  const full = (channel: GuildChannelRecord): Record<string, unknown> =>
    wireChannel(channel, guilds.messages.lastId(channel.id));

  /**
   * Changing overwrites takes MANAGE_ROLES as the bot holds it where they apply: in the channel with its
   * overwrites (a channel's deny holds even when a role grants it guild-wide, or the bot could lift its own
   * denies), or guild-wide for a channel not made yet. And the bot moves only bits it holds there itself:
   * every bit a new overwrite names, and every bit an old one loses, since lifting a deny grants as surely as
   * an allow does. ADMINISTRATOR and the owner hold every bit.
   */
  const checkOverwriteChanges = (
    channel: GuildChannelRecord | undefined,
    guild: GuildRecord,
    changes: readonly { before?: ChannelOverwriteRecord | undefined; after?: ChannelOverwriteRecord }[],
  ): void => {
    const held = channel ? guilds.permissions(botId, channel.id) : guilds.guildPermissions(guild.id, botId);
    if (!hasAll(held, Permission.MANAGE_ROLES)) throw missingPermissions(['MANAGE_ROLES']);
    let moved = 0n;
    for (const { before, after } of changes) {
      const allow = parsePermissions(after?.allow);
      const deny = parsePermissions(after?.deny);
      moved |= allow | deny;
      moved |= parsePermissions(before?.allow) & ~allow;
      moved |= parsePermissions(before?.deny) & ~deny;
    }
    if (!hasAll(held, moved)) throw missingPermissions(permissionNames(moved & ~held));
  };
  const sameTarget = (a: ChannelOverwriteRecord, b: ChannelOverwriteRecord): boolean =>
    a.id === b.id && a.type === b.type;

  const readOverwrites = (
    errors: FieldErrors,
    value: unknown,
    guild: GuildRecord,
  ): ChannelOverwriteRecord[] | undefined => {
    const list = optionalArray(errors, ['permission_overwrites'], value, 100);
    if (!list) return undefined;
    const out: ChannelOverwriteRecord[] = [];
    list.forEach((o, i) => {
      const at = ['permission_overwrites', i];
      if (!isRecord(o)) {
        errors.add(at, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
        return;
      }
      const id = optionalString(errors, [...at, 'id'], o.id, 20, 1);
      const type = optionalInteger(errors, [...at, 'type'], o.type, 0, 1);
      const allow = optionalBitfield(errors, [...at, 'allow'], o.allow);
      const deny = optionalBitfield(errors, [...at, 'deny'], o.deny);
      if (id === undefined || type === undefined || allow === undefined || deny === undefined) return;
      if (type === 0 ? !guilds.role(guild.id, id) : !guilds.member(guild.id, id)) {
        errors.add([...at, 'id'], 'UNKNOWN_OVERWRITE_TARGET', `No ${type === 0 ? 'role' : 'member'} ${id}`);
        return;
      }
      out.push({ id, type: type as 0 | 1, allow: allow.toString(), deny: deny.toString() });
    });
    return out;
  };

  /** The fields of Create Guild Channel and Modify Channel, checked. */
  const readChannelBody = async (
    req: RouteRequest,
    guild: GuildRecord,
    existing: GuildChannelRecord | undefined,
  ): Promise<ChannelChange & { type?: number }> => {
    const b = requireObjectBody(await req.json());
    const errors = new FieldErrors();
    const name = optionalName(errors, ['name'], b.name, 100);
    if (!existing && name === undefined && b.name === undefined)
      errors.add(['name'], 'BASE_TYPE_REQUIRED', 'This field is required');
    const type = existing
      ? undefined
      : (optionalInteger(errors, ['type'], b.type, 0, 15) ?? ChannelKind.TEXT);
    if (type !== undefined && !Object.values<number>(ChannelKind).includes(type)) {
      errors.add(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of {0, 2, 4}.');
    }
    const kind = existing?.type ?? type ?? ChannelKind.TEXT;
    let parentId: string | null | undefined;
    if (Object.hasOwn(b, 'parent_id')) {
      parentId = b.parent_id === null ? null : optionalString(errors, ['parent_id'], b.parent_id, 20, 1);
      const parent = typeof parentId === 'string' ? guilds.channel(parentId) : undefined;
      if (
        typeof parentId === 'string' &&
        (parent?.guildId !== guild.id ||
          parent.type !== ChannelKind.CATEGORY ||
          kind === ChannelKind.CATEGORY)
      ) {
        errors.add(
          ['parent_id'],
          'CHANNEL_PARENT_INVALID',
          'Must be a category of this guild (and not for a category).',
        );
      }
    }
    const position = optionalInteger(errors, ['position'], b.position, 0, 10_000);
    const topic =
      kind === ChannelKind.TEXT && Object.hasOwn(b, 'topic')
        ? b.topic === null
          ? null
          : optionalString(errors, ['topic'], b.topic, 1024)
        : undefined;
    const nsfw = optionalBoolean(errors, ['nsfw'], b.nsfw);
    const slowmode = optionalInteger(errors, ['rate_limit_per_user'], b.rate_limit_per_user, 0, 21_600);
    const voice = kind === ChannelKind.VOICE ? readVoiceFields(errors, b) : {};
    const overwrites =
      b.permission_overwrites === undefined
        ? undefined
        : readOverwrites(errors, b.permission_overwrites, guild);
    errors.finish();
    if (overwrites) {
      const before = existing?.overwrites ?? [];
      checkOverwriteChanges(existing, guild, [
        ...overwrites.map((after) => ({ before: before.find((o) => sameTarget(o, after)), after })),
        ...before.filter((o) => !overwrites.some((n) => sameTarget(o, n))).map((o) => ({ before: o })),
      ]);
    }
    return {
      ...(name === undefined ? {} : { name }),
      ...(type === undefined ? {} : { type }),
      ...(parentId === undefined ? {} : { parentId }),
      ...(position === undefined ? {} : { position }),
      ...(topic === undefined ? {} : { topic }),
      ...(nsfw === undefined ? {} : { nsfw }),
      ...(slowmode === undefined ? {} : { rateLimitPerUser: slowmode }),
      ...voice,
      ...(overwrites === undefined ? {} : { overwrites }),
    };
  };

  const manageable = (req: RouteRequest): GuildChannelRecord => {
    requireBot(ctx, req);
    return channelForBot(ctx, req.params.channel_id ?? '', Permission.MANAGE_CHANNELS);
  };

  return [
    apiRoute('GET', '/guilds/:guild_id', (req) => {
      requireBot(ctx, req);
      const guild = guildForBot(ctx, req.params.guild_id ?? '');
      const withCounts = req.query().get('with_counts') === 'true';
      const count = Object.keys(guild.members).length;
      return jsonReply(200, {
        ...wireGuild(guild, guilds),
        ...(withCounts ? { approximate_member_count: count, approximate_presence_count: 0 } : {}),
      });
    }),
    apiRoute('GET', '/channels/:channel_id', (req) => {
      requireBot(ctx, req);
      return jsonReply(200, full(channelForBot(ctx, req.params.channel_id ?? '')));
    }),
    apiRoute('POST', '/guilds/:guild_id/channels', async (req) => {
      requireBot(ctx, req);
      const guild = guildForBot(ctx, req.params.guild_id ?? '', Permission.MANAGE_CHANNELS);
      if (guilds.channelsOf(guild.id).length >= MAX_CHANNELS) {
        throw new ApiError(400, 30013, `Maximum number of guild channels reached (${MAX_CHANNELS})`);
      }
      const fields = await readChannelBody(req, guild, undefined);
      const channel = guilds.createChannel(guild.id, {
        ...fields,
        name: fields.name ?? 'channel',
        type: fields.type ?? ChannelKind.TEXT,
        parentId: fields.parentId ?? null,
      });
      return jsonReply(201, full(channel));
    }),
    apiRoute('PATCH', '/channels/:channel_id', async (req) => {
      const channel = manageable(req);
      const guild = guilds.guild(channel.guildId);
      if (!guild) throw unknown('Guild');
      const { type: _type, ...change } = await readChannelBody(req, guild, channel);
      guilds.updateChannel(channel, change);
      return jsonReply(200, full(channel));
    }),
    apiRoute('DELETE', '/channels/:channel_id', (req) => {
      const channel = manageable(req);
      const wire = full(channel);
      guilds.deleteChannel(channel.id);
      return jsonReply(200, wire);
    }),
    apiRoute('PUT', '/channels/:channel_id/permissions/:overwrite_id', async (req) => {
      requireBot(ctx, req);
      const channel = channelForBot(ctx, req.params.channel_id ?? '');
      const guild = guilds.guild(channel.guildId);
      if (!guild) throw unknown('Guild');
      const body = await req.json();
      const errors = new FieldErrors();
      const b = isRecord(body) ? body : {};
      const [overwrite] = readOverwrites(errors, [{ ...b, id: req.params.overwrite_id }], guild) ?? [];
      errors.finish();
      if (!overwrite) throw unknown('Overwrite');
      const before = channel.overwrites.find((o) => sameTarget(o, overwrite));
      checkOverwriteChanges(channel, guild, [{ before, after: overwrite }]);
      const rest = channel.overwrites.filter((o) => !(o.id === overwrite.id && o.type === overwrite.type));
      guilds.updateChannel(channel, { overwrites: [...rest, overwrite] });
      return noContentReply();
    }),
    apiRoute('DELETE', '/channels/:channel_id/permissions/:overwrite_id', (req) => {
      requireBot(ctx, req);
      const channel = channelForBot(ctx, req.params.channel_id ?? '');
      const guild = guilds.guild(channel.guildId);
      if (!guild) throw unknown('Guild');
      const id = req.params.overwrite_id ?? '';
      checkOverwriteChanges(
        channel,
        guild,
        channel.overwrites.filter((o) => o.id === id).map((before) => ({ before })),
      );
      if (channel.overwrites.some((o) => o.id === id)) {
        guilds.updateChannel(channel, { overwrites: channel.overwrites.filter((o) => o.id !== id) });
      }
      return noContentReply();
    }),
  ];
}
