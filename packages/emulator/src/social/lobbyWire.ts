import { wireUser } from '../accounts/userObject.js';
import type { LobbyMemberRecord, LobbyMessageRecord, LobbyRecord, UserRecord } from '../store/types.js';
import { SENT_FROM_GAME_FLAG } from './DirectMessages.js';
import { wireRichContent } from './richContent.js';

/** What the wire functions need to know beyond the records themselves. */
export interface LobbyWireContext {
  applicationId: string;
  /** A user by id. */
  user(id: string): UserRecord | undefined;
  /** Whether the user has a live gateway session (the member's `connected`). */
  connected(userId: string): boolean;
  /** The linked channel's name and guild, or undefined when the channel is gone. */
  channel(id: string): { id: string; name: string; guildId: string } | undefined;
  /** The voice states of the lobby's call (`voice_states`); absent means none. */
  voiceStates?: (lobbyId: string) => Record<string, unknown>[];
}

/** A user as a lobby shows it; an account deleted since (a merged provisional one) keeps its id. */
function userOf(wire: LobbyWireContext, id: string): Record<string, unknown> {
  const user = wire.user(id);
  return user ? { ...wireUser(user) } : { id };
}

/**
 * A lobby member on the wire. `connected` and `user` are emulator-defined (lobby contract): the platform
 * does not publish them, and the SDK needs them for `LobbyMemberHandle.Connected()` and member names.
 */
export function wireLobbyMember(wire: LobbyWireContext, member: LobbyMemberRecord): Record<string, unknown> {
  return {
    id: member.userId,
    metadata: { ...member.metadata },
    flags: member.flags,
    additional_name: member.additionalName,
    connected: wire.connected(member.userId),
    user: userOf(wire, member.userId),
  };
}

/** A lobby on the wire (HTTP replies). */
export function wireLobby(wire: LobbyWireContext, lobby: LobbyRecord): Record<string, unknown> {
  const channel = lobby.linkedChannelId === null ? undefined : wire.channel(lobby.linkedChannelId);
  return {
    id: lobby.id,
    application_id: wire.applicationId,
    metadata: { ...lobby.metadata },
    members: lobby.members.map((m) => wireLobbyMember(wire, m)),
    linked_channel: channel ? { id: channel.id, name: channel.name, guild_id: channel.guildId } : null,
    flags: lobby.flags,
  };
}

/** A lobby as LOBBY_CREATE, LOBBY_UPDATE and READY carry it: the HTTP shape plus `voice_states`. */
export function gatewayLobby(wire: LobbyWireContext, lobby: LobbyRecord): Record<string, unknown> {
  return { ...wireLobby(wire, lobby), voice_states: wire.voiceStates?.(lobby.id) ?? [] };
}

/** The `d` of LOBBY_MEMBER_ADD, _UPDATE and _REMOVE. */
export function memberEvent(
  wire: LobbyWireContext,
  lobby: LobbyRecord,
  member: LobbyMemberRecord,
): Record<string, unknown> {
  return { member: wireLobbyMember(wire, member), lobby_id: lobby.id, application_id: wire.applicationId };
}

/** A lobby message on the wire (HTTP and LOBBY_MESSAGE_CREATE/_UPDATE). */
export function wireLobbyMessage(
  wire: LobbyWireContext,
  message: LobbyMessageRecord,
): Record<string, unknown> {
  const rich = wireRichContent(message.rich);
  return {
    id: message.id,
    type: 0,
    content: message.content,
    lobby_id: message.lobbyId,
    channel_id: message.lobbyId,
    author: userOf(wire, message.authorId),
    timestamp: new Date(message.createdAt).toISOString(),
    edited_timestamp: message.editedAt === null ? null : new Date(message.editedAt).toISOString(),
    metadata: { ...message.metadata },
    moderation_metadata: { ...message.moderationMetadata },
    flags: (message.fromGame ? SENT_FROM_GAME_FLAG : 0) | rich.flags,
    ...(message.fromGame ? { application_id: wire.applicationId } : {}),
    ...rich.fields,
    additional_name: message.additionalName,
  };
}
