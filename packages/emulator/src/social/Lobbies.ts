import { TypedEmitter } from '@sdkpp/protocol';
import type { GatewayHub } from '../gateway/GatewayHub.js';
import type { EmulatorLog } from '../log.js';
import type { EmulatorStore } from '../store/Store.js';
import type {
  LobbyMemberRecord,
  LobbyMessageRecord,
  LobbyRecord,
  RichContentRecord,
} from '../store/types.js';
import {
  gatewayLobby,
  memberEvent,
  wireLobby,
  wireLobbyMember,
  wireLobbyMessage,
  type LobbyWireContext,
} from './lobbyWire.js';

/** Idle timeout of a lobby when none is given, in seconds. */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 300;
/** Range of `idle_timeout_seconds` (wire-protocols §4.8). */
export const IDLE_TIMEOUT_RANGE = { min: 5, max: 604_800 } as const;
/** Members a lobby may hold. */
export const MAX_LOBBY_MEMBERS = 1000;
/** Lobbies of this application one user may be a member of. */
export const MAX_LOBBIES_PER_USER = 200;
/** Lobby history reaches back at most this far (seed: 72 hours), by the emulator's clock. */
export const LOBBY_HISTORY_WINDOW_MS = 72 * 60 * 60_000;
/** At most this many lobby messages per history request (seed). */
export const MAX_LOBBY_HISTORY = 200;

/** Why a lobby refused a member. */
export class LobbyRefusal extends Error {
  constructor(
    readonly reason: 'user_lobby_limit' | 'lobby_full',
    message: string,
  ) {
    super(message);
    this.name = 'LobbyRefusal';
  }
}

/** A change to one member; absent fields keep their value, `additionalName: null` clears the name. */
export interface MemberChange {
  metadata?: Record<string, string>;
  flags?: number;
  additionalName?: string | null;
}

/** What a lobby message needs (contract: the API other services use). */
export interface NewLobbyMessage {
  lobbyId: string;
  authorId: string;
  content: string;
  metadata?: Record<string, string>;
  /** True from the SDK or the bot; false when relayed from the linked guild channel. */
  fromGame: boolean;
  /** Non-text content of a message relayed from the linked channel. */
  rich?: RichContentRecord;
}

/** Events of {@link Lobbies}, for the channel relay. */
export type LobbiesEvents = {
  /** A message was stored and dispatched. */
  messageCreated: [lobby: LobbyRecord, message: LobbyMessageRecord];
  /** A message changed (its moderation metadata). */
  messageUpdated: [lobby: LobbyRecord, message: LobbyMessageRecord];
  /** A message was deleted. */
  messageDeleted: [lobby: LobbyRecord, message: LobbyMessageRecord];
  /** A member left or was removed (the lobby's call drops them). */
  memberRemoved: [lobby: LobbyRecord, userId: string];
  /** A lobby was deleted (its call ends). */
  deleted: [lobby: LobbyRecord];
};

/** Dependencies of {@link Lobbies}. */
export interface LobbiesDeps {
  store: EmulatorStore;
  hub: GatewayHub;
  log: EmulatorLog;
  /** The linked channel's name and guild (from the guild service), looked up when a lobby is sent. */
  channel(id: string): { id: string; name: string; guildId: string } | undefined;
}

function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

function byIdDescending(x: { id: string }, y: { id: string }): number {
  const a = BigInt(x.id);
  const b = BigInt(y.id);
  return a > b ? -1 : a < b ? 1 : 0;
}

/**
 * The application's lobbies: members with metadata, flags and additional names, lobby messages, the link to
 * a guild channel, and idle expiry. Every change is dispatched over the gateway to the users it concerns, as
 * the lobby contract's table says; members' `connected` follows their gateway sessions.
 */
export class Lobbies extends TypedEmitter<LobbiesEvents> {
  readonly #d: LobbiesDeps;
  readonly #wire: LobbyWireContext;

  constructor(deps: LobbiesDeps) {
    super();
    this.#d = deps;
    this.#wire = {
      applicationId: deps.store.state.application.id,
      user: (id) => deps.store.user(id),
      connected: (userId) => this.connected(userId),
      channel: (id) => deps.channel(id),
    };
  }

  // ── reading ──────────────────────────────────────────────────────────────────────────────────────────

  /** A lobby by id. */
  get(id: string): LobbyRecord | undefined {
    const lobbies = this.#d.store.state.lobbies;
    return Object.hasOwn(lobbies, id) ? lobbies[id] : undefined;
  }

  /** Every lobby, oldest first. */
  all(): LobbyRecord[] {
    return Object.values(this.#d.store.state.lobbies).sort((x, y) => byIdDescending(y, x));
  }

  /** Whether the user is a member of the lobby. */
  isMember(lobbyId: string, userId: string): boolean {
    return this.member(lobbyId, userId) !== undefined;
  }

  /** A member of a lobby. */
  member(lobbyId: string, userId: string): LobbyMemberRecord | undefined {
    return this.get(lobbyId)?.members.find((m) => m.userId === userId);
  }

  /** The lobbies a user is a member of, oldest first. */
  lobbiesOf(userId: string): LobbyRecord[] {
    return this.all().filter((l) => l.members.some((m) => m.userId === userId));
  }

  /** The lobby linked to a guild channel. */
  linkedTo(channelId: string): LobbyRecord | undefined {
    return this.all().find((l) => l.linkedChannelId === channelId);
  }

  /**
   * Whether the user has a live gateway session, one with a socket attached (a member's `connected`). A
   * session that lost its socket and waits for a resume does not count: its player is offline until the
   * resume, and a game that never comes back must not keep its lobbies alive for the whole resume window.
   */
  connected(userId: string): boolean {
    return this.#d.hub.list(userId).some((s) => s.connected);
  }

  /** The lobby as HTTP replies send it. */
  wire(lobby: LobbyRecord): Record<string, unknown> {
    return wireLobby(this.#wire, lobby);
  }

  /**
   * Where `voice_states` of READY and LOBBY_CREATE/_UPDATE come from (the voice service sets it); without
   * it a lobby carries an empty list.
   */
  setVoiceStateSource(source: (lobbyId: string) => Record<string, unknown>[]): void {
    this.#wire.voiceStates = source;
  }

  /** The lobby as READY and LOBBY_CREATE/_UPDATE carry it. */
  gatewayWire(lobby: LobbyRecord): Record<string, unknown> {
    return gatewayLobby(this.#wire, lobby);
  }

  /** A member as HTTP replies send it. */
  wireMember(member: LobbyMemberRecord): Record<string, unknown> {
    return wireLobbyMember(this.#wire, member);
  }

  /** A message as HTTP replies and gateway events send it. */
  wireMessage(message: LobbyMessageRecord): Record<string, unknown> {
    return wireLobbyMessage(this.#wire, message);
  }

  // ── lobbies ──────────────────────────────────────────────────────────────────────────────────────────

  /** The lobby holding `secret`, if any (secrets are per application). */
  bySecret(secret: string): LobbyRecord | undefined {
    return this.all().find((l) => l.secret === secret);
  }

  /** Creates an empty lobby (members are added with {@link Lobbies.upsertMember}). */
  create(fields: {
    createdBy: 'sdk' | 'bot';
    secret: string | null;
    metadata?: Record<string, string>;
    idleTimeoutSeconds?: number;
    flags?: number;
  }): LobbyRecord {
    const { store } = this.#d;
    const lobby: LobbyRecord = {
      id: store.nextId(),
      createdBy: fields.createdBy,
      secret: fields.secret,
      metadata: { ...(fields.metadata ?? {}) },
      members: [],
      flags: fields.flags ?? 0,
      idleTimeoutSeconds: fields.idleTimeoutSeconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS,
      linkedChannelId: null,
      createdAt: store.now(),
      idleSince: store.now(),
    };
    store.state.lobbies[lobby.id] = lobby;
    this.#d.log.line('lobbies', `lobby ${lobby.id} created by ${fields.createdBy}`);
    return lobby;
  }

  /** Changes a lobby's own fields; members get LOBBY_UPDATE when anything changed. */
  update(
    lobby: LobbyRecord,
    changes: { metadata?: Record<string, string>; idleTimeoutSeconds?: number; flags?: number },
  ): void {
    let changed = false;
    if (changes.metadata !== undefined && !sameMap(changes.metadata, lobby.metadata)) {
      lobby.metadata = { ...changes.metadata };
      changed = true;
    }
    if (changes.flags !== undefined && changes.flags !== lobby.flags) {
      lobby.flags = changes.flags;
      changed = true;
    }
    // The idle timeout is not part of the lobby object, so changing it alone tells nobody.
    if (changes.idleTimeoutSeconds !== undefined) lobby.idleTimeoutSeconds = changes.idleTimeoutSeconds;
    if (changed) {
      this.#toMembers(lobby, 'LOBBY_UPDATE', () => this.gatewayWire(lobby));
      this.#d.log.line('lobbies', `lobby ${lobby.id} updated`);
    }
  }

  /** Deletes a lobby and its messages; members get LOBBY_DELETE `deleted`. Deleting a gone lobby is a no-op. */
  delete(lobby: LobbyRecord, why: string): void {
    const { state } = this.#d.store;
    if (!Object.hasOwn(state.lobbies, lobby.id)) return;
    Reflect.deleteProperty(state.lobbies, lobby.id);
    for (const message of Object.values(state.lobbyMessages)) {
      if (message.lobbyId === lobby.id) Reflect.deleteProperty(state.lobbyMessages, message.id);
    }
    for (const member of lobby.members) {
      this.#d.hub.dispatch(member.userId, 'LOBBY_DELETE', { id: lobby.id, reason: 'deleted' });
    }
    this.#d.log.line('lobbies', `lobby ${lobby.id} deleted (${why})`);
    this.emit('deleted', lobby);
  }

  /** Links the lobby to a guild channel, or unlinks it (null); members get LOBBY_UPDATE on a change. */
  setLinkedChannel(lobby: LobbyRecord, channelId: string | null): void {
    if (lobby.linkedChannelId === channelId) return;
    lobby.linkedChannelId = channelId;
    this.#toMembers(lobby, 'LOBBY_UPDATE', () => this.gatewayWire(lobby));
    this.#d.log.line(
      'lobbies',
      channelId === null ? `lobby ${lobby.id} unlinked` : `lobby ${lobby.id} linked to channel ${channelId}`,
    );
  }

  // ── members ──────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Adds a user to a lobby, or changes their membership. A new member gets LOBBY_CREATE and the others
   * LOBBY_MEMBER_ADD; a changed member is announced to all members with LOBBY_MEMBER_UPDATE.
   * @throws LobbyRefusal when the lobby is full or the user is in too many lobbies
   */
  upsertMember(lobby: LobbyRecord, userId: string, change: MemberChange = {}): LobbyMemberRecord {
    const existing = lobby.members.find((m) => m.userId === userId);
    if (existing) {
      let changed = false;
      if (change.metadata !== undefined && !sameMap(change.metadata, existing.metadata)) {
        existing.metadata = { ...change.metadata };
        changed = true;
      }
      if (change.flags !== undefined && change.flags !== existing.flags) {
        existing.flags = change.flags;
        changed = true;
      }
      if (change.additionalName !== undefined && change.additionalName !== existing.additionalName) {
        existing.additionalName = change.additionalName;
        changed = true;
      }
      if (changed) {
        this.#toMembers(lobby, 'LOBBY_MEMBER_UPDATE', () => memberEvent(this.#wire, lobby, existing));
        this.#d.log.line('lobbies', `member ${userId} of lobby ${lobby.id} updated`);
      }
      return existing;
    }
    this.checkJoin(lobby, userId);
    const member: LobbyMemberRecord = {
      userId,
      metadata: { ...(change.metadata ?? {}) },
      flags: change.flags ?? 0,
      additionalName: change.additionalName ?? null,
      joinedAt: this.#d.store.now(),
    };
    lobby.members.push(member);
    if (this.connected(userId)) lobby.idleSince = null;
    this.#toUser(userId, 'LOBBY_CREATE', () => this.gatewayWire(lobby));
    this.#toMembers(lobby, 'LOBBY_MEMBER_ADD', () => memberEvent(this.#wire, lobby, member), userId);
    this.#d.log.line('lobbies', `user ${userId} joined lobby ${lobby.id}`);
    return member;
  }

  /**
   * Throws unless the user could join: a lobby (or a lobby about to be made, `undefined`) with room, and a
   * user in fewer than 200 lobbies. A member already in passes.
   * @throws LobbyRefusal
   */
  checkJoin(lobby: LobbyRecord | undefined, userId: string): void {
    if (lobby?.members.some((m) => m.userId === userId)) return;
    if (lobby && lobby.members.length >= MAX_LOBBY_MEMBERS) {
      throw new LobbyRefusal('lobby_full', `a lobby holds at most ${MAX_LOBBY_MEMBERS} members`);
    }
    if (this.lobbiesOf(userId).length >= MAX_LOBBIES_PER_USER) {
      throw new LobbyRefusal(
        'user_lobby_limit',
        `a user is a member of at most ${MAX_LOBBIES_PER_USER} lobbies of an application`,
      );
    }
  }

  /**
   * Removes a member: they get LOBBY_DELETE `removed`, the rest LOBBY_MEMBER_REMOVE. A lobby a player made
   * is deleted once its last member is gone. Removing a non-member does nothing.
   */
  removeMember(lobby: LobbyRecord, userId: string): void {
    const index = lobby.members.findIndex((m) => m.userId === userId);
    if (index < 0) return;
    const [member] = lobby.members.splice(index, 1);
    if (!member) return;
    this.#d.hub.dispatch(userId, 'LOBBY_DELETE', { id: lobby.id, reason: 'removed' });
    this.#toMembers(lobby, 'LOBBY_MEMBER_REMOVE', () => memberEvent(this.#wire, lobby, member));
    this.#d.log.line('lobbies', `user ${userId} left lobby ${lobby.id}`);
    this.emit('memberRemoved', lobby, userId);
    if (lobby.members.length === 0 && lobby.createdBy === 'sdk') this.delete(lobby, 'its last member left');
    else this.#refreshIdle(lobby);
  }

  /**
   * A merged provisional account's memberships become the full account's, with their metadata, flags and
   * additional name: the destination joins (LOBBY_CREATE to it, LOBBY_MEMBER_ADD to the others) before the
   * source leaves, so no lobby empties on the way. A membership the destination's lobby cap refuses is
   * dropped with a log line. Lobby messages the source wrote name the destination as author.
   */
  migrateMember(sourceId: string, destinationId: string): void {
    for (const lobby of this.lobbiesOf(sourceId)) {
      const member = lobby.members.find((m) => m.userId === sourceId);
      if (!member) continue;
      if (!lobby.members.some((m) => m.userId === destinationId)) {
        try {
          this.upsertMember(lobby, destinationId, {
            metadata: member.metadata,
            flags: member.flags,
            additionalName: member.additionalName,
          });
        } catch (error) {
          if (!(error instanceof LobbyRefusal)) throw error;
          this.#d.log.line('lobbies', `merge: membership of lobby ${lobby.id} dropped (${error.message})`);
        }
      }
      this.removeMember(lobby, sourceId);
    }
    for (const message of Object.values(this.#d.store.state.lobbyMessages)) {
      if (message.authorId === sourceId) message.authorId = destinationId;
    }
  }

  /** Tells a user's lobbies that their `connected` changed (their first session began or the last ended). */
  connectionChanged(userId: string): void {
    for (const lobby of this.lobbiesOf(userId)) {
      const member = lobby.members.find((m) => m.userId === userId);
      if (!member) continue;
      this.#refreshIdle(lobby);
      this.#toMembers(lobby, 'LOBBY_MEMBER_UPDATE', () => memberEvent(this.#wire, lobby, member));
    }
  }

  // ── messages ─────────────────────────────────────────────────────────────────────────────────────────

  /** A message of a lobby. */
  message(lobbyId: string, messageId: string): LobbyMessageRecord | undefined {
    const messages = this.#d.store.state.lobbyMessages;
    const message = Object.hasOwn(messages, messageId) ? messages[messageId] : undefined;
    return message?.lobbyId === lobbyId ? message : undefined;
  }

  /**
   * Stores a message and dispatches LOBBY_MESSAGE_CREATE to every member; the author's current additional
   * name goes with it. The caller has checked who may post.
   * @throws RangeError for an unknown lobby
   */
  postMessage(input: NewLobbyMessage): LobbyMessageRecord {
    const lobby = this.get(input.lobbyId);
    if (!lobby) throw new RangeError(`no lobby ${input.lobbyId}`);
    const { store } = this.#d;
    const record: LobbyMessageRecord = {
      id: store.nextId(),
      lobbyId: lobby.id,
      authorId: input.authorId,
      content: input.content,
      metadata: { ...(input.metadata ?? {}) },
      moderationMetadata: {},
      fromGame: input.fromGame,
      additionalName: lobby.members.find((m) => m.userId === input.authorId)?.additionalName ?? null,
      createdAt: store.now(),
      editedAt: null,
      ...(input.rich ? { rich: input.rich } : {}),
    };
    store.state.lobbyMessages[record.id] = record;
    this.#toMembers(lobby, 'LOBBY_MESSAGE_CREATE', () => this.wireMessage(record));
    this.#d.log.line(
      'lobbies',
      `message ${record.id} in lobby ${lobby.id} by ${input.authorId}${input.fromGame ? '' : ' (from the linked channel)'}`,
    );
    this.emit('messageCreated', lobby, record);
    return record;
  }

  /** Replaces a message's moderation metadata; members get LOBBY_MESSAGE_UPDATE. */
  setModerationMetadata(message: LobbyMessageRecord, metadata: Record<string, string>): void {
    message.moderationMetadata = { ...metadata };
    const lobby = this.get(message.lobbyId);
    if (lobby) this.#toMembers(lobby, 'LOBBY_MESSAGE_UPDATE', () => this.wireMessage(message));
    if (lobby) this.emit('messageUpdated', lobby, message);
    this.#d.log.line(
      'lobbies',
      `moderation metadata set on message ${message.id} (${Object.keys(metadata).length} keys)`,
    );
  }

  /** Deletes a message; members get LOBBY_MESSAGE_DELETE. */
  deleteMessage(message: LobbyMessageRecord): void {
    Reflect.deleteProperty(this.#d.store.state.lobbyMessages, message.id);
    const lobby = this.get(message.lobbyId);
    if (lobby) this.#toMembers(lobby, 'LOBBY_MESSAGE_DELETE', () => ({ id: message.id, lobby_id: lobby.id }));
    if (lobby) this.emit('messageDeleted', lobby, message);
    this.#d.log.line('lobbies', `message ${message.id} deleted`);
  }

  /** A lobby's messages, newest first: at most `limit` (≤200) of the last 72 hours by the emulator's clock. */
  history(lobbyId: string, limit: number): LobbyMessageRecord[] {
    const since = this.#d.store.now() - LOBBY_HISTORY_WINDOW_MS;
    return this.messagesOf(lobbyId)
      .filter((m) => m.createdAt >= since)
      .slice(0, Math.min(limit, MAX_LOBBY_HISTORY));
  }

  /** Every stored message of a lobby, newest first, whatever its age. */
  messagesOf(lobbyId: string): LobbyMessageRecord[] {
    return Object.values(this.#d.store.state.lobbyMessages)
      .filter((m) => m.lobbyId === lobbyId)
      .sort(byIdDescending);
  }

  // ── idle expiry ──────────────────────────────────────────────────────────────────────────────────────

  /** Deletes every lobby whose members have had no live gateway session for its idle timeout. */
  sweep(): void {
    const now = this.#d.store.now();
    for (const lobby of this.all()) {
      this.#refreshIdle(lobby);
      if (lobby.idleSince !== null && now - lobby.idleSince >= lobby.idleTimeoutSeconds * 1000) {
        this.delete(lobby, `idle for ${lobby.idleTimeoutSeconds} s`);
      }
    }
  }

  /** Starts (or restarts) the idle clock when no member is connected; stops it when one is. */
  #refreshIdle(lobby: LobbyRecord): void {
    if (lobby.members.some((m) => this.connected(m.userId))) lobby.idleSince = null;
    else lobby.idleSince ??= this.#d.store.now();
  }

  /**
   * Dispatches to every member (but `except`). The payload is built only when someone has a session to receive it: a
   * lobby of 1000 offline members filled by the backend must not build 1000 lobby objects per add.
   */
  #toMembers(lobby: LobbyRecord, event: string, build: () => unknown, except?: string): void {
    const listening = lobby.members.filter(
      (m) => m.userId !== except && this.#d.hub.list(m.userId).length > 0,
    );
    if (listening.length === 0) return;
    const data = build();
    for (const member of listening) this.#d.hub.dispatch(member.userId, event, data);
  }

  /** Dispatches to one user, building the payload only when they have a session. */
  #toUser(userId: string, event: string, build: () => unknown): void {
    if (this.#d.hub.list(userId).length > 0) this.#d.hub.dispatch(userId, event, build());
  }
}
