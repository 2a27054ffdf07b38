import type { VoiceTransport } from '../../media/index.js';

/**
 * What a voice connection knows per remote user but the transport only takes per SSRC: the user ↔ SSRC map
 * from op 5, the DAVE media keys, and the playback gains. A key or gain for a user whose SSRC is not known
 * yet is held here and handed over when op 5 names it, because DAVE often hands out a key before that
 * user has spoken.
 */
export class SsrcRouter {
  readonly #selfUserId: string;
  readonly #transport: () => VoiceTransport | undefined;
  readonly #ssrcByUser = new Map<string, number>();
  readonly #userBySsrc = new Map<number, string>();
  /** DAVE receive keys whose user has no known SSRC yet. */
  readonly #heldKeys = new Map<string, Uint8Array>();
  /** Per-user playback gain (linear), applied by SSRC once known. */
  readonly #userGains = new Map<string, number>();

  /**
   * @param selfUserId - our own user, never mapped (our SSRC is not a speaker of ours)
   * @param transport - the connection's live transport, read at each use since it changes on reconnect
   */
  constructor(selfUserId: string, transport: () => VoiceTransport | undefined) {
    this.#selfUserId = selfUserId;
    this.#transport = transport;
  }

  /** The user behind an SSRC (op 5), if known. */
  userForSsrc(ssrc: number): string | undefined {
    return this.#userBySsrc.get(ssrc);
  }

  /** Sets one user's playback gain (linear, 0..10); kept until their SSRC is known. */
  setUserGain(userId: string, gain: number): void {
    this.#userGains.set(userId, gain);
    const ssrc = this.#ssrcByUser.get(userId);
    if (ssrc !== undefined) this.#transport()?.setUserGain(ssrc, gain);
  }

  /** Gives a new transport the gains of every user whose SSRC is known. */
  applyGains(transport: VoiceTransport): void {
    for (const [userId, gain] of this.#userGains) {
      const ssrc = this.#ssrcByUser.get(userId);
      if (ssrc !== undefined) transport.setUserGain(ssrc, gain);
    }
  }

  /** Forgets the held DAVE keys: they belong to a DAVE group that a new voice session leaves behind. */
  dropHeldKeys(): void {
    this.#heldKeys.clear();
  }

  /** Op 5 named `userId`'s SSRC: the transport gets what was held for them. */
  map(userId: string, ssrc: number): void {
    if (userId === this.#selfUserId || this.#ssrcByUser.get(userId) === ssrc) return;
    const previous = this.#ssrcByUser.get(userId);
    if (previous !== undefined) {
      this.#userBySsrc.delete(previous);
      this.#transport()?.removeSpeaker(previous);
    }
    this.#ssrcByUser.set(userId, ssrc);
    this.#userBySsrc.set(ssrc, userId);
    const transport = this.#transport();
    if (!transport) return;
    const gain = this.#userGains.get(userId);
    if (gain !== undefined) transport.setUserGain(ssrc, gain);
    const key = this.#heldKeys.get(userId);
    if (key) {
      this.#heldKeys.delete(userId);
      transport.setDaveReceiveKey(ssrc, key);
    }
  }

  /** A user left the call (op 13): their SSRC and held key go. */
  remove(userId: string): void {
    const ssrc = this.#ssrcByUser.get(userId);
    if (ssrc !== undefined) {
      this.#transport()?.removeSpeaker(ssrc);
      this.#ssrcByUser.delete(userId);
      this.#userBySsrc.delete(ssrc);
    }
    this.#heldKeys.delete(userId);
  }

  /** DAVE's receive key for `userId`; null is a downgrade to version 0. */
  receiveKey(userId: string, key: Uint8Array | null): void {
    if (!key) {
      // A downgrade to version 0: media may arrive in the clear. The transport's passthrough is for the
      // whole connection (sending too), which the transition's execute asks for next anyway.
      this.#heldKeys.delete(userId);
      this.#transport()?.setDavePassthrough(true);
      return;
    }
    const ssrc = this.#ssrcByUser.get(userId);
    const transport = this.#transport();
    if (ssrc === undefined || !transport) this.#heldKeys.set(userId, key);
    else transport.setDaveReceiveKey(ssrc, key);
  }

  /** DAVE's sender key; null is passthrough (the call left E2EE). */
  sendKey(key: Uint8Array | null): void {
    const transport = this.#transport();
    if (!transport) return;
    if (key) transport.setDaveSendKey(key);
    else transport.setDavePassthrough(true);
  }
}
