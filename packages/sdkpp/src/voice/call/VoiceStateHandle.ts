/** One participant's voice state as the main gateway reports it (LOBBY_VOICE_STATE_UPDATE). */
export interface VoiceStateData {
  readonly userId: string;
  readonly lobbyId: string;
  readonly sessionId: string;
  readonly selfMute: boolean;
  readonly selfDeaf: boolean;
}

/**
 * A live view of one participant's voice state in a lobby call: whether they muted or deafened themselves.
 * It reads the latest state each time; after they leave it keeps their last state.
 */
export class VoiceStateHandle {
  readonly #state: () => VoiceStateData | undefined;
  #last: VoiceStateData;

  /** @internal Created by the SDK. */
  constructor(state: () => VoiceStateData | undefined, initial: VoiceStateData) {
    this.#state = state;
    this.#last = initial;
  }

  #current(): VoiceStateData {
    const now = this.#state();
    if (now) this.#last = now;
    return this.#last;
  }

  /** The participant's user id. */
  get userId(): string {
    return this.#last.userId;
  }
  /** True when they muted their microphone. */
  get selfMute(): boolean {
    return this.#current().selfMute;
  }
  /** True when they deafened themselves (they hear no one, and no one hears them). */
  get selfDeaf(): boolean {
    return this.#current().selfDeaf;
  }

  /** A plain snapshot. */
  toJSON(): {
    /** The participant's user id. */
    userId: string;
    /** True when they muted their microphone. */
    selfMute: boolean;
    /** True when they deafened themselves. */
    selfDeaf: boolean;
  } {
    const s = this.#current();
    return { userId: s.userId, selfMute: s.selfMute, selfDeaf: s.selfDeaf };
  }
}
