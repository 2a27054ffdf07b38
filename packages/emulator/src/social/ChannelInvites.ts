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
    return this.#insert(
      {
        guildId: input.guildId,
        channelId: input.channelId,
        lobbyId: input.lobbyId,
        forUserId: input.forUserId,
      },
      CHANNEL_INVITE_TTL_MS,
    );
  }

  /**
   * Makes a guild invite (a bot's Create Channel Invite): `maxAgeSeconds` 0 never expires, `maxUses` 0 is
   * unlimited; `roleIds` are given on acceptance; `targetUserIds`, when given, are the only users who may
   * accept it.
   */
  createGuildInvite(input: {
    guildId: string;
    channelId: string;
    inviterId: string;
    maxAgeSeconds: number;
    maxUses: number;
    temporary: boolean;
    roleIds: string[];
    targetUserIds: string[] | null;
  }): ChannelInviteRecord {
    return this.#insert(
      {
        guildId: input.guildId,
        channelId: input.channelId,
        lobbyId: null,
        forUserId: null,
        maxUses: input.maxUses,
        uses: 0,
        maxAgeSeconds: input.maxAgeSeconds,
        temporary: input.temporary,
        roleIds: [...input.roleIds],
        targetUserIds: input.targetUserIds === null ? null : [...input.targetUserIds],
        inviterId: input.inviterId,
      },
      input.maxAgeSeconds === 0 ? null : input.maxAgeSeconds * 1000,
    );
  }

  /** Stores an invite under a fresh code, made now, unused, living `ttlMs` (null: it never expires). */
  #insert(
    fields: Omit<ChannelInviteRecord, 'code' | 'createdAt' | 'expiresAt' | 'usedAt'>,
    ttlMs: number | null,
  ): ChannelInviteRecord {
    const code = this.#freshCode();
    const now = this.#store.now();
    const record: ChannelInviteRecord = {
      code,
      ...fields,
      createdAt: now,
      expiresAt: ttlMs === null ? Number.MAX_SAFE_INTEGER : now + ttlMs,
      usedAt: null,
    };
    this.#store.state.channelInvites[code] = record;
    return record;
  }

  /** An invite by code, live or not. */
  get(code: string): ChannelInviteRecord | undefined {
    const invites = this.#store.state.channelInvites;
    return Object.hasOwn(invites, code) ? invites[code] : undefined;
  }

  /** A channel's guild invites that can still be used. */
  guildInvitesOf(channelId: string): ChannelInviteRecord[] {
    return Object.values(this.#store.state.channelInvites).filter(
      (r) => r.lobbyId === null && r.channelId === channelId && this.live(r.code) !== undefined,
    );
  }

  /** Deletes an invite. */
  delete(code: string): void {
    Reflect.deleteProperty(this.#store.state.channelInvites, code);
  }

  /** An invite that can still be redeemed (not used up, not expired), or undefined. */
  live(code: string): ChannelInviteRecord | undefined {
    const record = this.get(code);
    if (!record || record.expiresAt <= this.#store.now()) return undefined;
    const usedUp =
      record.lobbyId !== null
        ? record.usedAt !== null
        : (record.maxUses ?? 0) > 0 && (record.uses ?? 0) >= (record.maxUses ?? 0);
    return usedUp ? undefined : record;
  }

  /** Checks whether `userId` may redeem the invite now, without using it. */
  check(code: string, userId: string): ChannelInviteRecord | InviteProblem {
    const record = this.live(code);
    if (!record) return 'unknown';
    if (record.forUserId !== null && record.forUserId !== userId) return 'not-yours';
    if (record.targetUserIds && !record.targetUserIds.includes(userId)) return 'not-yours';
    return record;
  }

  /** Counts a use: a lobby invite can never be redeemed again; a guild invite up to its `maxUses`. */
  use(record: ChannelInviteRecord): void {
    if (record.lobbyId !== null) record.usedAt = this.#store.now();
    else record.uses = (record.uses ?? 0) + 1;
  }

  /** A code no invite has, after sweeping the expired ones (which keeps the store bounded). */
  #freshCode(): string {
    this.sweep();
    const invites = this.#store.state.channelInvites;
    let code: string;
    do code = inviteCode();
    while (Object.hasOwn(invites, code));
    return code;
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
