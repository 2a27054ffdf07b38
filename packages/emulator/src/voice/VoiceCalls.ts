import { TypedEmitter } from '@sdkpp/protocol';
import { randomToken } from '../random.js';

/** Participants a call holds at most; the 26th join is refused (contract). */
export const MAX_CALL_PARTICIPANTS = 25;

/** Which main-gateway op a participant joined with: op 17 (`lobby`) or op 4 (`guild`, bot style). */
export type JoinFlavour = 'lobby' | 'guild';

/** Why a participant left a call. */
export type LeaveReason = 'left' | 'kicked' | 'session' | 'membership' | 'ended' | 'replaced';

/** One participant of a lobby call, as the main gateway knows it. */
export interface CallParticipant {
  readonly userId: string;
  /** The main gateway session that joined (`session_id` of the voice state and of voice Identify). */
  sessionId: string;
  flavour: JoinFlavour;
  selfMute: boolean;
  selfDeaf: boolean;
  /** The voice server token; a secret, never logged. */
  token: string;
  /** When the participant joined (ms, real time). */
  readonly joinedAt: number;
}

/** One lobby's call: who is in it, by user id. */
export class VoiceCall {
  /** The lobby's id, which is also the voice `server_id` and `channel_id`. */
  readonly lobbyId: string;
  /** Participants in join order. */
  readonly participants = new Map<string, CallParticipant>();

  constructor(lobbyId: string) {
    this.lobbyId = lobbyId;
  }
}

/** Events of {@link VoiceCalls}. */
export type VoiceCallsEvents = {
  /** Someone joined, or joined again from another session (a fresh token). */
  joined: [call: VoiceCall, participant: CallParticipant];
  /** Someone's self mute or deafen changed. */
  changed: [call: VoiceCall, participant: CallParticipant];
  /** Someone left; `reason` says why. */
  left: [call: VoiceCall, participant: CallParticipant, reason: LeaveReason];
  /** The last participant left: the call is over. */
  ended: [call: VoiceCall];
};

/** A join's outcome. */
export type JoinResult =
  { ok: true; participant: CallParticipant; fresh: boolean } | { ok: false; reason: 'full' };

/**
 * The lobby calls of one emulator: participants, their flags and voice tokens. The main gateway's op 4 and
 * op 17 change it; the voice server authenticates against it.
 */
export class VoiceCalls extends TypedEmitter<VoiceCallsEvents> {
  readonly #calls = new Map<string, VoiceCall>();
  readonly #now: () => number;

  constructor(now: () => number) {
    super();
    this.#now = now;
  }

  /** A call by lobby id. */
  get(lobbyId: string): VoiceCall | undefined {
    return this.#calls.get(lobbyId);
  }

  /** Every call with at least one participant. */
  all(): VoiceCall[] {
    return [...this.#calls.values()];
  }

  /** The calls a main gateway session is in. */
  ofSession(sessionId: string): { call: VoiceCall; participant: CallParticipant }[] {
    const found: { call: VoiceCall; participant: CallParticipant }[] = [];
    for (const call of this.#calls.values()) {
      for (const participant of call.participants.values()) {
        if (participant.sessionId === sessionId) found.push({ call, participant });
      }
    }
    return found;
  }

  /**
   * Joins (or updates) a participant. The same session again only changes flags (`fresh: false`); another
   * session of the same user takes the place over with a new token (`fresh: true`, the old one is gone).
   */
  join(
    lobbyId: string,
    userId: string,
    sessionId: string,
    flags: { selfMute: boolean; selfDeaf: boolean },
    flavour: JoinFlavour,
  ): JoinResult {
    let call = this.#calls.get(lobbyId);
    const existing = call?.participants.get(userId);
    if (call && existing && existing.sessionId === sessionId) {
      existing.flavour = flavour;
      if (existing.selfMute !== flags.selfMute || existing.selfDeaf !== flags.selfDeaf) {
        existing.selfMute = flags.selfMute;
        existing.selfDeaf = flags.selfDeaf;
        this.emit('changed', call, existing);
      }
      return { ok: true, participant: existing, fresh: false };
    }
    if (call && existing) {
      call.participants.delete(userId);
      this.emit('left', call, existing, 'replaced');
    } else if (call && call.participants.size >= MAX_CALL_PARTICIPANTS) {
      return { ok: false, reason: 'full' };
    }
    if (!call) {
      call = new VoiceCall(lobbyId);
      this.#calls.set(lobbyId, call);
    }
    const participant: CallParticipant = {
      userId,
      sessionId,
      flavour,
      selfMute: flags.selfMute,
      selfDeaf: flags.selfDeaf,
      token: randomToken(24),
      joinedAt: this.#now(),
    };
    call.participants.set(userId, participant);
    this.emit('joined', call, participant);
    return { ok: true, participant, fresh: true };
  }

  /** Removes a participant; returns whether they were in the call. Ends the call when it empties. */
  leave(lobbyId: string, userId: string, reason: LeaveReason): boolean {
    const call = this.#calls.get(lobbyId);
    const participant = call?.participants.get(userId);
    if (!call || !participant) return false;
    call.participants.delete(userId);
    this.emit('left', call, participant, reason);
    if (call.participants.size === 0) {
      this.#calls.delete(lobbyId);
      this.emit('ended', call);
    }
    return true;
  }

  /** Removes everyone (the lobby is gone, or the emulator stops). */
  end(lobbyId: string): void {
    const call = this.#calls.get(lobbyId);
    if (!call) return;
    for (const userId of [...call.participants.keys()]) this.leave(lobbyId, userId, 'ended');
  }
}
