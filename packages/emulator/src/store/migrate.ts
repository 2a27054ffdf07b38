import { permissionRoleName } from '../platform/permissions.js';
import { isSnowflake, SnowflakeGenerator } from '../snowflake.js';
import { generateApplicationKey } from './applicationKey.js';
import type { ApplicationRecord, GuildMemberRecord, RoleRecord } from './types.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Brings a version 1 saved state's guilds to version 2 in place. Version 1 had no roles: each member carried
 * its own guild permissions. Version 2 gives the @everyone role nothing and each member the role for its
 * permissions (one role per distinct bitfield), so every member keeps exactly what it held. New role ids are
 * minted at `now` by a generator of their own, which never repeats an id of the emulator's.
 */
export function migrateGuildsFromV1(guilds: Record<string, unknown>, now: number): void {
  const ids = new SnowflakeGenerator(() => now);
  for (const [guildId, guild] of Object.entries(guilds)) {
    if (!isObject(guild) || !isObject(guild.members) || typeof guild.ownerId !== 'string') {
      throw new RangeError(`the saved state's guild ${guildId} is malformed`);
    }
    const roles: Record<string, RoleRecord> = {
      [guildId]: {
        id: guildId,
        name: '@everyone',
        permissions: '0',
        position: 0,
        color: 0,
        hoist: false,
        mentionable: false,
        botId: null,
      },
    };
    const byBits = new Map<string, string>();
    const members: Record<string, GuildMemberRecord> = {};
    const joinedAt = typeof guild.createdAt === 'number' ? guild.createdAt : now;
    for (const [userId, bits] of Object.entries(guild.members)) {
      // A member id that is no snowflake ("__proto__" above all) must not become a key of the new record.
      if (!isSnowflake(userId) || typeof bits !== 'string' || !/^[0-9]{1,20}$/.test(bits)) {
        throw new RangeError(`the saved state's guild ${guildId} has a malformed member ${userId}`);
      }
      const memberRoles: string[] = [];
      if (userId !== guild.ownerId) {
        let roleId = byBits.get(bits);
        if (roleId === undefined) {
          roleId = ids.next();
          byBits.set(bits, roleId);
          roles[roleId] = {
            id: roleId,
            name: permissionRoleName(BigInt(bits)),
            permissions: bits,
            position: byBits.size,
            color: 0,
            hoist: false,
            mentionable: false,
            botId: null,
          };
        }
        memberRoles.push(roleId);
      }
      members[userId] = { roles: memberRoles, nick: null, joinedAt, avatar: null, banner: null, bio: null };
    }
    members[guild.ownerId] ??= { roles: [], nick: null, joinedAt, avatar: null, banner: null, bio: null };
    guild.members = members;
    guild.roles = roles;
  }
}

/**
 * Gives a saved application record the fields states saved before them lack, in place: the platform's defaults
 * for the portal settings (privileged intents and channel obfuscation off, no description, icon, tags or
 * install links, both installation contexts on, interactions over the gateway), and a new signing key pair for
 * states saved before the key was kept. That key is made once: the next save keeps it, so the public key stays
 * the same from then on.
 */
export function completeApplication(application: Record<string, unknown>): void {
  application.privilegedIntents ??= 0;
  application.channelObfuscation ??= false;
  application.signatureKey ??= generateApplicationKey();
  for (const [field, value] of Object.entries(portalDefaults())) application[field] ??= value;
  application.interactionsEndpointUrl ??= null;
}

/**
 * The fields of a new application that its developer edits in the portal (`PATCH /applications/@me`), as
 * the platform starts them: empty, and installable both ways. A new emulator's application and an older
 * saved one (completeApplication) both start from these.
 */
export function portalDefaults(): Pick<
  ApplicationRecord,
  | 'description'
  | 'icon'
  | 'coverImage'
  | 'tags'
  | 'customInstallUrl'
  | 'roleConnectionsVerificationUrl'
  | 'installParams'
  | 'installContexts'
> {
  return {
    description: '',
    icon: null,
    coverImage: null,
    tags: [],
    customInstallUrl: null,
    roleConnectionsVerificationUrl: null,
    installParams: null,
    installContexts: defaultInstallContexts(),
  };
}

/**
 * What a new application supports (the document: new apps default to both User Install and Guild Install,
 * with the provider's install link, which adds `applications.commands` to both contexts).
 */
export function defaultInstallContexts(): {
  guild: { scopes: string[]; permissions: string };
  user: { scopes: string[]; permissions: string };
} {
  return {
    guild: { scopes: ['applications.commands'], permissions: '0' },
    user: { scopes: ['applications.commands'], permissions: '0' },
  };
}
