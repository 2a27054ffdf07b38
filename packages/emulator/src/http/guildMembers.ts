import {
  FieldErrors,
  isRecord,
  optionalArray,
  optionalInteger,
  optionalString,
  queryInteger,
  requireObjectBody,
} from '../bodies/fieldErrors.js';
import { wireMember } from '../bot/guildWire.js';
import type { EmulatorContext } from '../context.js';
import { missingAccess, missingPermissions, unknown } from '../platform/errors.js';
import { Intent } from '../platform/intents.js';
import { Permission, hasAll } from '../platform/permissions.js';
import { compareIds } from '../snowflake.js';
import { outranks } from '../social/memberPermissions.js';
import type { GuildMemberRecord, GuildRecord } from '../store/types.js';
import { guildForBot, hierarchyRefusal } from './botAccess.js';
import { botTopPosition } from './guildRoles.js';
import { applyMemberVoiceChange, checkMemberVoiceChange, readMemberVoiceChange } from './memberVoice.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** List Guild Members' page size bounds. */
const MAX_MEMBER_PAGE = 1000;
/** Prune's `days` bounds (the platform's). */
const PRUNE_DAYS = { min: 1, max: 30, default: 7 };
const DAY_MS = 86_400_000;

/**
 * The member routes: get one, list (needs the privileged GUILD_MEMBERS intent enabled for the app), Modify
 * Current Member (nick, and since 2025-09-10 banner, avatar and bio), Modify Guild Member (nick, roles),
 * role add and remove, kick, and Get Guild Prune Count / Begin Guild Prune (KICK_MEMBERS and MANAGE_GUILD).
 * Whatever acts on another member reaches only members ranked below the bot's highest role.
 */
export function guildMemberRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const botId = store.state.application.id;

  const guildOf = (req: RouteRequest, needed = 0n): GuildRecord => {
    requireBot(ctx, req);
    return guildForBot(ctx, req.params.guild_id ?? '', needed);
  };
  const memberOf = (guild: GuildRecord, userId: string): GuildMemberRecord => {
    const member = guilds.member(guild.id, userId);
    if (!member) throw unknown('Member');
    return member;
  };
  const view = (guild: GuildRecord, userId: string): Record<string, unknown> =>
    wireMember(memberOf(guild, userId), store.user(userId));
  /** Roles the bot may hand out or take away: below its highest, and not a bot's own. */
  const assignable = (guild: GuildRecord, roleId: string): void => {
    const role = guilds.role(guild.id, roleId);
    if (!role || roleId === guild.id) throw unknown('Role');
    if (role.botId !== null || role.position >= botTopPosition(guild, botId)) {
      throw missingPermissions([`a role below the bot's highest (${role.name} is not)`]);
    }
  };

  /**
   * A member the bot may kick, rename or give and take roles from: one ranked below its highest role (the
   * platform's hierarchy, which no permission lifts). Its own member is exempt: acting on itself reaches no one
   * above it.
   */
  const beneath = (guild: GuildRecord, userId: string): void => {
    if (userId === botId) return;
    const refusal = hierarchyRefusal(guild, botId, userId);
    if (refusal !== undefined) throw missingPermissions([refusal]);
  };

  const pruneable = (guild: GuildRecord, req: RouteRequest, fromBody?: Record<string, unknown>): string[] => {
    const raw = fromBody ?? Object.fromEntries(req.query());
    const errors = new FieldErrors();
    const daysValue =
      typeof raw.days === 'string' && /^[0-9]{1,3}$/.test(raw.days) ? Number(raw.days) : raw.days;
    const days =
      optionalInteger(errors, ['days'], daysValue, PRUNE_DAYS.min, PRUNE_DAYS.max) ?? PRUNE_DAYS.default;
    const includeRaw = raw.include_roles;
    const include =
      typeof includeRaw === 'string'
        ? includeRaw.split(',').filter((s) => s.length > 0)
        : (optionalArray(errors, ['include_roles'], includeRaw, 250) ?? []).map(String);
    errors.finish();
    const since = store.now() - days * DAY_MS;
    // A member is pruned when it has no roles but the included ones and has been there longer than `days`
    // (the emulator has no activity to look at, so joining counts as the last activity). Prune is a bulk
    // kick, so the hierarchy holds: `include_roles` naming a role above the bot reaches none of its holders.
    return Object.entries(guild.members)
      .filter(([id]) => outranks(guild, botId, id) && store.user(id)?.bot !== true)
      .filter(([, m]) => m.joinedAt <= since && m.roles.every((r) => include.includes(r)))
      .map(([id]) => id);
  };

  return [
    apiRoute('GET', '/guilds/:guild_id/members', (req) => {
      const guild = guildOf(req);
      if ((store.state.application.privilegedIntents & Intent.GUILD_MEMBERS) === 0) {
        throw missingAccess('the GUILD_MEMBERS privileged intent is not enabled for the application');
      }
      const query = req.query();
      const limit = queryInteger(query, 'limit', 1, MAX_MEMBER_PAGE, 1);
      const after = query.get('after') ?? '0';
      const ids = Object.keys(guild.members)
        .filter((id) => compareIds(id, after) > 0)
        .sort(compareIds)
        .slice(0, limit);
      return jsonReply(
        200,
        ids.map((id) => view(guild, id)),
      );
    }),
    apiRoute('PATCH', '/guilds/:guild_id/members/@me', async (req) => {
      const guild = guildOf(req);
      const b = requireObjectBody(await req.json());
      const errors = new FieldErrors();
      const change: Partial<GuildMemberRecord> = {};
      for (const [key, max] of [
        ['nick', 32],
        ['bio', 190],
        ['avatar', 1024 * 1024],
        ['banner', 1024 * 1024],
      ] as const) {
        if (!Object.hasOwn(b, key)) continue;
        const value = b[key] === null ? null : optionalString(errors, [key], b[key], max);
        if (value !== undefined) change[key] = value;
      }
      errors.finish();
      if (
        change.nick !== undefined &&
        !hasAll(guilds.guildPermissions(guild.id, botId), Permission.CHANGE_NICKNAME)
      ) {
        throw missingPermissions(['CHANGE_NICKNAME']);
      }
      // Avatars and banners arrive as data URIs; the emulator keeps a short hash-like name, as the CDN would.
      for (const key of ['avatar', 'banner'] as const) {
        const value = change[key];
        if (typeof value === 'string') change[key] = store.nextId();
      }
      guilds.updateMember(guild.id, botId, change);
      return jsonReply(200, view(guild, botId));
    }),
    apiRoute('GET', '/guilds/:guild_id/members/:user_id', (req) => {
      const guild = guildOf(req);
      return jsonReply(200, view(guild, req.params.user_id ?? ''));
    }),
    apiRoute('PATCH', '/guilds/:guild_id/members/:user_id', async (req) => {
      const guild = guildOf(req);
      const userId = req.params.user_id ?? '';
      const member = memberOf(guild, userId);
      const b = requireObjectBody(await req.json());
      const errors = new FieldErrors();
      const nick = Object.hasOwn(b, 'nick')
        ? b.nick === null
          ? null
          : optionalString(errors, ['nick'], b.nick, 32)
        : undefined;
      const roles = optionalArray(errors, ['roles'], b.roles, 250);
      const voice = readMemberVoiceChange(errors, b);
      errors.finish();
      checkMemberVoiceChange(ctx, guild, userId, botId, voice);
      const held = guilds.guildPermissions(guild.id, botId);
      if (nick !== undefined) {
        if (!hasAll(held, Permission.MANAGE_NICKNAMES)) throw missingPermissions(['MANAGE_NICKNAMES']);
      }
      if (roles && !hasAll(held, Permission.MANAGE_ROLES)) throw missingPermissions(['MANAGE_ROLES']);
      if (nick !== undefined || roles) beneath(guild, userId);
      if (roles) {
        const next = roles.map(String);
        const changed = [
          ...next.filter((r) => !member.roles.includes(r)),
          ...member.roles.filter((r) => !next.includes(r)),
        ];
        for (const r of changed) assignable(guild, r);
      }
      if (nick !== undefined) guilds.updateMember(guild.id, userId, { nick });
      if (roles) guilds.setMemberRoles(guild.id, userId, roles.map(String));
      applyMemberVoiceChange(ctx, guild, userId, voice);
      return jsonReply(200, view(guild, userId));
    }),
    apiRoute('PUT', '/guilds/:guild_id/members/:user_id/roles/:role_id', (req) => {
      const guild = guildOf(req, Permission.MANAGE_ROLES);
      const userId = req.params.user_id ?? '';
      const member = memberOf(guild, userId);
      const roleId = req.params.role_id ?? '';
      assignable(guild, roleId);
      beneath(guild, userId);
      if (!member.roles.includes(roleId)) guilds.setMemberRoles(guild.id, userId, [...member.roles, roleId]);
      return noContentReply();
    }),
    apiRoute('DELETE', '/guilds/:guild_id/members/:user_id/roles/:role_id', (req) => {
      const guild = guildOf(req, Permission.MANAGE_ROLES);
      const userId = req.params.user_id ?? '';
      const member = memberOf(guild, userId);
      const roleId = req.params.role_id ?? '';
      assignable(guild, roleId);
      beneath(guild, userId);
      if (member.roles.includes(roleId))
        guilds.setMemberRoles(
          guild.id,
          userId,
          member.roles.filter((r) => r !== roleId),
        );
      return noContentReply();
    }),
    apiRoute('DELETE', '/guilds/:guild_id/members/:user_id', (req) => {
      const guild = guildOf(req, Permission.KICK_MEMBERS);
      const userId = req.params.user_id ?? '';
      memberOf(guild, userId);
      beneath(guild, userId);
      guilds.removeMember(guild.id, userId);
      return noContentReply();
    }),
    apiRoute('GET', '/guilds/:guild_id/prune', (req) => {
      // The document: prune needs MANAGE_GUILD in addition to KICK_MEMBERS.
      const guild = guildOf(req, Permission.KICK_MEMBERS | Permission.MANAGE_GUILD);
      return jsonReply(200, { pruned: pruneable(guild, req).length });
    }),
    apiRoute('POST', '/guilds/:guild_id/prune', async (req) => {
      const guild = guildOf(req, Permission.KICK_MEMBERS | Permission.MANAGE_GUILD);
      const body = await req.json().catch(() => ({}));
      const b = isRecord(body) ? body : {};
      const ids = pruneable(guild, req, b);
      for (const id of ids) guilds.removeMember(guild.id, id);
      ctx.log.line('guilds', `pruned ${ids.length} member(s) from ${guild.name}`);
      return jsonReply(200, { pruned: b.compute_prune_count === false ? null : ids.length });
    }),
  ];
}
