/** How long others may speak with no audio reaching us before the voice connection is recovered. */
export const INBOUND_STALL_MS = 2500;

/** Recoveries in a row (with no audio in between) before the watchdog gives up until audio returns. */
export const MAX_INBOUND_RECOVERIES = 3;

/**
 * Inbound audio of a call while others speak: `'stalled'` (none arrived for a while; the SDK is reconnecting
 * the voice connection), `'lost'` (three reconnects did not bring it back; the SDK waits for it) or
 * `'flowing'` (it arrives again after a stall).
 */
export type InboundAudioState = 'stalled' | 'lost' | 'flowing';

/** What the watchdog saw in one poll; `received` is a running count of the server's datagrams. */
export interface InboundObservation {
  nowMs: number;
  received: number;
  /** Whether the voice server says someone else is speaking (op 5). */
  othersSpeaking: boolean;
}

/** What the owner must do after an observation. */
export type InboundVerdict =
  /** Nothing. */
  | { kind: 'ok' }
  /** Others spoke for `stalledMs` and nothing arrived: recover (attempt `attempt`, from 1). */
  | { kind: 'stalled'; stalledMs: number; attempt: number }
  /** The last allowed recovery did not bring audio back; the watchdog waits for audio now. */
  | { kind: 'gave-up'; stalledMs: number }
  /** Audio arrives again after a stall was reported. */
  | { kind: 'recovered'; stalledMs: number };

/**
 * Notices a voice connection whose inbound audio stopped while others speak: the voice gateway's op 5 says
 * someone speaks, yet no datagram from the voice server has arrived for {@link INBOUND_STALL_MS}. That is a
 * path broken one way (a NAT mapping lost, the server forwarding elsewhere), which the voice gateway socket
 * cannot see, since it stays up. Silence alone is no stall: nobody speaking means nothing to receive. Each
 * further recovery waits twice as long as the one before, and after {@link MAX_INBOUND_RECOVERIES} in a row
 * it gives up until audio comes back, so a call whose speakers' own uplink is broken does not reconnect in a
 * loop.
 */
export class InboundAudioWatchdog {
  readonly #stallMs: number;
  #lastReceived = -1;
  /** When audio last arrived, or when others started speaking after a quiet spell, whichever is later. */
  #since = 0;
  #othersWereSpeaking = false;
  /** When the stall reported to the owner began, while one is open. */
  #stalledSince: number | undefined;
  #attempts = 0;
  #gaveUp = false;

  constructor(stallMs = INBOUND_STALL_MS) {
    this.#stallMs = stallMs;
  }

  /** A new transport counts from zero; the wait starts over (a recovery under way is not a new stall). */
  resetCount(nowMs: number): void {
    this.#lastReceived = -1;
    this.#since = nowMs;
  }

  /** One poll of the transport's counters. */
  observe({ nowMs, received, othersSpeaking }: InboundObservation): InboundVerdict {
    if (this.#lastReceived < 0) {
      // The first look at a new transport's counter is its baseline, not an arrival.
      this.#lastReceived = received;
    } else if (received !== this.#lastReceived) {
      this.#lastReceived = received;
      this.#since = nowMs;
      if (this.#stalledSince !== undefined) {
        const stalledMs = nowMs - this.#stalledSince;
        this.#stalledSince = undefined;
        this.#attempts = 0;
        this.#gaveUp = false;
        return { kind: 'recovered', stalledMs };
      }
      return { kind: 'ok' };
    }
    if (!othersSpeaking) {
      this.#othersWereSpeaking = false;
      return { kind: 'ok' };
    }
    if (!this.#othersWereSpeaking) {
      // Someone starts speaking: the wait counts from now, not from the last packet of a quiet call.
      this.#othersWereSpeaking = true;
      this.#since = Math.max(this.#since, nowMs);
    }
    if (this.#gaveUp) return { kind: 'ok' };
    const waitMs = this.#stallMs * 2 ** this.#attempts;
    if (nowMs - this.#since < waitMs) return { kind: 'ok' };
    this.#stalledSince ??= this.#since;
    const stalledMs = nowMs - this.#stalledSince;
    if (this.#attempts >= MAX_INBOUND_RECOVERIES) {
      this.#gaveUp = true;
      return { kind: 'gave-up', stalledMs };
    }
    this.#attempts += 1;
    this.#since = nowMs;
    return { kind: 'stalled', stalledMs, attempt: this.#attempts };
  }
}
