import { UserHandle } from './UserHandle.js';
import type { UserStore } from './UserStore.js';
import { RelationshipType } from './enums.js';

/**
 * A live view of how the signed-in user relates to another user, in the platform's friend graph and in
 * this game's own friend graph. It reads the client's store on each access.
 */
export class RelationshipHandle {
  readonly #store: UserStore;
  /** The other user's id. */
  readonly id: string;

  /** @internal Handles are created by the client. */
  constructor(store: UserStore, id: string) {
    this.#store = store;
    this.id = id;
  }

  /** The platform relationship (friend, pending, blocked, or None). */
  get discordRelationshipType(): RelationshipType {
    return this.#store.relationship(this.id).discord;
  }

  /** The game relationship of this application (friend, pending, or None). */
  get gameRelationshipType(): RelationshipType {
    return this.#store.relationship(this.id).game;
  }

  /** Whether an incoming request was flagged as spam. */
  get isSpamRequest(): boolean {
    return this.#store.relationship(this.id).isSpamRequest;
  }

  /** True when the two are friends in either graph. */
  get isFriend(): boolean {
    return (
      this.discordRelationshipType === RelationshipType.Friend ||
      this.gameRelationshipType === RelationshipType.Friend
    );
  }

  /** The other user, when the client knows them. */
  get user(): UserHandle | undefined {
    return this.#store.get(this.id) ? new UserHandle(this.#store, this.id) : undefined;
  }

  /** A plain snapshot. */
  toJSON(): {
    /** The other user's id. */
    id: string;
    /** The platform relationship (friend, pending, blocked, or None). */
    discord: RelationshipType;
    /** The game relationship of this application (friend, pending, or None). */
    game: RelationshipType;
  } {
    return { id: this.id, discord: this.discordRelationshipType, game: this.gameRelationshipType };
  }
}
