import type { UserStore, WireUser } from './UserStore.js';

/** User flag of provisional accounts (wire-protocols §4: 1 << 23). */
const PROVISIONAL_ACCOUNT_FLAG = 1 << 23;

/**
 * A live, read-only view of a user: it reads the client's store on each access, so it reflects later updates.
 * Once the user is forgotten (after `disconnect()`), every getter returns its default value.
 */
export class UserHandle {
  readonly #store: UserStore;
  /** The user's id (a snowflake). */
  readonly id: string;

  /** @internal Handles are created by the client. */
  constructor(store: UserStore, id: string) {
    this.#store = store;
    this.id = id;
  }

  get #data(): WireUser | undefined {
    return this.#store.get(this.id);
  }

  /** The unique username. */
  get username(): string {
    return this.#data?.username ?? '';
  }

  /** The global display name, or null when the user has none. */
  get globalName(): string | null {
    return this.#data?.global_name ?? null;
  }

  /** The name to show: the global name, else the username. */
  get displayName(): string {
    return this.globalName ?? this.username;
  }

  /** The avatar hash, or null for the default avatar. */
  get avatar(): string | null {
    return this.#data?.avatar ?? null;
  }

  /** True for a provisional account (no full platform account linked yet). */
  get isProvisional(): boolean {
    return ((this.#data?.flags ?? 0) & PROVISIONAL_ACCOUNT_FLAG) !== 0;
  }

  /** 0 unless the application holds `identify.premium`. */
  get premiumType(): number {
    return this.#data?.premium_type ?? 0;
  }

  /** A plain snapshot, for logging or serialising. */
  toJSON(): { id: string; username: string; displayName: string; isProvisional: boolean } {
    return {
      id: this.id,
      username: this.username,
      displayName: this.displayName,
      isProvisional: this.isProvisional,
    };
  }
}
