import { ValidationError } from '@sdkpp/protocol';
import type { NoEvents, SessionContext } from '../session/SessionContext.js';
import type { UserStore } from './UserStore.js';

/** The platform's bounds on a display name (global name), in characters. */
const MIN_NAME = 1;
const MAX_NAME = 32;

/**
 * The signed-in provisional account's own settings: its display name, which the game sets (for example from
 * the name the player chose in the game) because a provisional account has no platform profile page.
 */
export class ProvisionalAccount {
  readonly #s: SessionContext<NoEvents>;
  readonly #users: UserStore;

  constructor(session: SessionContext<NoEvents>, users: UserStore) {
    this.#s = session;
    this.#users = users;
  }

  /**
   * `PATCH /users/@me/account` with `{global_name}` (the platform's "Modify Current User Account"); the reply's
   * user replaces the known one at once, and USER_UPDATE follows on the gateway.
   */
  async updateDisplayName(name: string): Promise<void> {
    this.#s.requireReady();
    if (typeof name !== 'string' || name.trim().length < MIN_NAME || name.length > MAX_NAME) {
      throw new ValidationError(`the display name must be ${MIN_NAME}–${MAX_NAME} characters, not blank`);
    }
    const id = this.#s.currentUserId();
    if (id !== undefined && !isProvisional(this.#users.get(id)?.flags)) {
      throw new ValidationError(
        "only a provisional account's display name can be changed by the game; a full account's is the player's",
      );
    }
    const user = await this.#s.api<unknown>({
      method: 'PATCH',
      route: '/users/@me/account',
      json: { global_name: name },
    });
    this.#users.upsert(user);
  }
}

/** User flag of provisional accounts (1 << 23). */
function isProvisional(flags: number | undefined): boolean {
  return ((flags ?? 0) & (1 << 23)) !== 0;
}
