import type { EmulatorContext } from '../context.js';
import type { UserRecord } from '../store/types.js';
import type { LocalClientOpened } from '../types.js';
import { RpcCommandError, RpcErrorCode } from './protocol.js';

export type { LocalClientOpened } from '../types.js';

/**
 * The desktop-client commands of the SDK's chat features. The platform does not publish the commands its SDK
 * sends for them; these names and shapes are the emulator's (and sdkpp's) choice, documented in
 * docs/messages.md:
 * - `SET_SHOWING_CHAT {showing_chat: boolean}` → null: the game on this machine shows chat, so the desktop
 *   client stops notifying its user of the direct messages the game shows (C++ `SetShowingChat`).
 * - `OPEN_MESSAGE {message_id}` → `{message_id, channel_id}`: the desktop client opens the message
 *   (`OpenMessageInDiscord`); 4005 when its user cannot view that message in Discord.
 * - `OPEN_CONNECTED_GAMES_SETTINGS {}` → null: the desktop client opens its Connected Games settings.
 */
export const ChatCommand = {
  SetShowingChat: 'SET_SHOWING_CHAT',
  OpenMessage: 'OPEN_MESSAGE',
  OpenConnectedGamesSettings: 'OPEN_CONNECTED_GAMES_SETTINGS',
} as const;

/** What the chat commands may touch besides the emulator: the connection's flag and the server's record. */
export interface ChatCommandScope {
  ctx: EmulatorContext;
  user: UserRecord;
  /** Sets this connection's "the game shows chat". */
  showChat(showing: boolean): void;
  /** Records what was opened (the admin API and dashboard show it). */
  opened(item: Omit<LocalClientOpened, 'at'>): void;
  /** Records a command the admin API reports (`rpcCommands`). */
  record(cmd: string, args: Record<string, unknown>): void;
}

const isFull = (ctx: EmulatorContext, id: string): boolean => {
  const user = ctx.store.user(id);
  return user !== undefined && !user.provisional;
};

/**
 * The channel in which `viewer` can see a message in the chat client, or undefined: a direct message between
 * two full accounts (one of them the viewer), or a lobby message of a lobby linked to a guild channel the
 * viewer is in (as a lobby member or a member of the channel's guild). Ephemeral conversations of
 * provisional accounts live only in games.
 */
export function messageChannelInDiscord(
  ctx: EmulatorContext,
  viewer: UserRecord,
  messageId: string,
): string | undefined {
  const dm = ctx.messages.get(messageId);
  if (dm) {
    if (viewer.id !== dm.authorId && viewer.id !== dm.recipientId) return undefined;
    if (!isFull(ctx, dm.authorId) || !isFull(ctx, dm.recipientId)) return undefined;
    return viewer.id === dm.authorId ? dm.recipientId : dm.authorId;
  }
  const all = ctx.store.state.lobbyMessages;
  const message = Object.hasOwn(all, messageId) ? all[messageId] : undefined;
  const lobby = message ? ctx.lobbies.get(message.lobbyId) : undefined;
  const channelId = lobby?.linkedChannelId ?? null;
  const channel = channelId === null ? undefined : ctx.guilds.channel(channelId);
  if (!lobby || !channel) return undefined;
  const sees = ctx.lobbies.isMember(lobby.id, viewer.id) || ctx.guilds.isMember(channel.guildId, viewer.id);
  return sees ? channel.id : undefined;
}

/** Runs one chat command; undefined when `cmd` is not one of them. */
export function runChatCommand(
  scope: ChatCommandScope,
  cmd: string,
  args: Record<string, unknown>,
): { reply: unknown } | undefined {
  const { ctx, user } = scope;
  switch (cmd) {
    case ChatCommand.SetShowingChat: {
      if (typeof args.showing_chat !== 'boolean') {
        throw new RpcCommandError(RpcErrorCode.InvalidPayload, 'showing_chat must be a boolean');
      }
      scope.showChat(args.showing_chat);
      scope.record(cmd, args);
      ctx.log.line(
        'rpc',
        `a game of ${user.username} ${args.showing_chat ? 'shows' : 'no longer shows'} chat`,
      );
      return { reply: null };
    }
    case ChatCommand.OpenMessage: {
      const messageId = args.message_id;
      if (typeof messageId !== 'string' || !/^[0-9]{1,20}$/.test(messageId)) {
        throw new RpcCommandError(RpcErrorCode.InvalidPayload, 'message_id must be a snowflake');
      }
      const channelId = messageChannelInDiscord(ctx, user, messageId);
      if (channelId === undefined) {
        ctx.log.line('rpc', `OPEN_MESSAGE: ${user.username} cannot view message ${messageId} in Discord`);
        throw new RpcCommandError(RpcErrorCode.InvalidChannel, 'This message cannot be viewed in Discord');
      }
      scope.opened({ kind: 'message', messageId, channelId });
      scope.record(cmd, args);
      ctx.log.line('rpc', `the local client of ${user.username} opened message ${messageId}`);
      return { reply: { message_id: messageId, channel_id: channelId } };
    }
    case ChatCommand.OpenConnectedGamesSettings:
      scope.opened({ kind: 'connectedGamesSettings', messageId: null, channelId: null });
      scope.record(cmd, args);
      ctx.log.line('rpc', `the local client of ${user.username} opened the Connected Games settings`);
      return { reply: null };
    default:
      return undefined;
  }
}
