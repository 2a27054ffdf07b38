import { TypedEmitter } from '@sdkpp/protocol';
import type { EmulatorLog } from '../log.js';

/** Someone in a guild voice channel. */
export interface GuildVoiceState {
  guildId: string;
  channelId: string;
  userId: string;
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
  /** Server mute (Modify Guild Member `mute`): nobody hears them. */
  mute: boolean;
  /** Server deafen (Modify Guild Member `deaf`): they hear nobody. */
  deaf: boolean;
}

/** What {@link GuildVoice.set} may change besides the channel. */
export interface VoiceStateFlags {
  selfMute?: boolean;
  selfDeaf?: boolean;
  mute?: boolean;
  deaf?: boolean;
  /** The main gateway session that joined (op 4); a fresh id when none, as for the admin hook's users. */
  sessionId?: string;
}

/** A voice channel's ephemeral info (op 43's fields): not part of the channel object. */
export interface VoiceChannelInfo {
  /** The status text (≤ 500 characters), or null. */
  status: string | null;
  /** Unix seconds when the current voice session in the channel began, or null while nobody is in it. */
  voiceStartTime: number | null;
}

/** An audit log entry. */
export interface AuditEntry {
  id: string;
  guildId: string;
  /** 192 VOICE_CHANNEL_STATUS_UPDATE, 193 VOICE_CHANNEL_STATUS_DELETE, … */
  actionType: number;
  targetId: string;
  userId: string;
  options: Record<string, string>;
}

/** Audit log entries kept per guild: the oldest go first. */
export const MAX_AUDIT_ENTRIES = 1000;

/** Audit log action types the emulator writes (the document's two). */
export const AuditAction = { VOICE_CHANNEL_STATUS_UPDATE: 192, VOICE_CHANNEL_STATUS_DELETE: 193 } as const;

/** A voice state as announced: `channelId` null when the user left voice. */
export type VoiceStateChange = Omit<GuildVoiceState, 'channelId'> & { channelId: string | null };

/** Events of {@link GuildVoice}. */
export type GuildVoiceEvents = {
  /** A user joined, moved, changed mute, or left (`channelId` null). */
  voiceState: [state: VoiceStateChange];
  /** A voice channel's status changed. */
  status: [guildId: string, channelId: string, status: string | null];
  /** A voice channel's session started or ended. */
  startTime: [guildId: string, channelId: string, voiceStartTime: number | null];
};

/**
 * Who is in which guild voice channel, the channels' status and start time, and the guild audit log. Voice
 * states come from op 4 (a bot's or a user's gateway session) and from the admin hooks (a chat-app user
 * joining, with or without media); they are what the voice state endpoints, GUILD_CREATE and the
 * voice-status rule read. The media of a voice channel is a call of {@link VoiceCalls}, kept beside this.
 */
export class GuildVoice extends TypedEmitter<GuildVoiceEvents> {
  readonly #states = new Map<string, GuildVoiceState>();
  readonly #info = new Map<string, VoiceChannelInfo>();
  readonly #audit = new Map<string, AuditEntry[]>();
  readonly #now: () => number;
  readonly #nextId: () => string;
  readonly #log: EmulatorLog;

  constructor(deps: { now: () => number; nextId: () => string; log: EmulatorLog }) {
    super();
    this.#now = deps.now;
    this.#nextId = deps.nextId;
    this.#log = deps.log;
  }

  /** A user's voice state in a guild. */
  state(guildId: string, userId: string): GuildVoiceState | undefined {
    return this.#states.get(`${guildId}:${userId}`);
  }

  /** Every voice state of a guild. */
  statesOf(guildId: string): GuildVoiceState[] {
    return [...this.#states.values()].filter((s) => s.guildId === guildId);
  }

  /** Puts a user in a voice channel of the guild (`channelId` null: out of voice). */
  set(guildId: string, userId: string, channelId: string | null, flags: VoiceStateFlags = {}): void {
    const key = `${guildId}:${userId}`;
    const before = this.#states.get(key);
    if (channelId === null) {
      if (!before) return;
      this.#states.delete(key);
      this.emit('voiceState', { ...before, channelId: null });
      this.#settle(guildId, before.channelId);
      return;
    }
    const state: GuildVoiceState = {
      guildId,
      channelId,
      userId,
      sessionId: flags.sessionId ?? before?.sessionId ?? this.#nextId(),
      selfMute: flags.selfMute ?? before?.selfMute ?? false,
      selfDeaf: flags.selfDeaf ?? before?.selfDeaf ?? false,
      mute: flags.mute ?? before?.mute ?? false,
      deaf: flags.deaf ?? before?.deaf ?? false,
    };
    this.#states.set(key, state);
    this.emit('voiceState', state);
    if (before && before.channelId !== channelId) this.#settle(guildId, before.channelId);
    this.#settle(guildId, channelId);
  }

  /** A voice channel's info (status and start time). */
  info(channelId: string): VoiceChannelInfo {
    return this.#info.get(channelId) ?? { status: null, voiceStartTime: null };
  }

  /** Sets or clears (`null` or empty) a voice channel's status, with its audit log entry (192 or 193). */
  setStatus(guildId: string, channelId: string, status: string | null, byUserId: string): void {
    const value = status === null || status === '' ? null : status;
    this.#info.set(channelId, { ...this.info(channelId), status: value });
    this.audit(guildId, {
      actionType:
        value === null ? AuditAction.VOICE_CHANNEL_STATUS_DELETE : AuditAction.VOICE_CHANNEL_STATUS_UPDATE,
      targetId: channelId,
      userId: byUserId,
      options: value === null ? { channel_id: channelId } : { channel_id: channelId, status: value },
    });
    this.emit('status', guildId, channelId, value);
  }

  /** Adds an audit log entry, forgetting the guild's oldest past {@link MAX_AUDIT_ENTRIES}. */
  audit(guildId: string, entry: Omit<AuditEntry, 'id' | 'guildId'>): AuditEntry {
    const full: AuditEntry = { ...entry, id: this.#nextId(), guildId };
    const list = this.#audit.get(guildId) ?? [];
    list.push(full);
    if (list.length > MAX_AUDIT_ENTRIES) list.shift();
    this.#audit.set(guildId, list);
    this.#log.line('guilds', `audit log: action ${entry.actionType} on ${entry.targetId} by ${entry.userId}`);
    return full;
  }

  /** A guild's audit log, newest first. */
  auditLog(guildId: string): AuditEntry[] {
    return [...(this.#audit.get(guildId) ?? [])].reverse();
  }

  /** Starts or ends a channel's voice session as the first user arrives or the last leaves. */
  #settle(guildId: string, channelId: string): void {
    const occupied = [...this.#states.values()].some((s) => s.channelId === channelId);
    const info = this.info(channelId);
    if (occupied && info.voiceStartTime === null) {
      const start = Math.floor(this.#now() / 1000);
      this.#info.set(channelId, { ...info, voiceStartTime: start });
      this.emit('startTime', guildId, channelId, start);
    } else if (!occupied && info.voiceStartTime !== null) {
      this.#info.set(channelId, { ...info, voiceStartTime: null });
      this.emit('startTime', guildId, channelId, null);
    }
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#log.line(
      'guilds',
      `a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
