import type { RelationshipHandle as CoreRelationshipHandle } from '../src/social/UserHandle.js';
import { RelationshipType } from '../src/social/enums.js';
import { idToBigInt } from './ids.js';
import { UserHandle } from './UserHandle.js';

/** The relationship with another user, as the C++ SDK's `RelationshipHandle`. */
export class RelationshipHandle {
  /** An invalid handle. */
  static readonly nullobj: RelationshipHandle = new RelationshipHandle(undefined);
  readonly #core: CoreRelationshipHandle | undefined;

  /** @internal Created by the client. */
  constructor(core: CoreRelationshipHandle | undefined) {
    this.#core = core;
  }
  /** True unless this is `nullobj`. */
  IsValid(): boolean {
    return this.#core !== undefined;
  }
  /** The other user's id. */
  Id(): bigint {
    return idToBigInt(this.#core?.id);
  }
  /** The platform relationship. */
  DiscordRelationshipType(): RelationshipType {
    return this.#core?.discordRelationshipType ?? RelationshipType.None;
  }
  /** This game's relationship. */
  GameRelationshipType(): RelationshipType {
    return this.#core?.gameRelationshipType ?? RelationshipType.None;
  }
  /** Whether an incoming request was flagged as spam. */
  IsSpamRequest(): boolean {
    return this.#core?.isSpamRequest ?? false;
  }
  /** The other user, when known. */
  User(): UserHandle | undefined {
    const user = this.#core?.user;
    return user ? new UserHandle(user) : undefined;
  }
}
