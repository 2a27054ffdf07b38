import { TypedEmitter } from '@sdkpp/protocol';
import { randomToken } from '../random.js';

/** Participants a call holds at most; the 26th join is refused (contract). */
export const MAX_CALL_PARTICIPANTS = 25;

/** Which main-gateway op a participant joined with: op 17 (`lobby`) or op 4 (`guild`, bot style). */
export type JoinFlavour = 'lobby' | 'guild';

/** Why a participant left a call. */
export type LeaveReason = 'left' | 'kicked' | 'session' | 'membership' | 'ended' | 'replaced' | 'moved';

/** What the platform's voice rules do to a participant's audio in a guild voice channel. */
export interface VoiceRules {
  /** Server mute or no SPEAK: the forwarding unit sends their packets to nobody. */
  silenced: boolean;
  /** Server deafen: the forwarding unit sends them nothing. */
  deafened: boolean;
}

/** One participant of a call (a lobby's or a guild voice channel's), as the main gateway knows it. */
export interface CallParticipant {
  readonly userId: string;
  /** The main gateway session that joined (`session_id` of the voice state and of voice Identify). */
  sessionId: string;
  flavour: JoinFlavour;
  selfMute: boolean;
  selfDeaf: boolean;
  /** The voice server token; a secret, never logged. */
  token: string;
  /** The voice rules on their audio (lobby calls: never silenced or deafened). */
  rules: VoiceRules;
  /** When the participant joined (ms, real time). */
  readonly joinedAt: number;
}

/**
 * One call: a lobby's, or a guild voice channel's. Who is in it, by user id. A lobby's call has the lobby's
 * id as both `channel_id` and the voice `server_id`; a voice channel's call has the channel's id and the
 * guild's id as `server_id`, as on the platform (a user is in at most one voice channel per guild).
 */
export class VoiceCall {
  /** The lobby's id, or the guild voice channel's id: the call's key. */
  readonly channelId: string;
  /** The guild of a voice channel's call; null for a lobby's call. */
  readonly guildId: string | null;
  /** Participants in join order. */
  readonly participants = new Map<string, CallParticipant>();

  constructor(channelId: string, guildId: string | null = null) {
    this.channelId = channelId;
    this.guildId = guildId;
  }

  /** The voice `server_id` clients identify with: the guild's id, or the lobby's. */
  get serverId(): string {
    return this.guildId ?? this.channelId;
  }

  /** A label for log lines: `lobby 123` or `channel 456`. */
  get label(): string {
    return this.guildId === null ? `lobby ${this.channelId}` : `channel ${this.channelId}`;
  }
}

/** Events of {@link VoiceCalls}. */
export type VoiceCallsEvents = {
  /** Someone joined, or joined again from another session (a fresh token). */
  joined: [call: VoiceCall, participant: CallParticipant];
  /** Someone's self mute or deafen, or their voice rules, changed. */
  changed: [call: VoiceCall, participant: CallParticipant];
  /** Someone was given a new token for the same call (the channel's region changed): a new server update. */
  renewed: [call: VoiceCall, participant: CallParticipant];
  /** Someone left; `reason` says why. */
  left: [call: VoiceCall, participant: CallParticipant, reason: LeaveReason];
  /** The last participant left: the call is over. */
  ended: [call: VoiceCall];
  /** Someone's speaking flags changed (their op 5 Speaking); 0 is silence. */
  speaking: [channelId: string, userId: string, speaking: number];
};

/** A join's outcome. */
export type JoinResult =
  { ok: true; participant: CallParticipant; fresh: boolean } | { ok: false; reason: 'full' };

/**
 * The calls of one emulator (lobbies' and guild voice channels'): participants, their flags and voice tokens. The main gateway's op 4 and
 * op 17 change it; the voice server authenticates against it.
 */
export class VoiceCalls extends TypedEmitter<VoiceCallsEvents> {
  readonly #calls = new Map<string, VoiceCall>();
  readonly #now: () => number;

  constructor(now: () => number) {
    super();
    this.#now = now;
  }

  /** Tells listeners that someone started (`speaking` non-zero) or stopped speaking in a call. */
  speaking(channelId: string, userId: string, speaking: number): void {
    this.emit('speaking', channelId, userId, speaking);
  }

  /** A call by its channel id (a lobby's id for a lobby's call). */
  get(channelId: string): VoiceCall | undefined {
    return this.#calls.get(channelId);
  }

  /**
   * The call a voice Identify or Resume names: by `server_id` and the user. A lobby's call is keyed by its
   * server id; in a guild, the user's one voice channel.
   */
  forServer(serverId: string, userId: string): VoiceCall | undefined {
    const byChannel = this.#calls.get(serverId);
    if (byChannel && byChannel.guildId === null) return byChannel;
    for (const call of this.#calls.values()) {
      if (call.guildId === serverId && call.participants.has(userId)) return call;
    }
    return undefined;
  }

  /** The call of `server_id` that a main gateway session is in (what a voice Resume names). */
  forServerSession(serverId: string, sessionId: string): VoiceCall | undefined {
    for (const call of this.#calls.values()) {
      if (call.serverId !== serverId) continue;
      for (const participant of call.participants.values()) {
        if (participant.sessionId === sessionId) return call;
      }
    }
    return undefined;
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
    channelId: string,
    userId: string,
    sessionId: string,
    flags: { selfMute: boolean; selfDeaf: boolean },
    flavour: JoinFlavour,
    options: { guildId?: string; limit?: number } = {},
  ): JoinResult {
    let call = this.#calls.get(channelId);
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
    } else if (call && call.participants.size >= (options.limit ?? MAX_CALL_PARTICIPANTS)) {
      return { ok: false, reason: 'full' };
    }
    if (!call) {
      call = new VoiceCall(channelId, options.guildId ?? null);
      this.#calls.set(channelId, call);
    }
    const participant: CallParticipant = {
      userId,
      sessionId,
      flavour,
      selfMute: flags.selfMute,
      selfDeaf: flags.selfDeaf,
      token: randomToken(24),
      rules: { silenced: false, deafened: false },
      joinedAt: this.#now(),
    };
    call.participants.set(userId, participant);
    this.emit('joined', call, participant);
    return { ok: true, participant, fresh: true };
  }

  /** Sets a participant's voice rules; `changed` follows when they differ. */
  setRules(channelId: string, userId: string, rules: VoiceRules): void {
    const call = this.#calls.get(channelId);
    const participant = call?.participants.get(userId);
    if (!call || !participant) return;
    if (participant.rules.silenced === rules.silenced && participant.rules.deafened === rules.deafened)
      return;
    participant.rules = { ...rules };
    this.emit('changed', call, participant);
  }

  /** Gives a participant a new token (their old voice session is refused from now on); `renewed` follows. */
  renew(channelId: string, userId: string): void {
    const call = this.#calls.get(channelId);
    const participant = call?.participants.get(userId);
    if (!call || !participant) return;
    participant.token = randomToken(24);
    this.emit('renewed', call, participant);
  }

  /** Removes a participant; returns whether they were in the call. Ends the call when it empties. */
  leave(channelId: string, userId: string, reason: LeaveReason): boolean {
    const call = this.#calls.get(channelId);
    const participant = call?.participants.get(userId);
    if (!call || !participant) return false;
    call.participants.delete(userId);
    this.emit('left', call, participant, reason);
    if (call.participants.size === 0) {
      this.#calls.delete(channelId);
      this.emit('ended', call);
    }
    return true;
  }

  /** Removes everyone (the lobby or channel is gone, or the emulator stops). */
  end(channelId: string): void {
    const call = this.#calls.get(channelId);
    if (!call) return;
    for (const userId of [...call.participants.keys()]) this.leave(channelId, userId, 'ended');
  }
}
