import { RelationshipType } from './enums.js';
import type { UserApplicationProfile } from './UserApplicationProfile.js';

/** A user as the platform sends it (`users/@me`, READY, USER_UPDATE). */
export interface WireUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
  discriminator?: string;
  bot?: boolean;
  flags?: number;
  premium_type?: number;
  primary_guild?: { tag?: string | null; identity_guild_id?: string | null } | null;
}

/** What the client knows of a user's presence (from PRESENCE_UPDATE and READY). */
export interface KnownPresence {
  /** The gateway's status name: `online`, `idle`, `dnd`, `offline`, … */
  status: string;
  /** The activities as received. */
  activities: Record<string, unknown>[];
}

/** How the signed-in user relates to one other user, in both graphs. */
export interface KnownRelationship {
  discord: RelationshipType;
  game: RelationshipType;
  isSpamRequest: boolean;
}

/**
 * What the client knows of other users, by id: their data, presence and relationship to the signed-in user.
 * Handles read from here, so they see later updates.
 */
export class UserStore {
  readonly #users = new Map<string, WireUser>();
  readonly #presence = new Map<string, KnownPresence>();
  readonly #relationships = new Map<string, KnownRelationship>();
  #profiles = new Map<string, readonly UserApplicationProfile[]>();
  /** The application the client runs as, which decides what a user's "game activity" is. */
  applicationId: () => string | undefined = () => undefined;

  /** The user with this id, if known. */
  get(id: string): WireUser | undefined {
    return this.#users.get(id);
  }

  /** Adds a user or merges fields into the known one. Ignores data without an id. */
  upsert(data: unknown): WireUser | undefined {
    if (!isWireUser(data)) return undefined;
    const merged = { ...this.#users.get(data.id), ...data };
    this.#users.set(data.id, merged);
    return merged;
  }

  /** The user's last known presence. */
  presence(id: string): KnownPresence | undefined {
    return this.#presence.get(id);
  }

  /** Records a presence; returns whether anything changed. */
  setPresence(id: string, presence: KnownPresence): boolean {
    const before = this.#presence.get(id);
    this.#presence.set(id, presence);
    return JSON.stringify(before) !== JSON.stringify(presence);
  }

  /** The relationship with the user (both graphs `None` when there is none). */
  relationship(id: string): KnownRelationship {
    return (
      this.#relationships.get(id) ?? {
        discord: RelationshipType.None,
        game: RelationshipType.None,
        isSpamRequest: false,
      }
    );
  }

  /** Sets one graph's type (None removes it); returns whether it changed. */
  setRelationship(
    id: string,
    graph: 'discord' | 'game',
    type: RelationshipType,
    isSpamRequest = false,
  ): boolean {
    const current = this.relationship(id);
    if (current[graph] === type && (graph === 'game' || current.isSpamRequest === isSpamRequest))
      return false;
    const next = { ...current, [graph]: type, ...(graph === 'discord' ? { isSpamRequest } : {}) };
    if (next.discord === RelationshipType.None && next.game === RelationshipType.None)
      this.#relationships.delete(id);
    else this.#relationships.set(id, next);
    return true;
  }

  /** Ids of every user with a relationship in either graph. */
  relationshipIds(): string[] {
    return [...this.#relationships.keys()];
  }

  /** The user's profiles from external identity providers, as the last READY sent them. */
  applicationProfiles(id: string): readonly UserApplicationProfile[] {
    return this.#profiles.get(id) ?? [];
  }

  /** Replaces every user's application profiles (READY carries all of them). */
  setApplicationProfiles(profiles: Map<string, readonly UserApplicationProfile[]>): void {
    this.#profiles = profiles;
  }

  /** Forgets relationships, presences and application profiles (a new READY replaces them). */
  clearSocial(): void {
    this.#presence.clear();
    this.#relationships.clear();
    this.#profiles = new Map();
  }

  /** Forgets everything (on disconnect). */
  clear(): void {
    this.#users.clear();
    this.clearSocial();
  }
}

function isWireUser(data: unknown): data is WireUser {
  if (data === null || typeof data !== 'object') return false;
  const { id, username } = data as { id?: unknown; username?: unknown };
  return typeof id === 'string' && /^[0-9]{1,20}$/.test(id) && typeof username === 'string';
}
