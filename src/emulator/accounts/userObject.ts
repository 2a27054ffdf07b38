import { PROVISIONAL_ACCOUNT_FLAG } from '../store/Store.js';
import type { UserRecord } from '../store/types.js';

/** A user as the platform sends it (`/users/@me`, READY, USER_UPDATE). */
export interface WireUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: '0';
  avatar: null;
  bot: boolean;
  flags: number;
  premium_type: 0;
  primary_guild: null;
}

/** The wire form of a user record. */
export function wireUser(user: UserRecord): WireUser {
  return {
    id: user.id,
    username: user.username,
    global_name: user.globalName,
    discriminator: '0',
    avatar: null,
    bot: user.bot,
    flags: user.provisional ? PROVISIONAL_ACCOUNT_FLAG : 0,
    // The platform reports 0 to apps without the partner-only identify.premium scope.
    premium_type: 0,
    primary_guild: null,
  };
}
