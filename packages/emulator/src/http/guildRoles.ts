import {
  FieldErrors,
  optionalBoolean,
  optionalBitfield,
  optionalName,
  requireObjectBody,
} from '../bodies/fieldErrors.js';
import { ENHANCED_ROLE_COLORS, readRoleColors } from '../bodies/roleColors.js';
import { wireRole } from '../bot/guildWire.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, missingPermissions, unknown } from '../platform/errors.js';
import { Permission, hasAll, parsePermissions, permissionNames } from '../platform/permissions.js';
import { rank } from '../social/memberPermissions.js';
import type { GuildRecord, RoleRecord } from '../store/types.js';
import { guildForBot } from './botAccess.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** Roles per guild (the platform's limit). */
export const MAX_ROLES = 250;

/** The highest position among the bot's roles: it may manage only roles below it. */
export function botTopPosition(guild: GuildRecord, botId: string): number {
  return rank(guild, botId);
}

/**
 * The role routes: list, Get Guild Role (one by id), Get Guild Role Member Counts (members per role), and
 * create / modify / delete with MANAGE_ROLES, below the bot's own highest role, granting only bits the bot
 * holds itself.
 */
export function guildRoleRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const botId = store.state.application.id;

  const roleOf = (guild: GuildRecord, id: string): RoleRecord => {
    const role = guilds.role(guild.id, id);
    if (!role) throw unknown('Role');
    return role;
  };
  const manageable = (guild: GuildRecord, role: RoleRecord): void => {
    if (role.position >= botTopPosition(guild, botId) || role.botId !== null) {
      throw missingPermissions([`a role below the bot's highest (${role.name} is not)`]);
    }
  };

  const readBody = async (
    req: RouteRequest,
    guild: GuildRecord,
    creating: boolean,
  ): Promise<Partial<Omit<RoleRecord, 'id' | 'botId'>>> => {
    const b = requireObjectBody(await req.json());
    const errors = new FieldErrors();
    const name = optionalName(errors, ['name'], b.name, 100);
    const permissions =
      b.permissions === undefined || b.permissions === null
        ? undefined
        : optionalBitfield(errors, ['permissions'], b.permissions);
    const enhanced = (guild.features ?? []).includes(ENHANCED_ROLE_COLORS);
    const colors = readRoleColors(errors, b, enhanced);
    const hoist = optionalBoolean(errors, ['hoist'], b.hoist);
    const mentionable = optionalBoolean(errors, ['mentionable'], b.mentionable);
    errors.finish();
    if (permissions !== undefined) {
      const held = guilds.guildPermissions(guild.id, botId);
      if (!hasAll(held, permissions)) throw missingPermissions(permissionNames(permissions & ~held));
    }
    return {
      ...(name === undefined ? (creating ? { name: 'new role' } : {}) : { name }),
      ...(permissions === undefined
        ? creating
          ? { permissions: '0' }
          : {}
        : { permissions: permissions.toString() }),
      ...(colors ?? {}),
      ...(hoist === undefined ? {} : { hoist }),
      ...(mentionable === undefined ? {} : { mentionable }),
    };
  };

  const guildOf = (req: RouteRequest, needed = 0n): GuildRecord => {
    requireBot(ctx, req);
    return guildForBot(ctx, req.params.guild_id ?? '', needed);
  };

  return [
    apiRoute('GET', '/guilds/:guild_id/roles', (req) => {
      const guild = guildOf(req);
      return jsonReply(200, guilds.rolesOf(guild.id).map(wireRole));
    }),
    apiRoute('GET', '/guilds/:guild_id/roles/member-counts', (req) => {
      const guild = guildOf(req);
      return jsonReply(200, guilds.roleMemberCounts(guild.id));
    }),
    apiRoute('GET', '/guilds/:guild_id/roles/:role_id', (req) => {
      const guild = guildOf(req);
      return jsonReply(200, wireRole(roleOf(guild, req.params.role_id ?? '')));
    }),
    apiRoute('POST', '/guilds/:guild_id/roles', async (req) => {
      const guild = guildOf(req, Permission.MANAGE_ROLES);
      if (Object.keys(guild.roles).length >= MAX_ROLES) {
        throw new ApiError(400, 30005, `Maximum number of guild roles reached (${MAX_ROLES})`);
      }
      const fields = await readBody(req, guild, true);
      const role = guilds.createRole(guild.id, {
        name: fields.name ?? 'new role',
        permissions: parsePermissions(fields.permissions),
        ...(fields.color === undefined ? {} : { color: fields.color }),
        ...(fields.secondaryColor === undefined ? {} : { secondaryColor: fields.secondaryColor }),
        ...(fields.tertiaryColor === undefined ? {} : { tertiaryColor: fields.tertiaryColor }),
        ...(fields.hoist === undefined ? {} : { hoist: fields.hoist }),
        ...(fields.mentionable === undefined ? {} : { mentionable: fields.mentionable }),
      });
      // A new role lands at the top; the bot's own stays above what it makes.
      const top = botTopPosition(guild, botId);
      if (role.position >= top) {
        for (const r of Object.values(guild.roles))
          if (r.position >= top && r.id !== role.id) r.position += 1;
        role.position = top;
      }
      return jsonReply(200, wireRole(role));
    }),
    apiRoute('PATCH', '/guilds/:guild_id/roles/:role_id', async (req) => {
      const guild = guildOf(req, Permission.MANAGE_ROLES);
      const role = roleOf(guild, req.params.role_id ?? '');
      if (role.id !== guild.id) manageable(guild, role);
      const change = await readBody(req, guild, false);
      if (role.id === guild.id && change.name !== undefined) Reflect.deleteProperty(change, 'name');
      guilds.updateRole(guild.id, role, change);
      return jsonReply(200, wireRole(role));
    }),
    apiRoute('DELETE', '/guilds/:guild_id/roles/:role_id', (req) => {
      const guild = guildOf(req, Permission.MANAGE_ROLES);
      const role = roleOf(guild, req.params.role_id ?? '');
      if (role.id === guild.id) throw missingPermissions(['the @everyone role cannot be deleted']);
      manageable(guild, role);
      guilds.deleteRole(guild.id, role.id);
      return noContentReply();
    }),
  ];
}
