import { applicationProfilesFromWire } from './UserApplicationProfile.js';
import type { SessionContext, SessionFeature } from '../session/SessionContext.js';
import type { SocialEvents } from './SocialEvents.js';
import type { UserStore } from './UserStore.js';
import { ValidationError } from '@sdkpp/protocol';
import { RelationshipHandle, UserHandle } from './UserHandle.js';
import { enumMember } from '../util/enumMember.js';
import { isSnowflake, requireSnowflake } from '../util/snowflake.js';
import { StatusType } from '../presence/StatusType.js';
import { RelationshipGroupType, RelationshipType } from './enums.js';

type Graph = 'discord' | 'game';
type Wire = Record<string, unknown>;

const ROUTE: Readonly<Record<Graph, string>> = {
  discord: '/users/@me/relationships',
  game: '/users/@me/game-relationships',
};

/** Usernames are 2–32 characters (seed: User). */
const USERNAME = /^[a-z0-9_.]{2,32}$/;

const asObject = (value: unknown): Wire | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Wire) : undefined;

function relationshipTypeFrom(value: unknown): RelationshipType {
  return enumMember(RelationshipType, value) ?? RelationshipType.None;
}

/**
 * Friends: both graphs (the platform's and this game's) kept current from READY, RELATIONSHIP_* and
 * GAME_RELATIONSHIP_* events and PRESENCE_UPDATE, the friend operations over HTTP, and the friends list
 * grouped and sorted as the platform SDK shows it. Operations check the local state first, so accepting a
 * request that does not exist is a `ValidationError` without a request.
 */
export class RelationshipManager implements SessionFeature {
  readonly #s: SessionContext<SocialEvents>;
  readonly #users: UserStore;

  constructor(session: SessionContext<SocialEvents>, users: UserStore) {
    this.#s = session;
    this.#users = users;
  }

  // ── state ──────────────────────────────────────────────────────────────────────────────────────

  onReady(data: Record<string, unknown>): void {
    const users = this.#users;
    users.clearSocial();
    if (Array.isArray(data.users)) for (const user of data.users) users.upsert(user);
    for (const [key, graph] of [
      ['relationships', 'discord'],
      ['game_relationships', 'game'],
    ] as const) {
      const list = data[key];
      if (Array.isArray(list)) for (const item of list) this.#apply(graph, asObject(item), false);
    }
    if (Array.isArray(data.presences)) for (const p of data.presences) this.#presence(asObject(p), false);
    users.setApplicationProfiles(applicationProfilesFromWire(data.user_application_profiles));
  }

  onDispatch(event: string, data: unknown): void {
    const d = asObject(data);
    switch (event) {
      case 'RELATIONSHIP_ADD':
      case 'RELATIONSHIP_UPDATE':
        this.#apply('discord', d, true);
        break;
      case 'GAME_RELATIONSHIP_ADD':
        this.#apply('game', d, true);
        break;
      case 'RELATIONSHIP_REMOVE':
        this.#remove('discord', d);
        break;
      case 'GAME_RELATIONSHIP_REMOVE':
        this.#remove('game', d);
        break;
      case 'PRESENCE_UPDATE':
        this.#presence(d, true);
        break;
      default:
    }
  }

  #apply(graph: Graph, d: Wire | undefined, notify: boolean): void {
    const id = typeof d?.id === 'string' ? d.id : undefined;
    if (!d || !isSnowflake(id)) return;
    this.#users.upsert(d.user);
    const type = relationshipTypeFrom(d.type);
    const changed = this.#users.setRelationship(id, graph, type, d.is_spam_request === true);
    if (notify && changed) {
      this.#s.emit('relationshipCreated', id, graph === 'discord');
      this.#s.emit('relationshipGroupsUpdated', id);
    }
  }

  #remove(graph: Graph, d: Wire | undefined): void {
    const id = typeof d?.id === 'string' ? d.id : undefined;
    if (id === undefined) return;
    if (this.#users.setRelationship(id, graph, RelationshipType.None)) {
      this.#s.emit('relationshipDeleted', id, graph === 'discord');
      this.#s.emit('relationshipGroupsUpdated', id);
    }
  }

  #presence(d: Wire | undefined, notify: boolean): void {
    const user = asObject(d?.user);
    const id = typeof user?.id === 'string' ? user.id : undefined;
    if (!d || id === undefined) return;
    // Presence updates may carry a fuller user object; keep what it says.
    let userChanged = false;
    if (typeof user?.username === 'string') {
      const before = JSON.stringify(this.#users.get(id));
      userChanged = JSON.stringify(this.#users.upsert(user)) !== before;
    }
    const activities = Array.isArray(d.activities)
      ? d.activities.flatMap((a) => {
          const activity = asObject(a);
          return activity ? [activity] : [];
        })
      : [];
    const status = typeof d.status === 'string' ? d.status : 'offline';
    const presenceChanged = this.#users.setPresence(id, { status, activities });
    if ((presenceChanged || userChanged) && notify) {
      this.#s.emit('userUpdated', id);
      this.#s.emit('relationshipGroupsUpdated', id);
    }
  }

  // ── queries ────────────────────────────────────────────────────────────────────────────────────

  /** Every relationship, in both graphs. */
  list(): RelationshipHandle[] {
    return this.#users.relationshipIds().map((id) => new RelationshipHandle(this.#users, id));
  }

  /** The relationship with one user (types None when there is none). */
  handle(userId: string): RelationshipHandle {
    return new RelationshipHandle(this.#users, userId);
  }

  /** The group a friend belongs to in the friends list. */
  groupOf(userId: string): RelationshipGroupType {
    const user = new UserHandle(this.#users, userId);
    const status = user.status;
    if (status === StatusType.Offline || status === StatusType.Invisible || status === StatusType.Blocked) {
      return RelationshipGroupType.Offline;
    }
    return user.gameActivity
      ? RelationshipGroupType.OnlinePlayingGame
      : RelationshipGroupType.OnlineElsewhere;
  }

  /** Friends (either graph) in one group, sorted by display name. */
  byGroup(group: RelationshipGroupType): RelationshipHandle[] {
    return this.friends().filter((r) => this.groupOf(r.id) === group);
  }

  /**
   * The friends list as players expect it: online and playing this game first, then online elsewhere, then
   * offline; by display name (case-insensitive) within each group.
   */
  friends(): RelationshipHandle[] {
    const friends = this.list().filter((r) => r.isFriend);
    const name = (r: RelationshipHandle): string => (r.user?.displayName ?? r.id).toLocaleLowerCase();
    return friends.sort(
      (a, b) =>
        this.groupOf(a.id) - this.groupOf(b.id) || name(a).localeCompare(name(b)) || (a.id < b.id ? -1 : 1),
    );
  }

  /** Friends whose username or display name contains `query` (case-insensitive). */
  search(query: string): UserHandle[] {
    const needle = query.toLocaleLowerCase();
    return this.friends().flatMap((r) => {
      const user = r.user;
      if (!user) return [];
      const hit =
        user.username.toLocaleLowerCase().includes(needle) ||
        user.displayName.toLocaleLowerCase().includes(needle);
      return hit ? [user] : [];
    });
  }

  // ── operations ─────────────────────────────────────────────────────────────────────────────────

  /** Sends a friend request to a username (or accepts theirs when they asked first). */
  async sendRequestByUsername(graph: Graph, username: string): Promise<void> {
    const name = typeof username === 'string' ? username.trim().toLowerCase() : '';
    if (!USERNAME.test(name)) throw new ValidationError(`"${username}" is not a valid username`);
    await this.#s.api({ method: 'POST', route: ROUTE[graph], json: { username: name } });
  }

  /** Sends a friend request to a user id (or accepts theirs). */
  async sendRequestById(graph: Graph, userId: string): Promise<void> {
    this.#s.requireReady();
    requireSnowflake(userId, 'user');
    if (userId === this.#s.currentUserId()) throw new ValidationError('you cannot befriend yourself');
    const current = this.#type(graph, userId);
    if (current === RelationshipType.Friend)
      throw new ValidationError('you are already friends with that user');
    await this.#s.api({ method: 'PUT', route: `${ROUTE[graph]}/${userId}`, json: {} });
  }

  /** Accepts an incoming request. */
  async accept(graph: Graph, userId: string): Promise<void> {
    this.#expect(
      graph,
      userId,
      RelationshipType.PendingIncoming,
      'there is no pending friend request from that user',
    );
    await this.#s.api({ method: 'PUT', route: `${ROUTE[graph]}/${userId}`, json: {} });
  }

  /** Rejects an incoming request. */
  async reject(graph: Graph, userId: string): Promise<void> {
    this.#expect(
      graph,
      userId,
      RelationshipType.PendingIncoming,
      'there is no pending friend request from that user',
    );
    await this.#s.api({ method: 'DELETE', route: `${ROUTE[graph]}/${userId}` });
  }

  /** Cancels an outgoing request. */
  async cancel(graph: Graph, userId: string): Promise<void> {
    this.#expect(
      graph,
      userId,
      RelationshipType.PendingOutgoing,
      'there is no outgoing friend request to that user',
    );
    await this.#s.api({ method: 'DELETE', route: `${ROUTE[graph]}/${userId}` });
  }

  /** Removes the game friendship only. */
  async removeGameFriend(userId: string): Promise<void> {
    this.#expect('game', userId, RelationshipType.Friend, 'that user is not a game friend');
    await this.#s.api({ method: 'DELETE', route: `${ROUTE.game}/${userId}` });
  }

  /** Removes every friendship with the user, in both graphs. */
  async removeDiscordAndGameFriend(userId: string): Promise<void> {
    this.#s.requireReady();
    requireSnowflake(userId, 'user');
    const discord = this.#type('discord', userId) === RelationshipType.Friend;
    const game = this.#type('game', userId) === RelationshipType.Friend;
    if (!discord && !game) throw new ValidationError('that user is not a friend');
    if (discord) await this.#s.api({ method: 'DELETE', route: `${ROUTE.discord}/${userId}` });
    if (game) await this.#s.api({ method: 'DELETE', route: `${ROUTE.game}/${userId}` });
  }

  /** Blocks the user, which ends every friendship and request with them. */
  async block(userId: string): Promise<void> {
    requireSnowflake(userId, 'user');
    if (userId === this.#s.currentUserId()) throw new ValidationError('you cannot block yourself');
    await this.#s.api({ method: 'PUT', route: `${ROUTE.discord}/${userId}`, json: { type: 2 } });
  }

  /** Lifts a block. */
  async unblock(userId: string): Promise<void> {
    this.#expect('discord', userId, RelationshipType.Blocked, 'that user is not blocked');
    await this.#s.api({ method: 'DELETE', route: `${ROUTE.discord}/${userId}` });
  }

  #type(graph: Graph, userId: string): RelationshipType {
    return this.#users.relationship(userId)[graph];
  }

  #expect(graph: Graph, userId: string, type: RelationshipType, message: string): void {
    this.#s.requireReady();
    requireSnowflake(userId, 'user');
    if (this.#type(graph, userId) !== type) throw new ValidationError(message);
  }
}
