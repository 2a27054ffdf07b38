import { inviteCode } from '../random.js';
import type { EmulatorStore } from '../store/Store.js';
import type { ChannelInviteRecord } from '../store/types.js';

/** How long a lobby channel invite stays valid (seed: one hour). */
export const CHANNEL_INVITE_TTL_MS = 60 * 60_000;

/** What an invite is for. */
export interface NewChannelInvite {
  guildId: string;
  channelId: string;
  lobbyId: string;
  /** The only user who may redeem it. */
  forUserId: string | null;
}

/** Why an invite cannot be redeemed: unknown, used or expired (all one error on the wire), or someone else's. */
export type InviteProblem = 'unknown' | 'not-yours';

/**
 * Lobby channel invites: single use, valid one hour by the emulator's clock (so `advanceTime` expires them).
 * Expired invites are swept whenever a new one is made, which keeps the store bounded.
 */
export class ChannelInvites {
  readonly #store: EmulatorStore;

  constructor(store: EmulatorStore) {
    this.#store = store;
  }

  /** Makes an invite with a fresh code. */
  create(input: NewChannelInvite): ChannelInviteRecord {
    this.sweep();
    const invites = this.#store.state.channelInvites;
    let code: string;
    do code = inviteCode();
    while (Object.hasOwn(invites, code));
    const now = this.#store.now();
    const record: ChannelInviteRecord = {
      code,
      guildId: input.guildId,
      channelId: input.channelId,
      lobbyId: input.lobbyId,
      forUserId: input.forUserId,
      createdAt: now,
      expiresAt: now + CHANNEL_INVITE_TTL_MS,
      usedAt: null,
    };
    invites[code] = record;
    return record;
  }

  /** An invite that can still be redeemed (unused, not expired), or undefined. */
  live(code: string): ChannelInviteRecord | undefined {
    const invites = this.#store.state.channelInvites;
    const record = Object.hasOwn(invites, code) ? invites[code] : undefined;
    if (!record || record.usedAt !== null || record.expiresAt <= this.#store.now()) return undefined;
    return record;
  }

  /** Checks whether `userId` may redeem the invite now, without using it. */
  check(code: string, userId: string): ChannelInviteRecord | InviteProblem {
    const record = this.live(code);
    if (!record) return 'unknown';
    if (record.forUserId !== null && record.forUserId !== userId) return 'not-yours';
    return record;
  }

  /** Marks the invite used; it can never be redeemed again. */
  use(record: ChannelInviteRecord): void {
    record.usedAt = this.#store.now();
  }

  /** Drops expired invites (used or not); returns how many. */
  sweep(): number {
    const invites = this.#store.state.channelInvites;
    const now = this.#store.now();
    let dropped = 0;
    for (const [code, record] of Object.entries(invites)) {
      if (record.expiresAt > now) continue;
      Reflect.deleteProperty(invites, code);
      dropped += 1;
    }
    return dropped;
  }
}
