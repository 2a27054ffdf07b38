import type { EmulatorLog } from '../log.js';
import { Permission, hasAll } from '../platform/permissions.js';
import type { CallParticipant, VoiceCalls, VoiceRules } from '../voice/VoiceCalls.js';
import { ChannelKind, type Guilds } from './Guilds.js';

/**
 * The most participants a guild voice channel's call holds: the channel's `user_limit` (≤ 99) is the rule
 * users meet; this bounds a channel without one (and MOVE_MEMBERS past a limit).
 */
export const MAX_GUILD_CALL_PARTICIPANTS = 1000;

/** Why a join was refused. */
export type GuildVoiceRefusal =
  'unknown_guild' | 'not_member' | 'unknown_channel' | 'not_voice' | 'missing_connect' | 'full';

/** A join's outcome: the participant, or why not (also logged). */
export type GuildVoiceJoin =
  | { ok: true; participant: CallParticipant | null }
  | { ok: false; reason: GuildVoiceRefusal; message: string };

/** What {@link GuildVoiceJoins} connects. */
export interface GuildVoiceJoinsDeps {
  guilds: Guilds;
  calls: VoiceCalls;
  log: EmulatorLog;
}

/**
 * Guild voice channels with media: who may join (VIEW_CHANNEL and CONNECT; the channel's user limit, which
 * MOVE_MEMBERS passes), moving between channels, and the rules on a participant's audio (server mute and
 * no SPEAK silence them, server deafen deafens them). A join puts the user in the guild's voice states
 * ({@link Guilds.voice}, whose changes are VOICE_STATE_UPDATE to the guild's sessions) and in the channel's
 * call ({@link VoiceCalls}, whose join is the VOICE_SERVER_UPDATE to the joining session). Op 4 of a bot or
 * user session and the admin hooks' chat-app users come through here alike.
 */
export class GuildVoiceJoins {
  readonly #d: GuildVoiceJoinsDeps;
  /** Each voice channel's region as last seen, to tell a region change from another channel update. */
  readonly #regions = new Map<string, string | null>();

  constructor(deps: GuildVoiceJoinsDeps) {
    this.#d = deps;
    const { calls, guilds } = deps;
    // A call left for a reason of its own (the session ended, a kick, the channel's end) takes the voice
    // state with it; a move or a takeover by another session keeps it.
    calls.on('left', (call, participant, reason) => {
      if (call.guildId === null || reason === 'moved' || reason === 'replaced') return;
      if (guilds.voice.state(call.guildId, participant.userId)?.channelId === call.channelId) {
        guilds.voice.set(call.guildId, participant.userId, null);
      }
    });
    guilds.on('memberRemoved', (guildId, userId) => {
      this.leave(guildId, userId);
    });
    guilds.on('channelDeleted', (channel) => {
      if (channel.type !== ChannelKind.VOICE) return;
      this.#regions.delete(channel.id);
      calls.end(channel.id);
      for (const state of guilds.voice.statesOf(channel.guildId)) {
        if (state.channelId === channel.id) guilds.voice.set(channel.guildId, state.userId, null);
      }
    });
    guilds.on('channelUpdated', (channel) => {
      if (channel.type !== ChannelKind.VOICE) return;
      const region = channel.rtcRegion ?? null;
      const was = this.#regions.get(channel.id);
      this.#regions.set(channel.id, region);
      if (was !== undefined && was !== region) this.renewServer(channel.id);
      this.refresh(channel.guildId);
    });
    guilds.on('memberUpdated', (guildId) => {
      this.refresh(guildId);
    });
    guilds.on('roleUpdated', (guildId) => {
      this.refresh(guildId);
    });
    guilds.on('roleDeleted', (guildId) => {
      this.refresh(guildId);
    });
  }

  /** Op 4 for a guild from a main gateway session: join, move, change flags, or leave (`channelId` null). */
  fromGateway(
    session: { userId: string; id: string },
    guildId: string,
    channelId: string | null,
    flags: { selfMute: boolean; selfDeaf: boolean },
  ): void {
    if (channelId === null) {
      this.leaveSession(guildId, session.userId, session.id);
      return;
    }
    this.join(guildId, channelId, session.userId, session.id, flags);
  }

  /**
   * Puts `userId` in a voice channel of the guild with the main gateway session `sessionId` (a user already
   * in another of the guild's channels moves; in the same one, only the flags change).
   */
  join(
    guildId: string,
    channelId: string,
    userId: string,
    sessionId: string,
    flags: { selfMute: boolean; selfDeaf: boolean },
    options: { moved?: boolean } = {},
  ): GuildVoiceJoin {
    const { guilds, calls } = this.#d;
    const refused = this.#check(guildId, channelId, userId, options.moved === true);
    if (refused) return refused;
    const member = guilds.member(guildId, userId);
    const before = guilds.voice.state(guildId, userId);
    if (!this.#regions.has(channelId))
      this.#regions.set(channelId, guilds.channel(channelId)?.rtcRegion ?? null);
    guilds.voice.set(guildId, userId, channelId, {
      ...flags,
      mute: member?.mute ?? false,
      deaf: member?.deaf ?? false,
      sessionId,
    });
    const result = calls.join(channelId, userId, sessionId, flags, 'guild', {
      guildId,
      limit: MAX_GUILD_CALL_PARTICIPANTS,
    });
    if (!result.ok) {
      // Only the bound above refuses here; the user limit was checked with the voice states.
      guilds.voice.set(guildId, userId, before?.channelId ?? null);
      return this.#refuse(userId, 'full', `channel ${channelId} holds ${MAX_GUILD_CALL_PARTICIPANTS}`);
    }
    if (before && before.channelId !== channelId) calls.leave(before.channelId, userId, 'moved');
    calls.setRules(channelId, userId, this.#rules(channelId, userId));
    return { ok: true, participant: result.participant };
  }

  /**
   * Moves a user who is in voice to another of the guild's channels (`null`: disconnects them), as Modify
   * Guild Member's `channel_id` does; returns null when they are not in voice. Their own session gets a new
   * voice server, as on the platform. The mover's permissions (MOVE_MEMBERS, CONNECT there) are the
   * caller's to check: a moved user needs neither CONNECT nor room under the user limit.
   */
  move(guildId: string, userId: string, channelId: string | null): GuildVoiceJoin | null {
    const state = this.#d.guilds.voice.state(guildId, userId);
    if (!state) return null;
    if (channelId === null) {
      this.leave(guildId, userId, 'kicked');
      return { ok: true, participant: null };
    }
    return this.join(
      guildId,
      channelId,
      userId,
      state.sessionId,
      { selfMute: state.selfMute, selfDeaf: state.selfDeaf },
      { moved: true },
    );
  }

  /** Takes a user out of the guild's voice if `sessionId` is still the session of their voice state. */
  leaveSession(guildId: string, userId: string, sessionId: string): void {
    if (this.#d.guilds.voice.state(guildId, userId)?.sessionId === sessionId) this.leave(guildId, userId);
  }

  /** Takes a user out of the guild's voice (their call, and their voice state). */
  leave(guildId: string, userId: string, reason: 'left' | 'kicked' = 'left'): void {
    const { guilds, calls } = this.#d;
    const state = guilds.voice.state(guildId, userId);
    if (!state) return;
    if (!calls.leave(state.channelId, userId, reason)) guilds.voice.set(guildId, userId, null);
  }

  /**
   * Gives everyone in a voice channel a new voice server (the channel's region changed): each session gets
   * a VOICE_SERVER_UPDATE with a new token and reconnects.
   */
  renewServer(channelId: string): void {
    const call = this.#d.calls.get(channelId);
    for (const userId of [...(call?.participants.keys() ?? [])]) this.#d.calls.renew(channelId, userId);
  }

  /** Applies the voice rules again to everyone in the guild's calls (after a permission or member change). */
  refresh(guildId: string): void {
    const { guilds, calls } = this.#d;
    for (const state of guilds.voice.statesOf(guildId)) {
      const member = guilds.member(guildId, state.userId);
      const mute = member?.mute ?? false;
      const deaf = member?.deaf ?? false;
      if (state.mute !== mute || state.deaf !== deaf) {
        guilds.voice.set(guildId, state.userId, state.channelId, { mute, deaf });
      }
      calls.setRules(state.channelId, state.userId, this.#rules(state.channelId, state.userId));
    }
  }

  #rules(channelId: string, userId: string): VoiceRules {
    const { guilds } = this.#d;
    const channel = guilds.channel(channelId);
    const member = channel ? guilds.member(channel.guildId, userId) : undefined;
    return {
      silenced: (member?.mute ?? false) || !hasAll(guilds.permissions(userId, channelId), Permission.SPEAK),
      deafened: member?.deaf ?? false,
    };
  }

  #check(guildId: string, channelId: string, userId: string, moved: boolean): GuildVoiceJoin | undefined {
    const { guilds } = this.#d;
    if (!guilds.guild(guildId)) return this.#refuse(userId, 'unknown_guild', `no guild ${guildId}`);
    if (!guilds.isMember(guildId, userId)) {
      return this.#refuse(userId, 'not_member', `not a member of guild ${guildId}`);
    }
    const channel = guilds.channel(channelId);
    if (channel?.guildId !== guildId) {
      return this.#refuse(userId, 'unknown_channel', `no channel ${channelId} in guild ${guildId}`);
    }
    if (channel.type !== ChannelKind.VOICE) {
      return this.#refuse(userId, 'not_voice', `channel ${channelId} is not a voice channel`);
    }
    if (moved) return undefined;
    const held = guilds.permissions(userId, channelId);
    if (!hasAll(held, Permission.VIEW_CHANNEL | Permission.CONNECT)) {
      return this.#refuse(userId, 'missing_connect', `no CONNECT in channel ${channelId}`);
    }
    const limit = channel.userLimit ?? 0;
    const inside = guilds.voice.statesOf(guildId).filter((s) => s.channelId === channelId);
    const already = inside.some((s) => s.userId === userId);
    if (!already && limit > 0 && inside.length >= limit && !hasAll(held, Permission.MOVE_MEMBERS)) {
      return this.#refuse(userId, 'full', `channel ${channelId} is full (user limit ${limit})`);
    }
    return undefined;
  }

  #refuse(userId: string, reason: GuildVoiceRefusal, message: string): GuildVoiceJoin {
    this.#d.log.line('voice', `user ${userId} refused a voice channel: ${message}`);
    return { ok: false, reason, message };
  }
}
