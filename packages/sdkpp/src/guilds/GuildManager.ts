import type { NoEvents, SessionContext } from '../session/SessionContext.js';
import type { UserStore } from '../social/UserStore.js';
import { ChannelType } from '../chat/ChannelHandle.js';
import { AbortedError, ValidationError } from '@sdkpp/protocol';
import { UserHandle } from '../social/UserHandle.js';
import { checkInput } from '../util/checkInput.js';
import { enumMember } from '../util/enumMember.js';
import { isSnowflake, requireSnowflake } from '../util/snowflake.js';
import { sortChannelsAsShown } from './channelOrder.js';
import type { ProvisionalMergeWait } from '../session/ProvisionalMergeWait.js';
import type { GuildChannel, GuildMinimal, LinkedLobby } from './types.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseLinkedLobby(value: unknown): LinkedLobby | null {
  if (!isRecord(value) || !isSnowflake(value.lobby_id)) return null;
  return {
    lobbyId: value.lobby_id,
    applicationId: isSnowflake(value.application_id) ? value.application_id : '',
  };
}

function parseChannel(value: unknown): GuildChannel | undefined {
  if (!isRecord(value) || !isSnowflake(value.id)) return undefined;
  return {
    id: value.id,
    name: typeof value.name === 'string' ? value.name : '',
    type: enumMember(ChannelType, value.type) ?? ChannelType.GuildText,
    position: typeof value.position === 'number' && Number.isFinite(value.position) ? value.position : 0,
    parentId: isSnowflake(value.parent_id) ? value.parent_id : null,
    isLinkable: value.linkable === true,
    isViewableAndWriteableByAllMembers: value.viewable_and_writeable_by_all_members === true,
    linkedLobby: parseLinkedLobby(value.linked_lobby),
  };
}

/** Options of {@link Client.joinLinkedLobbyGuild}. */
export interface JoinLinkedLobbyGuildOptions {
  /**
   * Called when the player has a provisional account, which cannot join a guild: the game runs its merge flow
   * (link a full account, `updateToken`, `connect`) and then calls `provisionalUserMergeCompleted`. Without
   * it, a provisional player's call fails with a `ValidationError`.
   */
  onProvisionalUserMergeRequired?: () => void;
  /** Aborts the call with `AbortedError` (the merge wait included). */
  signal?: AbortSignal;
}

/** The player's guilds and their channels, for choosing a channel to link to a lobby; invites to them. */
export class GuildManager {
  readonly #s: SessionContext<NoEvents>;
  readonly #users: UserStore;
  readonly #inviteUrl: (code: string) => string;
  readonly #merge: ProvisionalMergeWait;

  constructor(
    session: SessionContext<NoEvents>,
    users: UserStore,
    inviteUrl: (code: string) => string,
    merge: ProvisionalMergeWait,
  ) {
    this.#s = session;
    this.#users = users;
    this.#inviteUrl = inviteUrl;
    this.#merge = merge;
  }

  /**
   * A single-use invite (valid one hour) to the guild of the channel linked to the lobby; resolves with its
   * URL, which the game shows or opens.
   */
  async joinLinkedLobbyGuild(lobbyId: string, options: JoinLinkedLobbyGuildOptions = {}): Promise<string> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'joinLinkedLobbyGuild', () => {
      requireSnowflake(lobbyId, 'lobby');
    });
    const me = this.#s.currentUserId();
    if (me !== undefined && new UserHandle(this.#users, me).isProvisional) {
      const onMerge = options.onProvisionalUserMergeRequired;
      if (!onMerge) {
        this.#s.log.warn('joinLinkedLobbyGuild: a provisional account must be merged first');
        throw new ValidationError(
          'a provisional account cannot join a guild: merge it into a full account first',
        );
      }
      const merged = await this.#merge.wait(onMerge);
      if (!merged) throw new AbortedError('the account merge did not complete');
      this.#s.requireReady();
    }
    const reply = await this.#s.api<unknown>({
      method: 'POST',
      route: `/lobbies/${lobbyId}/members/@me/invites`,
    });
    const code = isRecord(reply) && typeof reply.code === 'string' ? reply.code : '';
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) {
      this.#s.log.warn('joinLinkedLobbyGuild: the platform replied without an invite code');
      throw new ValidationError('the platform returned no invite');
    }
    return this.#inviteUrl(code);
  }

  /** Every guild the player is a member of. */
  async userGuilds(): Promise<GuildMinimal[]> {
    this.#s.requireReady();
    const list = await this.#s.api<unknown>({ method: 'GET', route: '/users/@me/guilds' });
    if (!Array.isArray(list)) {
      this.#s.log.warn('getUserGuilds: the platform did not send a list');
      return [];
    }
    return list.flatMap((g) =>
      isRecord(g) && isSnowflake(g.id) ? [{ id: g.id, name: typeof g.name === 'string' ? g.name : '' }] : [],
    );
  }

  /** The channels of a guild the player can see, in the order the chat client shows them. */
  async guildChannels(guildId: string): Promise<GuildChannel[]> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'getGuildChannels', () => {
      requireSnowflake(guildId, 'guild');
    });
    const list = await this.#s.api<unknown>({ method: 'GET', route: `/guilds/${guildId}/channels` });
    const raw: unknown[] = Array.isArray(list) ? list : [];
    const channels = raw.flatMap((c) => parseChannel(c) ?? []);
    if (!Array.isArray(list) || channels.length !== raw.length) {
      this.#s.log.warn('getGuildChannels: the platform sent malformed channels; they were skipped');
    }
    return sortChannelsAsShown(channels);
  }
}
