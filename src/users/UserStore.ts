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

/** The users the client knows, by id. Handles read from here, so they see later updates. */
export class UserStore {
  readonly #users = new Map<string, WireUser>();

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

  /** Forgets every user (on disconnect). */
  clear(): void {
    this.#users.clear();
  }
}

function isWireUser(data: unknown): data is WireUser {
  if (data === null || typeof data !== 'object') return false;
  const { id, username } = data as { id?: unknown; username?: unknown };
  return typeof id === 'string' && /^[0-9]{1,20}$/.test(id) && typeof username === 'string';
}
