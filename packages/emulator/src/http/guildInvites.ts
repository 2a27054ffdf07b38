import { wireRolePartial } from '../bot/guildWire.js';
import type { EmulatorContext } from '../context.js';
import { Permission, hasAll } from '../platform/permissions.js';
import type { ChannelInviteRecord } from '../store/types.js';
import { isSnowflake } from '../snowflake.js';
import { channelForBot } from './botAccess.js';
import { ApiError, missingPermissions, unknown } from '../platform/errors.js';
import {
  FieldErrors,
  isRecord,
  optionalArray,
  optionalBoolean,
  optionalInteger,
} from '../bodies/fieldErrors.js';
import { parseJsonBody } from './jsonBody.js';
import { botTopPosition } from './guildRoles.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** The largest `target_users_file` the emulator reads. */
export const MAX_TARGET_USERS_FILE = 1024 * 1024;
/** The longest invite lifetime (7 days), and the default (1 day). */
const MAX_AGE = { max: 604_800, default: 86_400 };

/**
 * Reads a `target_users_file`: user ids one per line, an optional `user_id` header, commas or blanks around
 * them tolerated. A line that is not a snowflake is reported with its number.
 */
export function parseTargetUsers(text: string): string[] | { line: number } {
  const ids = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const cell = (lines[i] ?? '').split(',')[0]?.trim() ?? '';
    if (cell === '' || (i === 0 && cell.toLowerCase() === 'user_id')) continue;
    if (!isSnowflake(cell)) return { line: i + 1 };
    ids.add(cell);
  }
  return [...ids];
}

/**
 * Guild invites of the bot: Create Channel Invite (CREATE_INSTANT_INVITE; JSON, or multipart with a
 * `target_users_file` CSV; `role_ids` given on acceptance, which takes MANAGE_ROLES and roles below the bot's),
 * Get Channel Invites (MANAGE_CHANNELS; role partials), Get Target Users (a CSV whose only header is
 * `user_id`), and Delete Invite. Users accept with POST /invites/{code}, as lobby channel invites.
 */
export function guildInviteRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const botId = store.state.application.id;

  const wire = (record: ChannelInviteRecord): Record<string, unknown> => {
    const guild = guilds.guild(record.guildId);
    const channel = guilds.channel(record.channelId);
    const inviter = record.inviterId ? store.user(record.inviterId) : undefined;
    return {
      type: 0,
      code: record.code,
      guild: guild ? { id: guild.id, name: guild.name } : null,
      channel: channel ? { id: channel.id, name: channel.name, type: channel.type } : null,
      ...(inviter ? { inviter: { id: inviter.id, username: inviter.username, bot: inviter.bot } } : {}),
      uses: record.uses ?? 0,
      max_uses: record.maxUses ?? 0,
      max_age: record.maxAgeSeconds ?? 0,
      temporary: record.temporary ?? false,
      created_at: new Date(record.createdAt).toISOString(),
      expires_at:
        record.expiresAt === Number.MAX_SAFE_INTEGER ? null : new Date(record.expiresAt).toISOString(),
      roles: (record.roleIds ?? []).flatMap((id) => {
        const role = guilds.role(record.guildId, id);
        return role ? [wireRolePartial(role)] : [];
      }),
    };
  };

  const readBody = async (
    req: RouteRequest,
  ): Promise<{ body: Record<string, unknown>; targets: string | undefined }> => {
    if (!req.isMultipart()) {
      const json = await req.json();
      return { body: isRecord(json) ? json : {}, targets: undefined };
    }
    const form = await req.multipart({
      fileBytes: MAX_TARGET_USERS_FILE,
      files: 1,
      fieldBytes: 64 * 1024,
      fields: 12,
    });
    const file = form.files.find((f) => f.field === 'target_users_file');
    if (file?.truncated)
      throw new ApiError(
        413,
        40005,
        `Request entity too large: target_users_file is over ${MAX_TARGET_USERS_FILE} bytes`,
      );
    let body: Record<string, unknown> = {};
    const payload = form.fields.get('payload_json');
    if (payload !== undefined) {
      const parsed = parseJsonBody(payload);
      if (isRecord(parsed)) body = parsed;
    }
    for (const [name, value] of form.fields) {
      if (name === 'payload_json') continue;
      // Plain form fields: numbers and booleans as text, role_ids as a JSON array or comma list.
      body[name] =
        /^[0-9]+$/.test(value) && name !== 'role_ids'
          ? Number(value)
          : value === 'true'
            ? true
            : value === 'false'
              ? false
              : value;
      if (name === 'role_ids')
        body[name] = value.startsWith('[') ? parseJsonBody(value) : value.split(',').filter(Boolean);
    }
    return { body, targets: file?.bytes.toString('utf8') };
  };

  return [
    apiRoute('POST', '/channels/:channel_id/invites', async (req) => {
      requireBot(ctx, req);
      const channel = channelForBot(ctx, req.params.channel_id ?? '', Permission.CREATE_INSTANT_INVITE);
      const guild = guilds.guild(channel.guildId);
      if (!guild) throw unknown('Guild');
      const { body, targets } = await readBody(req);
      const errors = new FieldErrors();
      const maxAge = optionalInteger(errors, ['max_age'], body.max_age, 0, MAX_AGE.max) ?? MAX_AGE.default;
      const maxUses = optionalInteger(errors, ['max_uses'], body.max_uses, 0, 100) ?? 0;
      const temporary = optionalBoolean(errors, ['temporary'], body.temporary) ?? false;
      const roleIds = (optionalArray(errors, ['role_ids'], body.role_ids, 250) ?? []).map(String);
      roleIds.forEach((id, i) => {
        if (!guilds.role(guild.id, id) || id === guild.id)
          errors.add(['role_ids', i], 'UNKNOWN_ROLE', `No role ${id}`);
      });
      let targetUserIds: string[] | null = null;
      if (targets !== undefined) {
        const parsed = parseTargetUsers(targets);
        if (Array.isArray(parsed)) targetUserIds = parsed;
        else errors.add(['target_users_file'], 'INVALID_CSV', `Line ${parsed.line} is not a user id`);
      }
      errors.finish();
      if (roleIds.length > 0) {
        if (!hasAll(guilds.guildPermissions(guild.id, botId), Permission.MANAGE_ROLES))
          throw missingPermissions(['MANAGE_ROLES']);
        const top = botTopPosition(guild, botId);
        const high = roleIds.find((id) => (guilds.role(guild.id, id)?.position ?? 0) >= top);
        if (high !== undefined) throw missingPermissions([`a role below the bot's highest (${high} is not)`]);
      }
      const record = guilds.invites.createGuildInvite({
        guildId: guild.id,
        channelId: channel.id,
        inviterId: botId,
        maxAgeSeconds: maxAge,
        maxUses,
        temporary,
        roleIds,
        targetUserIds,
      });
      ctx.log.line(
        'invites',
        `guild invite to #${channel.name} made (${targetUserIds === null ? 'anyone' : `${targetUserIds.length} target users`})`,
      );
      return jsonReply(200, wire(record));
    }),
    apiRoute('GET', '/channels/:channel_id/invites', (req) => {
      requireBot(ctx, req);
      const channel = channelForBot(ctx, req.params.channel_id ?? '', Permission.MANAGE_CHANNELS);
      return jsonReply(200, guilds.invites.guildInvitesOf(channel.id).map(wire));
    }),
    apiRoute('GET', '/invites/:code/target-users', (req) => {
      requireBot(ctx, req);
      const record = guilds.invites.get(req.params.code ?? '');
      if (!record || record.lobbyId !== null) throw unknown('Invite');
      const held = guilds.guildPermissions(record.guildId, botId);
      if (record.inviterId !== botId && !hasAll(held, Permission.MANAGE_GUILD))
        throw missingPermissions(['MANAGE_GUILD']);
      const lines = ['user_id', ...(record.targetUserIds ?? [])];
      return {
        status: 200,
        headers: { 'Content-Type': 'text/csv; charset=utf-8' },
        body: `${lines.join('\n')}\n`,
      };
    }),
    apiRoute('DELETE', '/invites/:code', (req) => {
      requireBot(ctx, req);
      const record = guilds.invites.get(req.params.code ?? '');
      if (!record || record.lobbyId !== null) throw unknown('Invite');
      channelForBot(ctx, record.channelId, Permission.MANAGE_CHANNELS);
      guilds.invites.delete(record.code);
      return noContentReply();
    }),
  ];
}
