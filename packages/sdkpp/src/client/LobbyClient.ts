import type { MessageHandle } from '../chat/MessageHandle.js';
import type { JoinLinkedLobbyGuildOptions } from '../guilds/GuildManager.js';
import type { GuildChannel, GuildMinimal } from '../guilds/types.js';
import type { LobbyHandle } from '../lobbies/LobbyHandle.js';
import { withSignal } from '@sdkpp/protocol';
import type { Session } from './createSession.js';
import { guardAfterDestroy } from './destroyGuard.js';
import { isDestroyed, sessionOf } from './sessionOf.js';
import { SocialClient } from './SocialClient.js';

/**
 * The lobby part of a {@link Client}: lobbies, their messages and linked guild channels. See
 * {@link ClientCore} for how the client's methods are grouped; create a `Client`, not this class.
 */
export class LobbyClient extends SocialClient {
  /** This client's session. */
  get #s(): Session {
    return sessionOf(this);
  }

  // ── Lobbies ───────────────────────────────────────────────────────────────────────────────────

  /**
   * Creates the lobby for this secret, or joins the existing one (one call); resolves with the lobby id.
   * Metadata given here replaces the lobby's (and the player's member metadata); at most 25 keys and 1000
   * characters each. Share the secret through rich presence (`secrets.join`) so friends can join.
   */
  async createOrJoinLobby(
    secret: string,
    lobbyMetadata?: Record<string, string>,
    memberMetadata?: Record<string, string>,
    options: { signal?: AbortSignal } = {},
  ): Promise<string> {
    return withSignal(options.signal, 'createOrJoinLobby()', async () => {
      return this.#s.lobbies.createOrJoin(secret, {
        ...(lobbyMetadata === undefined ? {} : { lobbyMetadata }),
        ...(memberMetadata === undefined ? {} : { memberMetadata }),
      });
    });
  }

  /** Leaves a lobby the player joined with a secret (`lobbyDeleted` follows). */
  async leaveLobby(lobbyId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'leaveLobby()', async () => this.#s.lobbies.leave(lobbyId));
  }

  /** A live view of a lobby the player is in, or undefined. */
  getLobbyHandle(lobbyId: string): LobbyHandle | undefined {
    return this.#s.lobbies.handle(lobbyId);
  }

  /** The ids of every lobby the player is in. */
  getLobbyIds(): string[] {
    return this.#s.lobbies.ids();
  }

  /** Sends a message to every member of a lobby the player is in; resolves with its id. */
  async sendLobbyMessage(
    lobbyId: string,
    content: string,
    metadata?: Record<string, string>,
    options: { signal?: AbortSignal } = {},
  ): Promise<string> {
    return withSignal(options.signal, 'sendLobbyMessage()', async () =>
      this.#s.lobbyMessages.send(lobbyId, content, metadata),
    );
  }

  /**
   * The last `limit` messages (1–200, of the last 72 hours) of a lobby the player is in, oldest first; a
   * `ValidationError` for a lobby the player is not in. What the client holds is answered without a request.
   */
  async getLobbyMessagesWithLimit(
    lobbyId: string,
    limit: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<MessageHandle[]> {
    return withSignal(options.signal, 'getLobbyMessagesWithLimit()', async () =>
      this.#s.lobbyMessages.history(lobbyId, limit),
    );
  }

  /** The guilds (servers) the player is a member of. */
  async getUserGuilds(options: { signal?: AbortSignal } = {}): Promise<GuildMinimal[]> {
    return withSignal(options.signal, 'getUserGuilds()', async () => this.#s.guilds.userGuilds());
  }

  /** The channels of a guild the player can see, in the order the chat client shows them. */
  async getGuildChannels(guildId: string, options: { signal?: AbortSignal } = {}): Promise<GuildChannel[]> {
    return withSignal(options.signal, 'getGuildChannels()', async () =>
      this.#s.guilds.guildChannels(guildId),
    );
  }

  /**
   * Links a guild text channel to a lobby: messages then flow both ways. The player needs the lobby's
   * `canLinkLobby` flag (set by the game backend) and permission to manage the channel.
   */
  async linkChannelToLobby(
    lobbyId: string,
    channelId: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'linkChannelToLobby()', async () =>
      this.#s.lobbies.linkChannel(lobbyId, channelId),
    );
  }

  /** Removes a lobby's channel link. */
  async unlinkChannelFromLobby(lobbyId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'unlinkChannelFromLobby()', async () =>
      this.#s.lobbies.unlinkChannel(lobbyId),
    );
  }

  /**
   * A single-use invite (valid one hour) to the guild of the channel linked to a lobby; resolves with the
   * invite URL for the game to show (consoles) or open.
   */
  async joinLinkedLobbyGuild(lobbyId: string, options: JoinLinkedLobbyGuildOptions = {}): Promise<string> {
    return withSignal(options.signal, 'joinLinkedLobbyGuild()', async () =>
      this.#s.guilds.joinLinkedLobbyGuild(lobbyId, options),
    );
  }

  /**
   * Ends the merge that `onProvisionalUserMergeRequired` asked for (of `joinLinkedLobbyGuild` or
   * `openMessageInDiscord`): the waiting operation goes on when `success`, else fails.
   */
  provisionalUserMergeCompleted(success: boolean): void {
    this.#s.merge.completed(success);
  }

  static {
    guardAfterDestroy(LobbyClient.prototype, isDestroyed, new Set());
  }
}
