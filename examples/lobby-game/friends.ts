import {
  ActivityActionTypes,
  RelationshipType,
  StatusType,
  type ActivityInvite,
  type Client,
  type UserHandle,
} from 'sdkpp';

import { activityLine, friendLine } from './presence.js';
import type { Print } from './print.js';

/** How a player answers what friends send, and where the answers go. */
export interface FriendsOptions {
  print: Print;
  /** Accept friend requests as they arrive (computer players and `--join`). */
  acceptRequests: boolean;
  /** Called with each Join invite that arrives. */
  onInvite: (invite: ActivityInvite) => void;
  /** Whether `userId` sits at the player's table (their moves are on the board already). */
  isTableMate: (userId: string) => boolean;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The social side of a player: friend requests both ways, invites to the player's table (a friend request
 * first when needed, the invite once it is accepted), the friends list, and friends' presence as it changes.
 */
export class Friends {
  readonly #client: Client;
  readonly #o: FriendsOptions;
  /** Usernames to invite as soon as they accept the friend request. */
  readonly #inviteWhenFriends = new Set<string>();
  /** The last activity line printed per friend, so a line appears only when it changes. */
  readonly #seen = new Map<string, string>();

  constructor(client: Client, options: FriendsOptions) {
    this.#client = client;
    this.#o = options;
    client.on('relationshipCreated', (userId) => {
      this.#relationshipChanged(userId).catch((error: unknown) => this.#error(error));
    });
    client.on('activityInviteCreated', (invite) => {
      if (invite.type === ActivityActionTypes.Join) options.onInvite(invite);
    });
    client.on('userUpdated', (userId) => {
      this.#presenceChanged(userId);
    });
    // Requests sent while the player was away came with READY, not as events.
    for (const r of client.getRelationships()) {
      if (r.discordRelationshipType === RelationshipType.PendingIncoming) {
        this.#relationshipChanged(r.id).catch((error: unknown) => this.#error(error));
      }
    }
  }

  /** The friend with this username, if they are one. */
  friend(username: string): UserHandle | undefined {
    return this.#client.getFriendsList().find((r) => r.user?.username === username)?.user;
  }

  /** Prints the friends list with each friend's status and rich presence. */
  list(): void {
    const friends = this.#client.getFriendsList().flatMap((r) => (r.user ? [r.user] : []));
    if (friends.length === 0) {
      this.#o.print('friends', 'no friends yet: /friend <name> sends a request');
      return;
    }
    for (const user of friends) this.#o.print('friends', friendLine(user));
  }

  /** Sends a friend request by username. */
  async request(username: string): Promise<void> {
    if (username === this.#client.getCurrentUser()?.username) {
      this.#o.print('error', 'that is you');
      return;
    }
    if (this.friend(username)) {
      this.#o.print('friends', `@${username} is already your friend`);
      return;
    }
    await this.#client.sendDiscordFriendRequest(username);
    this.#o.print('friends', `sent a friend request to @${username}`);
  }

  /** Accepts the friend request from `username`. */
  async accept(username: string): Promise<void> {
    const pending = this.#client
      .getRelationships()
      .find(
        (r) =>
          r.user?.username === username && r.discordRelationshipType === RelationshipType.PendingIncoming,
      );
    if (!pending) {
      this.#o.print('error', `no friend request from @${username}`);
      return;
    }
    await this.#client.acceptDiscordFriendRequest(pending.id);
  }

  /** Invites `username` to the table; befriends them first when they are not a friend yet. */
  async invite(username: string): Promise<void> {
    const friend = this.friend(username);
    if (!friend) {
      this.#inviteWhenFriends.add(username);
      const outgoing = this.#client
        .getRelationships()
        .some(
          (r) =>
            r.user?.username === username && r.discordRelationshipType === RelationshipType.PendingOutgoing,
        );
      if (!outgoing) await this.request(username);
      this.#o.print('invite', `the invite to @${username} goes out when they accept your friend request`);
      return;
    }
    // Rich presence travels on the gateway and the invite over HTTP: the platform may not know the party yet.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#client.sendActivityInvite(friend.id, 'Join my table: four in a row!');
        break;
      } catch (error) {
        if (attempt >= 5 || !/party/i.test((error as Error).message)) throw error;
        await sleep(200 * attempt);
      }
    }
    this.#o.print('invite', `invited ${friend.displayName} to your table`);
  }

  async #relationshipChanged(userId: string): Promise<void> {
    const relationship = this.#client.getRelationshipHandle(userId);
    const user = relationship.user;
    const name = user?.username ?? userId;
    if (relationship.discordRelationshipType === RelationshipType.PendingIncoming) {
      if (this.#o.acceptRequests) {
        this.#o.print('friends', `friend request from @${name}: accepting`);
        await this.#client.acceptDiscordFriendRequest(userId);
      } else {
        this.#o.print('friends', `friend request from @${name}: /accept ${name}`);
      }
    } else if (relationship.discordRelationshipType === RelationshipType.Friend) {
      this.#o.print('friends', `you and ${user?.displayName ?? name} are friends now`);
      if (this.#inviteWhenFriends.delete(name)) await this.invite(name);
    }
  }

  /** A friend's presence changed: print what they are doing when it is news (table-mates: only a new phase). */
  #presenceChanged(userId: string): void {
    const relationship = this.#client.getRelationshipHandle(userId);
    if (relationship.discordRelationshipType !== RelationshipType.Friend || !relationship.user) return;
    const user = relationship.user;
    const line = activityLine(user) ?? (user.status === StatusType.Offline ? 'offline' : 'not playing');
    const key = this.#o.isTableMate(userId) ? (user.gameActivity?.details ?? '') : line;
    if (this.#seen.get(userId) === key) return;
    const first = !this.#seen.has(userId);
    this.#seen.set(userId, key);
    if (!first || user.gameActivity) this.#o.print('presence', `${user.displayName}: ${line}`);
  }

  #error(error: unknown): void {
    this.#o.print('error', error instanceof Error ? error.message : String(error));
  }
}
