import { ChannelHandle, ChannelType } from '../chat/ChannelHandle.js';
import type { MessageHandle } from '../chat/MessageHandle.js';
import type { OpenMessageInDiscordOptions } from '../chat/DesktopChat.js';
import type { ActivityInvite } from '../invites/ActivityInvite.js';
import type { Activity } from '../presence/Activity.js';
import type { StatusType } from '../presence/StatusType.js';
import type { RelationshipGroupType } from '../social/enums.js';
import type { RelationshipHandle, UserHandle } from '../social/UserHandle.js';
import { withSignal } from '@sdkpp/protocol';
import { ClientCore } from './ClientCore.js';
import type { Session } from './createSession.js';
import { guardAfterDestroy } from './destroyGuard.js';
import { isDestroyed, sessionOf } from './sessionOf.js';

/**
 * The social part of a {@link Client}: rich presence, direct messages, activity invites and friends. See
 * {@link ClientCore} for how the client's methods are grouped; create a `Client`, not this class.
 */
export class SocialClient extends ClientCore {
  /** This client's session. */
  get #s(): Session {
    return sessionOf(this);
  }

  // ── Rich presence ──────────────────────────────────────────────────────────────────────────────

  /**
   * Sets the player's rich presence. When Ready it goes through the gateway, coalesced to the platform's limit
   * of 5 updates per 20 s (the last update always gets through); otherwise through a running local desktop
   * client, which needs no sign-in. Only Playing, Listening, Watching and Competing can be set: anything
   * else, or a field over its limit, is a `ValidationError` before any I/O.
   */
  async updateRichPresence(activity: Activity, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'updateRichPresence()', async () => this.#s.presence.update(activity));
  }

  /** Clears the player's rich presence. */
  async clearRichPresence(options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'clearRichPresence()', async () => this.#s.presence.clear());
  }

  /**
   * Sets the player's online status (Online, Idle, Dnd or Invisible) for the current session. Invisible shows
   * the player as offline to friends.
   */
  async setOnlineStatus(status: StatusType, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'setOnlineStatus()', async () => {
      await this.#s.presence.setStatus(status);
    });
  }

  // ── Direct messages ────────────────────────────────────────────────────────────────────────────

  /**
   * Sends a direct message (1–2000 characters) with optional metadata (at most 25 keys, 1024 characters in
   * all); resolves with the message id. Limits are checked before any request.
   */
  async sendUserMessage(
    recipientId: string,
    content: string,
    metadata?: Record<string, string>,
    options: { signal?: AbortSignal } = {},
  ): Promise<string> {
    return withSignal(options.signal, 'sendUserMessage()', async () =>
      this.#s.directMessages.send(recipientId, content, metadata),
    );
  }

  /** Edits one of the player's direct messages. */
  async editUserMessage(
    recipientId: string,
    messageId: string,
    content: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'editUserMessage()', async () =>
      this.#s.directMessages.edit(recipientId, messageId, content),
    );
  }

  /** Deletes one of the player's direct messages. */
  async deleteUserMessage(
    recipientId: string,
    messageId: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'deleteUserMessage()', async () =>
      this.#s.directMessages.delete(recipientId, messageId),
    );
  }

  /**
   * The last `limit` (1–200) direct messages with a user, of the last 72 hours, oldest first. The conversation
   * is cached and kept current by events: asking again for what the client holds makes no request.
   */
  async getUserMessagesWithLimit(
    recipientId: string,
    limit: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<MessageHandle[]> {
    return withSignal(options.signal, 'getUserMessagesWithLimit()', async () =>
      this.#s.directMessages.history(recipientId, limit),
    );
  }

  /** Every user the player has direct messages with, and the newest message id of each. */
  async getUserMessageSummaries(options: { signal?: AbortSignal } = {}): Promise<
    {
      /** The other user in the conversation. */
      userId: string;
      /** The id of the newest message, sent by either user. */
      lastMessageId: string;
    }[]
  > {
    return withSignal(options.signal, 'getUserMessageSummaries()', async () =>
      this.#s.directMessages.summaries(),
    );
  }

  /** A message the client knows (received, sent or fetched). */
  getMessageHandle(messageId: string): MessageHandle | undefined {
    return this.#s.directMessages.handle(messageId);
  }

  /**
   * A channel: a lobby the player is in (type Lobby, its members as recipients), or the direct-message channel
   * with a user the client knows (its id is theirs).
   */
  getChannelHandle(channelId: string): ChannelHandle | undefined {
    const lobby = this.#s.lobbies.handle(channelId);
    if (lobby) {
      return new ChannelHandle(
        { id: lobby.id, type: ChannelType.Lobby, recipients: lobby.lobbyMemberIds, name: '' },
        this.#s.users,
      );
    }
    return this.#s.directMessages.channel(channelId);
  }

  // ── Chat and the desktop client ──────────────────────────────────────────────────────────────────

  /**
   * Tells the desktop client on this machine whether the game is showing chat right now: while it is, the
   * desktop client does not also notify the player of the direct messages the game shows (so one message is
   * not notified twice on one machine). Sent at once when a desktop client runs, and again after it
   * restarts; without one there is nothing to tell. The command is sdkpp's choice (`SET_SHOWING_CHAT`, see
   * docs/messages.md): the platform does not publish its own.
   */
  setShowingChat(showingChat: boolean): void {
    this.#s.desktopChat.setShowingChat(showingChat);
  }

  /**
   * Whether a message the client knows can be viewed in a Discord client: a direct message between two full
   * accounts, or a message of a lobby linked to a guild channel. False for ephemeral conversations (with a
   * provisional account), disclosure messages and unknown ids. Use it to offer "open in Discord" for content
   * the game cannot render ({@link MessageHandle.additionalContent}).
   */
  canOpenMessageInDiscord(messageId: string): boolean {
    return this.#s.desktopChat.canOpen(messageId);
  }

  /**
   * Opens a message in the desktop client. A provisional player has no Discord client: the call asks the game
   * to merge the account first (`onProvisionalUserMergeRequired`, then `provisionalUserMergeCompleted`).
   * Rejects with a `ValidationError` for a message that cannot be viewed in Discord
   * ({@link SocialClient.canOpenMessageInDiscord}), an `RpcError` when no desktop client runs or it refuses.
   */
  async openMessageInDiscord(messageId: string, options: OpenMessageInDiscordOptions = {}): Promise<void> {
    return withSignal(options.signal, 'openMessageInDiscord()', async () =>
      this.#s.desktopChat.open(messageId, options),
    );
  }

  /**
   * Opens the desktop client's Connected Games settings, where the player manages what games using the
   * social SDK may do (e.g. who may send them direct messages). Rejects with an `RpcError` when no desktop
   * client runs.
   */
  async openConnectedGamesSettingsInDiscord(options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'openConnectedGamesSettingsInDiscord()', async () =>
      this.#s.desktopChat.openConnectedGamesSettings(),
    );
  }

  // ── Activity invites ─────────────────────────────────────────────────────────────────────────────

  /**
   * Invites a user to the player's party. The player's rich presence must have a party id and a join
   * secret; `content` is an optional message shown with the invite.
   */
  async sendActivityInvite(
    userId: string,
    content = '',
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'sendActivityInvite()', async () =>
      this.#s.invites.sendInvite(userId, content),
    );
  }

  /** Asks to join the party of a user who is playing this game. */
  async sendActivityJoinRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'sendActivityJoinRequest()', async () =>
      this.#s.invites.sendJoinRequest(userId),
    );
  }

  /** Answers a join request (an invite of type JoinRequest) by inviting its sender to the player's party. */
  async sendActivityJoinRequestReply(
    invite: ActivityInvite,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'sendActivityJoinRequestReply()', async () =>
      this.#s.invites.replyToJoinRequest(invite),
    );
  }

  /** Accepts a Join invite and resolves with the host's join secret, which the game uses to join the party. */
  async acceptActivityInvite(
    invite: ActivityInvite,
    options: { signal?: AbortSignal } = {},
  ): Promise<string> {
    return withSignal(options.signal, 'acceptActivityInvite()', async () => this.#s.invites.accept(invite));
  }

  // ── Friends ────────────────────────────────────────────────────────────────────────────────────

  /** Every relationship: platform friends, game friends, pending requests and blocks. Empty until Ready. */
  getRelationships(): RelationshipHandle[] {
    return this.#s.relationships.list();
  }

  /** The relationship with one user; both types are None when there is none. */
  getRelationshipHandle(userId: string): RelationshipHandle {
    return this.#s.relationships.handle(userId);
  }

  /** Friends in one group of the friends list, sorted by display name. */
  getRelationshipsByGroup(groupType: RelationshipGroupType): RelationshipHandle[] {
    return this.#s.relationships.byGroup(groupType);
  }

  /**
   * The unified friends list (platform and game friends once each): online and playing this game first,
   * then online elsewhere, then offline; by display name within each group.
   */
  getFriendsList(): RelationshipHandle[] {
    return this.#s.relationships.friends();
  }

  /** Friends whose username or display name contains `query`, case-insensitive. */
  searchFriendsByUsername(query: string): UserHandle[] {
    return this.#s.relationships.search(query);
  }

  /** Sends a platform friend request by username (accepts theirs if they asked first). */
  async sendDiscordFriendRequest(username: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'sendDiscordFriendRequest()', async () =>
      this.#s.relationships.sendRequestByUsername('discord', username),
    );
  }

  /** Sends a platform friend request by user id (accepts theirs if they asked first). */
  async sendDiscordFriendRequestById(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'sendDiscordFriendRequestById()', async () =>
      this.#s.relationships.sendRequestById('discord', userId),
    );
  }

  /** Sends a game friend request by username (accepts theirs if they asked first). */
  async sendGameFriendRequest(username: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'sendGameFriendRequest()', async () =>
      this.#s.relationships.sendRequestByUsername('game', username),
    );
  }

  /** Sends a game friend request by user id (accepts theirs if they asked first). */
  async sendGameFriendRequestById(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'sendGameFriendRequestById()', async () =>
      this.#s.relationships.sendRequestById('game', userId),
    );
  }

  /** Accepts an incoming platform friend request; a `ValidationError` when there is none. */
  async acceptDiscordFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'acceptDiscordFriendRequest()', async () =>
      this.#s.relationships.accept('discord', userId),
    );
  }

  /** Accepts an incoming game friend request; a `ValidationError` when there is none. */
  async acceptGameFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'acceptGameFriendRequest()', async () =>
      this.#s.relationships.accept('game', userId),
    );
  }

  /** Declines an incoming platform friend request. */
  async rejectDiscordFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'rejectDiscordFriendRequest()', async () =>
      this.#s.relationships.reject('discord', userId),
    );
  }

  /** Declines an incoming game friend request. */
  async rejectGameFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'rejectGameFriendRequest()', async () =>
      this.#s.relationships.reject('game', userId),
    );
  }

  /** Withdraws an outgoing platform friend request. */
  async cancelDiscordFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'cancelDiscordFriendRequest()', async () =>
      this.#s.relationships.cancel('discord', userId),
    );
  }

  /** Withdraws an outgoing game friend request. */
  async cancelGameFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'cancelGameFriendRequest()', async () =>
      this.#s.relationships.cancel('game', userId),
    );
  }

  /** Ends every friendship with the user, platform and game. */
  async removeDiscordAndGameFriend(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'removeDiscordAndGameFriend()', async () =>
      this.#s.relationships.removeDiscordAndGameFriend(userId),
    );
  }

  /** Ends the game friendship only. */
  async removeGameFriend(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'removeGameFriend()', async () =>
      this.#s.relationships.removeGameFriend(userId),
    );
  }

  /** Blocks the user: friendships and requests with them end, and they can't message or invite the player. */
  async blockUser(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'blockUser()', async () => this.#s.relationships.block(userId));
  }

  /** Lifts a block. */
  async unblockUser(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'unblockUser()', async () => this.#s.relationships.unblock(userId));
  }

  static {
    guardAfterDestroy(SocialClient.prototype, isDestroyed, new Set());
  }
}
