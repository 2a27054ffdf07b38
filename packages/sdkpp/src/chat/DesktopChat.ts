import { AbortedError, ValidationError } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import { RpcError, type IpcTransport } from '../rpc/IpcTransport.js';
import type { ProvisionalMergeWait } from '../session/ProvisionalMergeWait.js';
import { UserHandle } from '../social/UserHandle.js';
import type { UserStore } from '../social/UserStore.js';
import { checkInput } from '../util/checkInput.js';
import { requireSnowflake } from '../util/snowflake.js';
import type { MessageStore } from './MessageStore.js';

/**
 * The desktop-client commands behind these features. The platform does not publish the ones its SDK sends;
 * these names and shapes are sdkpp's choice, which the emulator's desktop client implements (docs/messages.md).
 */
const Command = {
  SetShowingChat: 'SET_SHOWING_CHAT',
  OpenMessage: 'OPEN_MESSAGE',
  OpenConnectedGamesSettings: 'OPEN_CONNECTED_GAMES_SETTINGS',
} as const;

/** Options of {@link Client.openMessageInDiscord}. */
export interface OpenMessageInDiscordOptions {
  /**
   * Called when the player has a provisional account, which has no Discord client to open the message in: the
   * game runs its merge flow and then calls `provisionalUserMergeCompleted`. Without it, a provisional
   * player's call fails with a `ValidationError`.
   */
  onProvisionalUserMergeRequired?: () => void;
  /** Aborts the call with `AbortedError` (the merge wait included). */
  signal?: AbortSignal;
}

/** What {@link DesktopChat} reads: the desktop client, the messages and users the client holds, lobby links. */
export interface DesktopChatOptions {
  log: LogWriter;
  localClient: () => Promise<IpcTransport | undefined>;
  localClientRefusal: () => RpcError | undefined;
  messages: MessageStore;
  users: UserStore;
  currentUserId: () => string | undefined;
  /** Whether a lobby the player is in is linked to a guild channel. */
  lobbyIsLinked: (lobbyId: string) => boolean;
  merge: ProvisionalMergeWait;
}

/**
 * Chat through the desktop client on this machine: telling it the game shows chat (so the player is not
 * notified twice of one direct message), and opening a message or the Connected Games settings in it.
 */
export class DesktopChat {
  readonly #o: DesktopChatOptions;
  readonly #reporting = new WeakSet<IpcTransport>();
  #showingChat = false;

  constructor(options: DesktopChatOptions) {
    this.#o = options;
  }

  /**
   * Records whether the game shows chat and tells a running desktop client; the desktop client hears it again
   * after it restarts. Without one, nothing is sent (there is nobody to notify twice).
   */
  setShowingChat(showingChat: boolean): void {
    this.#showingChat = showingChat;
    void this.#report();
  }

  /** Whether the game said it shows chat. */
  get showingChat(): boolean {
    return this.#showingChat;
  }

  /**
   * Whether a known message can be viewed in a Discord client: a direct message between two full accounts,
   * or a lobby message of a lobby linked to a guild channel. Ephemeral conversations (with or between
   * provisional accounts), the platform's disclosure messages and unknown ids give false.
   */
  canOpen(messageId: string): boolean {
    const message = this.#o.messages.get(messageId);
    if (!message || message.disclosure_type !== undefined) return false;
    if (message.lobby_id !== undefined) return this.#o.lobbyIsLinked(message.lobby_id);
    const authorId = message.author?.id;
    const recipientId = message.recipient_id;
    if (authorId === undefined || recipientId === undefined) return false;
    return this.#isFullAccount(authorId) && this.#isFullAccount(recipientId);
  }

  /**
   * Asks the desktop client to open a message. A provisional player is asked to merge first
   * (`onProvisionalUserMergeRequired`); a message that cannot be viewed in Discord is a `ValidationError`; no
   * desktop client, or one that refuses, is an `RpcError`.
   */
  async open(messageId: string, options: OpenMessageInDiscordOptions = {}): Promise<void> {
    checkInput(this.#o.log, 'openMessageInDiscord', () => {
      requireSnowflake(messageId, 'message');
    });
    const me = this.#o.currentUserId();
    if (me !== undefined && new UserHandle(this.#o.users, me).isProvisional) {
      const onMerge = options.onProvisionalUserMergeRequired;
      if (!onMerge) {
        this.#o.log.warn('openMessageInDiscord: a provisional account must be merged first');
        throw new ValidationError(
          'a provisional account has no Discord client: merge it into a full account first',
        );
      }
      if (!(await this.#o.merge.wait(onMerge))) throw new AbortedError('the account merge did not complete');
    }
    if (!this.canOpen(messageId)) {
      this.#o.log.warn(`openMessageInDiscord: message ${messageId} cannot be viewed in Discord`);
      throw new ValidationError(`message ${messageId} cannot be viewed in Discord`);
    }
    const rpc = await this.#desktopClient('openMessageInDiscord');
    await rpc.request(Command.OpenMessage, { message_id: messageId });
  }

  /** Asks the desktop client to open its Connected Games settings; an `RpcError` without one. */
  async openConnectedGamesSettings(): Promise<void> {
    const rpc = await this.#desktopClient('openConnectedGamesSettingsInDiscord');
    await rpc.request(Command.OpenConnectedGamesSettings, {});
  }

  async #desktopClient(operation: string): Promise<IpcTransport> {
    const rpc = await this.#o.localClient();
    if (rpc) return rpc;
    this.#o.log.warn(`${operation}: no desktop client is running`);
    throw this.#o.localClientRefusal() ?? new RpcError(`${operation}: no desktop client is running`);
  }

  #isFullAccount(userId: string): boolean {
    return this.#o.users.get(userId) !== undefined && !new UserHandle(this.#o.users, userId).isProvisional;
  }

  async #report(): Promise<void> {
    const rpc = await this.#o.localClient();
    if (!rpc) {
      this.#o.log.verbose('setShowingChat: no desktop client is running; nothing to tell');
      return;
    }
    if (!this.#reporting.has(rpc)) {
      this.#reporting.add(rpc);
      // A restarted desktop client knows nothing of the game: tell it again.
      rpc.on('ready', () => {
        if (this.#showingChat) void this.#send(rpc);
      });
    }
    await this.#send(rpc);
  }

  async #send(rpc: IpcTransport): Promise<void> {
    try {
      await rpc.request(Command.SetShowingChat, { showing_chat: this.#showingChat });
    } catch (error) {
      this.#o.log.warn(`setShowingChat: the desktop client did not take it (${(error as Error).message})`);
    }
  }
}
