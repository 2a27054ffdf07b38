import { CAN_LINK_LOBBY_FLAG, parseLobby, parseLobbyMember, stringMap } from '../lobbies/wireLobby.js';
import type { LobbyMemberData } from '../lobbies/wireLobby.js';
import { isSnowflake } from '../util/snowflake.js';
import type {
  BackendLobby,
  BackendLobbyMember,
  BackendLobbyMessage,
  BackendMemberChange,
  BackendMemberInput,
} from './types.js';

function member(data: LobbyMemberData): BackendLobbyMember {
  return {
    id: data.id,
    metadata: data.metadata,
    flags: data.flags,
    canLinkLobby: (data.flags & CAN_LINK_LOBBY_FLAG) !== 0,
    additionalName: data.additionalName,
    connected: data.connected,
  };
}

/** A lobby reply, or undefined when it is not one. */
export function lobbyFromWire(value: unknown): BackendLobby | undefined {
  const lobby = parseLobby(value);
  if (!lobby) return undefined;
  return {
    id: lobby.id,
    applicationId: lobby.applicationId,
    metadata: lobby.metadata,
    members: [...lobby.members.values()].map(member),
    linkedChannel: lobby.linkedChannel,
    flags: lobby.flags,
  };
}

/** A member reply, or undefined when it is not one. */
export function memberFromWire(value: unknown): BackendLobbyMember | undefined {
  const data = parseLobbyMember(value);
  return data ? member(data) : undefined;
}

/** A lobby message reply, or undefined when it is not one. */
export function lobbyMessageFromWire(value: unknown): BackendLobbyMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (!isSnowflake(m.id) || !isSnowflake(m.lobby_id)) return undefined;
  const author = m.author as { id?: unknown } | undefined;
  const sent = typeof m.timestamp === 'string' ? Date.parse(m.timestamp) : NaN;
  return {
    id: m.id,
    lobbyId: m.lobby_id,
    content: typeof m.content === 'string' ? m.content : '',
    authorId: isSnowflake(author?.id) ? author.id : '',
    sentTimestamp: Number.isFinite(sent) ? sent : 0,
    metadata: stringMap(m.metadata),
    moderationMetadata: stringMap(m.moderation_metadata),
    additionalName: typeof m.additional_name === 'string' ? m.additional_name : null,
    applicationId: isSnowflake(m.application_id) ? m.application_id : null,
  };
}

/** The request form of a member (flags folded with `canLinkLobby`). */
export function memberToWire(input: BackendMemberInput | BackendMemberChange): Record<string, unknown> {
  const out: Record<string, unknown> = { id: input.id };
  if (input.metadata !== undefined) out.metadata = input.metadata;
  if (input.flags !== undefined || input.canLinkLobby !== undefined) {
    const base = input.flags ?? 0;
    out.flags =
      input.canLinkLobby === undefined
        ? base
        : input.canLinkLobby
          ? base | CAN_LINK_LOBBY_FLAG
          : base & ~CAN_LINK_LOBBY_FLAG;
  }
  if (input.additionalName !== undefined) out.additional_name = input.additionalName;
  if ('remove' in input && input.remove) out.remove_member = true;
  return out;
}
