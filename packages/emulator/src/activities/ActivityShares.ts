/** How many shares are kept; past it the oldest goes (its link still opens: the link carries its custom id). */
export const MAX_ACTIVITY_SHARES = 1000;

/** One Activity link a player shared from the game (`shareLink`). */
export interface ActivityShare {
  /** The share's id (a snowflake). */
  id: string;
  /** Who shared it. */
  userId: string;
  /** The link, which launches the Activity with `customId` for whoever opens it. */
  url: string;
  /** The game's `custom_id`, or null. */
  customId: string | null;
  /** The game's `link_id`, or null. */
  linkId: string | null;
  /** The message the game sent along with the link. */
  message: string;
  /** How the player shared it: copied the link, or sent it in a channel. */
  via: 'copy' | 'send';
  /** The channel the message went to (`via: 'send'`), else null. */
  channelId: string | null;
  /** The channel message that carries the link (`via: 'send'`), else null. */
  messageId: string | null;
  /** When, in the emulator's ms clock. */
  sharedAt: number;
}

/** The shares the emulated client made, oldest first, bounded by {@link MAX_ACTIVITY_SHARES}. */
export class ActivityShares {
  readonly #shares: ActivityShare[] = [];

  /** Keeps a share, dropping the oldest past the bound. */
  add(share: ActivityShare): void {
    this.#shares.push(share);
    if (this.#shares.length > MAX_ACTIVITY_SHARES) this.#shares.shift();
  }

  /** Every kept share, oldest first (copies). */
  list(): ActivityShare[] {
    return this.#shares.map((s) => ({ ...s }));
  }
}
