import { PROVISIONAL_ACCOUNT_FLAG } from '../store/Store.js';
import type { UserRecord } from '../store/types.js';

/** A user as the platform sends it (`/users/@me`, READY, USER_UPDATE). */
export interface WireUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: '0';
  avatar: string | null;
  bot: boolean;
  flags: number;
  premium_type: number;
  primary_guild: { identity_enabled: boolean; tag: string } | null;
}

/**
 * The wire form of a user record. `premium` is set when the user themself is asking with a token that holds
 * `identify.premium`; everyone else sees 0.
 */
export function wireUser(user: UserRecord, options: { premium?: boolean } = {}): WireUser {
  return {
    id: user.id,
    username: user.username,
    global_name: user.globalName,
    discriminator: '0',
    avatar: user.avatar,
    bot: user.bot,
    flags: user.provisional ? PROVISIONAL_ACCOUNT_FLAG : 0,
    // The platform reports 0 to apps without the partner-only identify.premium scope.
    premium_type: options.premium === true ? user.premiumType : 0,
    primary_guild:
      user.primaryGuildTag === null ? null : { identity_enabled: true, tag: user.primaryGuildTag },
  };
}
