import type { SessionContext, SessionFeature } from '../session/SessionContext.js';
import type { LobbyEvents } from './LobbyEvents.js';
import type { UserStore } from '../social/UserStore.js';
import { ValidationError } from '@sdkpp/protocol';
import { isSnowflake, requireSnowflake } from '../util/snowflake.js';
import { requireLobbyMetadata, requireLobbySecret } from './limits.js';
import { LobbyHandle } from './LobbyHandle.js';
import {
  CAN_LINK_LOBBY_FLAG,
  parseLobby,
  parseMemberEvent,
  type LobbyData,
  type LobbyMemberData,
} from './wireLobby.js';
import { checkInput } from '../util/checkInput.js';
import type { CallInfoHandle } from '../voice/call/CallInfoHandle.js';

/** Options of {@link LobbyManager.createOrJoin}. */
export interface CreateOrJoinLobbyOptions {
  /** Replaces the lobby's metadata (a later call by anyone replaces it again). */
  lobbyMetadata?: Record<string, string>;
  /** Replaces the player's own member metadata. */
  memberMetadata?: Record<string, string>;
}

/** Compares two string maps. */
function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function sameMember(a: LobbyMemberData, b: LobbyMemberData): boolean {
  return (
    a.flags === b.flags &&
    a.additionalName === b.additionalName &&
    a.connected === b.connected &&
    sameMap(a.metadata, b.metadata)
  );
}

/**
 * The lobbies the player is a member of, kept current from READY and the LOBBY_* dispatches, and the calls
 * that change membership (create or join by secret, leave) and links (link or unlink a guild channel).
 *
 * Events: `lobbyCreated` when a lobby becomes available (created, joined, added by the game backend, or
 * recovered after a reconnect — it may fire more than once for one lobby), `lobbyUpdated`, `lobbyDeleted`,
 * and `lobbyMemberAdded/Updated/Removed`.
 */
export class LobbyManager implements SessionFeature {
  readonly #s: SessionContext<LobbyEvents>;
  readonly #users: UserStore;
  readonly #lobbies = new Map<string, LobbyData>();
  /** Told when the player stops being a member, so held lobby history is no longer trusted. */
  readonly #onLeft: (lobbyId: string) => void;
  readonly #callInfo: (lobbyId: string) => CallInfoHandle | undefined;

  constructor(
    session: SessionContext<LobbyEvents>,
    users: UserStore,
    onLeft: (lobbyId: string) => void = () => undefined,
    callInfo: (lobbyId: string) => CallInfoHandle | undefined = () => undefined,
  ) {
    this.#s = session;
    this.#users = users;
    this.#onLeft = onLeft;
    this.#callInfo = callInfo;
  }

  /** READY lists every lobby of the player: lobbies not listed any more are gone. */
  onReady(data: Record<string, unknown>): void {
    const listed = new Map<string, LobbyData>();
    for (const raw of Array.isArray(data.lobbies) ? data.lobbies : []) {
      const lobby = parseLobby(raw);
      if (lobby) listed.set(lobby.id, lobby);
      else this.#s.log.warn('READY listed a malformed lobby; ignored');
    }
    for (const id of [...this.#lobbies.keys()]) if (!listed.has(id)) this.#remove(id);
    for (const lobby of listed.values()) this.#upsert(lobby, true);
  }

  /** The session is over: every lobby is forgotten (READY brings them back). */
  onDisconnected(): void {
    this.#lobbies.clear();
  }

  /** LOBBY_* dispatches. */
  onDispatch(event: string, data: unknown): void {
    switch (event) {
      case 'LOBBY_CREATE':
      case 'LOBBY_UPDATE': {
        const lobby = parseLobby(data);
        if (lobby) this.#upsert(lobby, false);
        else this.#s.log.warn(`${event} without a usable lobby; ignored`);
        return;
      }
      case 'LOBBY_DELETE': {
        const id = (data as { id?: unknown } | null)?.id;
        if (isSnowflake(id)) this.#remove(id);
        else this.#s.log.warn('LOBBY_DELETE without a lobby id; ignored');
        return;
      }
      case 'LOBBY_MEMBER_ADD':
      case 'LOBBY_MEMBER_UPDATE':
      case 'LOBBY_MEMBER_REMOVE':
        this.#onMemberEvent(event, data);
        return;
      default:
    }
  }

  /** Creates the lobby for this secret, or joins the one that has it; resolves with the lobby id. */
  async createOrJoin(secret: string, options: CreateOrJoinLobbyOptions = {}): Promise<string> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'createOrJoinLobby', () => {
      requireLobbySecret(secret);
      if (options.lobbyMetadata !== undefined) requireLobbyMetadata(options.lobbyMetadata, 'lobby metadata');
      if (options.memberMetadata !== undefined)
        requireLobbyMetadata(options.memberMetadata, 'member metadata');
    });
    const body: Record<string, unknown> = { secret };
    if (options.lobbyMetadata !== undefined) body.lobby_metadata = options.lobbyMetadata;
    if (options.memberMetadata !== undefined) body.member_metadata = options.memberMetadata;
    const reply = await this.#s.api<unknown>({ method: 'PUT', route: '/lobbies', json: body });
    const lobby = parseLobby(reply);
    if (!lobby) {
      this.#s.log.warn('createOrJoinLobby: the platform replied without a lobby');
      throw new ValidationError('the platform returned no lobby');
    }
    this.#takeReply(lobby, { metadata: options.lobbyMetadata !== undefined });
    this.#s.log.info(`in lobby ${lobby.id} (${lobby.members.size} members)`);
    return lobby.id;
  }

  /** Leaves a lobby the player joined with a secret. */
  async leave(lobbyId: string): Promise<void> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'leaveLobby', () => {
      requireSnowflake(lobbyId, 'lobby');
    });
    await this.#s.api({ method: 'DELETE', route: `/lobbies/${lobbyId}/members/@me` });
    // Gone for the player at once; the LOBBY_DELETE that follows finds nothing left to announce.
    this.#remove(lobbyId);
  }

  /** Links a guild channel to the lobby; the player needs the lobby's CanLinkLobby flag and channel permissions. */
  async linkChannel(lobbyId: string, channelId: string): Promise<void> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'linkChannelToLobby', () => {
      requireSnowflake(lobbyId, 'lobby');
      requireSnowflake(channelId, 'channel');
      this.#requireCanLink(lobbyId);
    });
    await this.#patchLink(lobbyId, channelId);
  }

  /** Removes the lobby's channel link. */
  async unlinkChannel(lobbyId: string): Promise<void> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'unlinkChannelFromLobby', () => {
      requireSnowflake(lobbyId, 'lobby');
      this.#requireCanLink(lobbyId);
    });
    await this.#patchLink(lobbyId, null);
  }

  /** A live handle of a lobby the player is in, or undefined. */
  handle(lobbyId: string): LobbyHandle | undefined {
    return this.#lobbies.has(lobbyId)
      ? new LobbyHandle(() => this.#lobbies.get(lobbyId), this.#users, lobbyId, this.#callInfo)
      : undefined;
  }

  /** The ids of every lobby the player is in. */
  ids(): string[] {
    return [...this.#lobbies.keys()];
  }

  /** True when the player is a member of the lobby. */
  isMember(lobbyId: string): boolean {
    return this.#lobbies.has(lobbyId);
  }

  async #patchLink(lobbyId: string, channelId: string | null): Promise<void> {
    const reply = await this.#s.api<unknown>({
      method: 'PATCH',
      route: `/lobbies/${lobbyId}/channel-linking`,
      json: { channel_id: channelId },
    });
    const lobby = parseLobby(reply);
    if (lobby) this.#takeReply(lobby, { link: true });
  }

  /**
   * Takes a lobby from an HTTP reply. The first sight of a lobby is taken whole. After that the reply only
   * supplies what this request wrote (`wrote`) and the player's own membership, so the caller reads its own
   * write on return. Other members are left to the gateway: the reply is not ordered with the dispatches and
   * may predate a join or leave that already arrived, and taking its member list would undo that (announce
   * as removed a member who never left). Every change, the caller's own included, also comes as a dispatch.
   */
  #takeReply(lobby: LobbyData, wrote: { metadata?: boolean; link?: boolean }): void {
    const known = this.#lobbies.get(lobby.id);
    if (!known) {
      this.#upsert(lobby, false);
      return;
    }
    const members = new Map(known.members);
    const selfId = this.#s.currentUserId() ?? '';
    const self = lobby.members.get(selfId);
    if (self) members.set(selfId, self);
    this.#upsert(
      {
        ...known,
        members,
        metadata: wrote.metadata === true ? lobby.metadata : known.metadata,
        linkedChannel: wrote.link === true ? lobby.linkedChannel : known.linkedChannel,
      },
      false,
    );
  }

  #requireCanLink(lobbyId: string): void {
    const lobby = this.#lobbies.get(lobbyId);
    if (!lobby) throw new ValidationError(`the player is not a member of lobby ${lobbyId}`);
    const me = lobby.members.get(this.#s.currentUserId() ?? '');
    if (!me || (me.flags & CAN_LINK_LOBBY_FLAG) === 0) {
      throw new ValidationError(
        `the player may not link channels to lobby ${lobbyId} (no CanLinkLobby flag)`,
      );
    }
  }

  #onMemberEvent(event: string, data: unknown): void {
    const parsed = parseMemberEvent(data);
    if (!parsed) {
      this.#s.log.warn(`${event} without a usable member; ignored`);
      return;
    }
    const { lobbyId, member } = parsed;
    const lobby = this.#lobbies.get(lobbyId);
    if (!lobby) {
      this.#s.log.verbose(`${event} for lobby ${lobbyId}, which the player is not in; ignored`);
      return;
    }
    this.#noteUser(data);
    if (event === 'LOBBY_MEMBER_REMOVE') {
      if (member.id === this.#s.currentUserId()) {
        this.#remove(lobbyId);
        return;
      }
      if (lobby.members.delete(member.id)) this.#s.emit('lobbyMemberRemoved', lobbyId, member.id);
      return;
    }
    const known = lobby.members.get(member.id);
    lobby.members.set(member.id, member);
    if (!known) this.#s.emit('lobbyMemberAdded', lobbyId, member.id);
    else if (!sameMember(known, member)) this.#s.emit('lobbyMemberUpdated', lobbyId, member.id);
  }

  /**
   * Takes a lobby's new state; announces it and every member change against what was held. A lobby already
   * held is announced as created again only when a new session recovered it (`recovered`).
   */
  #upsert(lobby: LobbyData, recovered: boolean): void {
    const known = this.#lobbies.get(lobby.id);
    this.#lobbies.set(lobby.id, lobby);
    this.#noteUsers(lobby);
    if (!known) {
      this.#s.emit('lobbyCreated', lobby.id);
      return;
    }
    if (recovered) this.#s.emit('lobbyCreated', lobby.id);
    for (const [id, member] of lobby.members) {
      const before = known.members.get(id);
      if (!before) this.#s.emit('lobbyMemberAdded', lobby.id, id);
      else if (!sameMember(before, member)) this.#s.emit('lobbyMemberUpdated', lobby.id, id);
    }
    for (const id of known.members.keys()) {
      if (!lobby.members.has(id)) this.#s.emit('lobbyMemberRemoved', lobby.id, id);
    }
    const linkChanged = known.linkedChannel?.id !== lobby.linkedChannel?.id;
    if (linkChanged || !sameMap(known.metadata, lobby.metadata) || known.flags !== lobby.flags) {
      this.#s.emit('lobbyUpdated', lobby.id);
    }
  }

  #remove(lobbyId: string): void {
    if (!this.#lobbies.delete(lobbyId)) return;
    this.#onLeft(lobbyId);
    this.#s.emit('lobbyDeleted', lobbyId);
  }

  /** Member users that came with the lobby, so member handles can show names. */
  #noteUsers(lobby: LobbyData): void {
    for (const member of lobby.members.values()) if (member.user) this.#users.upsert(member.user);
  }

  #noteUser(data: unknown): void {
    const member = (data as { member?: { user?: unknown } }).member;
    if (member?.user) this.#users.upsert(member.user);
  }
}
