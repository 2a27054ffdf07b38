import type { Clock } from '@sdkpp/protocol';

/** How long after the last sent voice frame we still count as speaking. */
export const SPEAKING_HOLD_MS = 200;

/** What the speaking tracker needs from its voice connection. */
export interface SpeakingTrackerDeps {
  selfUserId: string;
  clock: Clock;
  /** Tells the voice server we (stopped) speaking (op 5); false while we have no SSRC to say it with. */
  sendSelf: (speaking: boolean) => boolean;
  /** A user started or stopped speaking, us included. */
  emit: (userId: string, speaking: boolean) => void;
}

/**
 * Who is speaking in one voice connection: others from the server's op 5, and us from the voice frames the
 * transport sent, held for {@link SPEAKING_HOLD_MS} so a short pause between words is not a stop.
 */
export class SpeakingTracker {
  readonly #d: SpeakingTrackerDeps;
  readonly #remote = new Set<string>();
  #self = false;
  #lastVoiceFrames = 0;
  #lastVoiceAt = 0;

  constructor(deps: SpeakingTrackerDeps) {
    this.#d = deps;
  }

  /** A new transport counts its voice frames from zero. */
  resetFrameCount(): void {
    this.#lastVoiceFrames = 0;
  }

  /** The transport's running count of voice frames sent; called from the connection's poll. */
  onVoiceFramesSent(voiceFramesSent: number): void {
    const now = this.#d.clock.now();
    if (voiceFramesSent > this.#lastVoiceFrames) {
      this.#lastVoiceFrames = voiceFramesSent;
      this.#lastVoiceAt = now;
      if (!this.#self) this.#setSelf(true);
    } else if (this.#self && now - this.#lastVoiceAt > SPEAKING_HOLD_MS) {
      this.#setSelf(false);
    }
  }

  /** Whether we count as speaking now. */
  get selfSpeaking(): boolean {
    return this.#self;
  }

  /** Whether the server says someone other than us is speaking. */
  get othersSpeaking(): boolean {
    return this.#remote.size > 0;
  }

  /** Op 5 from the server: `userId` is speaking or not. */
  onRemote(userId: string, speaking: boolean): void {
    if (speaking === this.#remote.has(userId)) return;
    if (speaking) this.#remote.add(userId);
    else this.#remote.delete(userId);
    this.#d.emit(userId, speaking);
  }

  /** `userId` left the call (op 13): they no longer speak. */
  onRemoteLeft(userId: string): void {
    if (this.#remote.delete(userId)) this.#d.emit(userId, false);
  }

  /** The connection ends: everyone who was speaking stops. */
  clear(): void {
    if (this.#self) this.#d.emit(this.#d.selfUserId, false);
    this.#self = false;
    for (const userId of this.#remote) this.#d.emit(userId, false);
    this.#remote.clear();
  }

  #setSelf(speaking: boolean): void {
    this.#self = speaking;
    // Without an SSRC the server cannot be told; the state still flips so the hold timing stays right.
    if (!this.#d.sendSelf(speaking)) return;
    this.#d.emit(this.#d.selfUserId, speaking);
  }
}
