/**
 * The platform's permission bits. Bits 43–52 are the interface document's table (CREATE_GUILD_EXPRESSIONS,
 * CREATE_EVENTS, SET_VOICE_CHANNEL_STATUS, USE_EXTERNAL_APPS, PIN_MESSAGES, BYPASS_SLOWMODE); the rest are the
 * platform's long-standing values.
 */
export const Permission = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  PRIORITY_SPEAKER: 1n << 8n,
  STREAM: 1n << 9n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  SEND_TTS_MESSAGES: 1n << 12n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  USE_EXTERNAL_EMOJIS: 1n << 18n,
  VIEW_GUILD_INSIGHTS: 1n << 19n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  MUTE_MEMBERS: 1n << 22n,
  DEAFEN_MEMBERS: 1n << 23n,
  MOVE_MEMBERS: 1n << 24n,
  USE_VAD: 1n << 25n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_NICKNAMES: 1n << 27n,
  MANAGE_ROLES: 1n << 28n,
  MANAGE_WEBHOOKS: 1n << 29n,
  MANAGE_GUILD_EXPRESSIONS: 1n << 30n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  REQUEST_TO_SPEAK: 1n << 32n,
  MANAGE_EVENTS: 1n << 33n,
  MANAGE_THREADS: 1n << 34n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  CREATE_PRIVATE_THREADS: 1n << 36n,
  USE_EXTERNAL_STICKERS: 1n << 37n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  USE_EMBEDDED_ACTIVITIES: 1n << 39n,
  MODERATE_MEMBERS: 1n << 40n,
  VIEW_CREATOR_MONETIZATION_ANALYTICS: 1n << 41n,
  USE_SOUNDBOARD: 1n << 42n,
  CREATE_GUILD_EXPRESSIONS: 1n << 43n,
  CREATE_EVENTS: 1n << 44n,
  USE_EXTERNAL_SOUNDS: 1n << 45n,
  SEND_VOICE_MESSAGES: 1n << 46n,
  SET_VOICE_CHANNEL_STATUS: 1n << 48n,
  SEND_POLLS: 1n << 49n,
  USE_EXTERNAL_APPS: 1n << 50n,
  PIN_MESSAGES: 1n << 51n,
  BYPASS_SLOWMODE: 1n << 52n,
} as const;

/** A permission's name. */
export type PermissionName = keyof typeof Permission;

/** Every permission bit the platform defines; what the owner and administrators hold. */
export const ALL_PERMISSIONS = Object.values(Permission).reduce((all, bit) => all | bit, 0n);

/** What a member gets by default and by redeeming an invite: see and write, nothing more. */
export const MEMBER_PERMISSIONS = Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES;

/** What linking a channel to a lobby takes (contract: view, send and manage the channel). */
export const LINK_PERMISSIONS =
  Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES | Permission.MANAGE_CHANNELS;

/** The name of the role the admin hooks give members who were given a permissions bitfield. */
export function permissionRoleName(bits: bigint): string {
  return bits === MEMBER_PERMISSIONS ? 'Member' : `Permissions ${bits}`;
}

/** A permissions bitfield from its decimal string; anything malformed counts as no permission. */
export function parsePermissions(value: string | undefined): bigint {
  return value !== undefined && /^[0-9]{1,20}$/.test(value) ? BigInt(value) : 0n;
}

/** True when every bit of `wanted` is in `held`. */
export function hasAll(held: bigint, wanted: bigint): boolean {
  return (held & wanted) === wanted;
}

/** The names of the bits in `bits`, for error messages and logs. */
export function permissionNames(bits: bigint): string[] {
  return Object.entries(Permission)
    .filter(([, bit]) => (bits & bit) !== 0n)
    .map(([name]) => name);
}
