import { isSnowflake } from '../util/snowflake.js';

/** Member flag: the member may link a guild channel to the lobby. */
export const CAN_LINK_LOBBY_FLAG = 1 << 0;

/** A lobby member as the client keeps it. */
export interface LobbyMemberData {
  id: string;
  metadata: Record<string, string>;
  flags: number;
  additionalName: string | null;
  connected: boolean;
  /** The member's user object when the platform sent one (kept raw for the user store). */
  user?: unknown;
}

/** The guild channel a lobby is linked to. */
export interface LinkedChannel {
  /** The channel id. */
  id: string;
  /** The channel's name. */
  name: string;
  /** The guild that owns the channel. */
  guildId: string;
}

/** A lobby as the client keeps it. */
export interface LobbyData {
  id: string;
  applicationId: string;
  metadata: Record<string, string>;
  /** Members by user id, in the order the platform listed them. */
  members: Map<string, LobbyMemberData>;
  linkedChannel: LinkedChannel | null;
  flags: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string map from the wire; non-string values are dropped rather than trusted. */
export function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) if (typeof item === 'string') out[key] = item;
  return out;
}

/** A lobby member from the wire, or undefined when it has no usable id. */
export function parseLobbyMember(value: unknown): LobbyMemberData | undefined {
  if (!isRecord(value) || !isSnowflake(value.id)) return undefined;
  return {
    id: value.id,
    metadata: stringMap(value.metadata),
    flags: typeof value.flags === 'number' && Number.isInteger(value.flags) ? value.flags : 0,
    additionalName: typeof value.additional_name === 'string' ? value.additional_name : null,
    connected: value.connected === true,
    ...(isRecord(value.user) ? { user: value.user } : {}),
  };
}

function parseLinkedChannel(value: unknown): LinkedChannel | null {
  if (!isRecord(value) || !isSnowflake(value.id)) return null;
  return {
    id: value.id,
    name: typeof value.name === 'string' ? value.name : '',
    guildId: isSnowflake(value.guild_id) ? value.guild_id : '',
  };
}

/** A lobby from the wire (HTTP reply, READY, LOBBY_CREATE/UPDATE), or undefined when it has no usable id. */
export function parseLobby(value: unknown): LobbyData | undefined {
  if (!isRecord(value) || !isSnowflake(value.id)) return undefined;
  const members = new Map<string, LobbyMemberData>();
  if (Array.isArray(value.members)) {
    for (const raw of value.members) {
      const member = parseLobbyMember(raw);
      if (member) members.set(member.id, member);
    }
  }
  return {
    id: value.id,
    applicationId: isSnowflake(value.application_id) ? value.application_id : '',
    metadata: stringMap(value.metadata),
    members,
    linkedChannel: parseLinkedChannel(value.linked_channel),
    flags: typeof value.flags === 'number' ? value.flags : 0,
  };
}

/** The `{member, lobby_id}` of LOBBY_MEMBER_ADD/UPDATE/REMOVE, or undefined when malformed. */
export function parseMemberEvent(value: unknown): { lobbyId: string; member: LobbyMemberData } | undefined {
  if (!isRecord(value) || !isSnowflake(value.lobby_id)) return undefined;
  const member = parseLobbyMember(value.member);
  return member ? { lobbyId: value.lobby_id, member } : undefined;
}
