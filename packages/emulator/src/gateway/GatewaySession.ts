import type { TimerHandle } from '@sdkpp/protocol';
import type { GatewayConnection } from './GatewayConnection.js';

/** One dispatch as sent: its sequence number and the exact frame text, replayed unchanged on resume. */
export interface SentDispatch {
  s: number;
  frame: string;
}

/** How many dispatches a session keeps for replay; a resume from further back gets op 9. */
export const REPLAY_BUFFER_SIZE = 1000;

/** The default byte limit of a session's replay buffer (frames' UTF-16 length, about their size). */
export const REPLAY_BUFFER_BYTES = 4 * 1024 * 1024;

/** What a session was opened with. */
export interface SessionIdentity {
  userId: string;
  /** `oauth` for Bearer tokens, `bot` for the bot token. */
  kind: 'oauth' | 'bot';
  /** The granted scopes (empty for the bot). */
  scopes: string[];
  /** Identify's `intents` (bots; 0 for OAuth sessions). */
  intents: number;
  /** Identify's `capabilities` bitfield (0 when absent). */
  capabilities: number;
  /** Identify's `shard` as [shard_id, num_shards]; [0, 1] without one. @defaultValue [0, 1] */
  shard?: [number, number];
  /** The child application a child token (publisher-level linking) identifies for; absent otherwise. */
  childApplication?: { id: string; name: string };
}

/**
 * A gateway session: the sequence counter and replay buffer that outlive any one socket. While no socket
 * is attached (a drop, a resumable close) dispatches are still numbered and buffered, so a resume replays
 * exactly what the client missed.
 */
export class GatewaySession {
  readonly id: string;
  readonly userId: string;
  readonly kind: 'oauth' | 'bot';
  readonly scopes: string[];
  /** See {@link SessionIdentity.intents}. */
  readonly intents: number;
  /** See {@link SessionIdentity.capabilities}. */
  readonly capabilities: number;
  /** See {@link SessionIdentity.shard}. */
  readonly shard: readonly [number, number];
  /** See {@link SessionIdentity.childApplication}. */
  readonly childApplication: { readonly id: string; readonly name: string } | undefined;
  /** The last sequence number used. */
  seq = 0;
  /** The attached socket, or null while the session waits for a resume. */
  connection: GatewayConnection | null = null;
  /** Set once the session is over; it can then never be resumed. */
  ended = false;
  /** Ends the session when no resume came in time. */
  expiryTimer: TimerHandle | undefined;
  readonly #buffer: SentDispatch[] = [];
  readonly #maxBufferBytes: number;
  #bufferBytes = 0;

  constructor(id: string, identity: SessionIdentity, maxBufferBytes = REPLAY_BUFFER_BYTES) {
    this.id = id;
    this.#maxBufferBytes = maxBufferBytes;
    this.userId = identity.userId;
    this.kind = identity.kind;
    this.scopes = identity.scopes;
    this.intents = identity.intents;
    this.capabilities = identity.capabilities;
    this.shard = identity.shard ?? [0, 1];
    this.childApplication = identity.childApplication;
  }

  /**
   * Whether this session's shard carries a guild's events: `(guild_id >> 22) % num_shards` is its shard id,
   * the platform's rule. Events outside guilds (DMs) go to shard 0.
   */
  carries(guildId: string | null): boolean {
    const [id, count] = this.shard;
    if (guildId === null) return id === 0;
    return Number((BigInt(guildId) >> 22n) % BigInt(count)) === id;
  }

  /** Numbers and records a dispatch; returns it for sending. */
  record(event: string, data: unknown): SentDispatch {
    this.seq += 1;
    const dispatch = { s: this.seq, frame: JSON.stringify({ op: 0, d: data, s: this.seq, t: event }) };
    this.#buffer.push(dispatch);
    this.#bufferBytes += dispatch.frame.length;
    // Bounded by count and by bytes: a thousand large dispatches must not hold hundreds of megabytes.
    while (
      this.#buffer.length > REPLAY_BUFFER_SIZE ||
      (this.#bufferBytes > this.#maxBufferBytes && this.#buffer.length > 1)
    ) {
      const dropped = this.#buffer.shift();
      if (dropped) this.#bufferBytes -= dropped.frame.length;
    }
    return dispatch;
  }

  /** Characters of the frames kept for replay (about their bytes: frames are mostly ASCII). */
  get replayBytes(): number {
    return this.#bufferBytes;
  }

  /**
   * The dispatches after `seq`, in order, or null when some of them have already left the buffer (the
   * caller must then refuse the resume). `seq` must not exceed {@link GatewaySession.seq}.
   */
  replayAfter(seq: number): SentDispatch[] | null {
    const first = this.#buffer[0];
    const missed = this.seq - seq;
    if (missed === 0) return [];
    if (!first || first.s > seq + 1) return null;
    return this.#buffer.slice(this.#buffer.length - missed);
  }
}
