import { GatewayClose, GatewayOpcode } from '@sdkpp/protocol';
import type { GatewayConnection } from '../gateway/GatewayConnection.js';
import type { GatewayHub } from '../gateway/GatewayHub.js';
import type { GatewaySession } from '../gateway/GatewaySession.js';
import type { EmulatorLog } from '../log.js';
import type { CallParticipant, JoinFlavour, VoiceCall, VoiceCalls } from '../voice/VoiceCalls.js';
import type { GuildVoiceJoins } from './guildVoiceJoins.js';
import { MAX_CALL_PARTICIPANTS } from '../voice/VoiceCalls.js';
import type { Lobbies } from './Lobbies.js';

/** What {@link wireVoiceStates} connects. */
export interface VoiceStatesDeps {
  hub: GatewayHub;
  lobbies: Lobbies;
  calls: VoiceCalls;
  log: EmulatorLog;
  /** The voice server's `host:port`, sent as `endpoint`. */
  endpoint: () => string;
  /** Op 4 for a guild (not a lobby) goes here: guild voice channels. */
  guildVoice: GuildVoiceJoins;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A participant's voice state. `lobby_id` and `channel_id` carry the lobby; the op 4 flavour adds
 * `guild_id` (the lobby id too, contract). `channel_id` is null on leave.
 */
export function voiceStateWire(
  lobbyId: string,
  participant: CallParticipant,
  options: { left?: boolean; flavour?: JoinFlavour } = {},
): Record<string, unknown> {
  return {
    ...(options.flavour === 'guild' ? { guild_id: lobbyId } : {}),
    lobby_id: lobbyId,
    channel_id: options.left === true ? null : lobbyId,
    user_id: participant.userId,
    session_id: participant.sessionId,
    self_mute: participant.selfMute,
    self_deaf: participant.selfDeaf,
    mute: false,
    deaf: false,
    self_video: false,
    self_stream: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

/**
 * The main gateway's side of lobby calls (contract "Main gateway"): op 17 (the array of lobby calls a
 * session wants) and op 4 (`guild_id` = `channel_id` = lobby id, bot style) join, update and leave calls;
 * every change is a (LOBBY_)VOICE_STATE_UPDATE to the lobby's connected members, and a join is a
 * (LOBBY_)VOICE_SERVER_UPDATE to the joining session only. Sessions of the application's bot, and sessions
 * that joined with op 4, get the `VOICE_*` names; the others the `LOBBY_VOICE_*` ones. A session that ends
 * (after its resume window) leaves its calls; leaving a lobby, or its deletion, leaves or ends the call.
 * Refusals (not a member, a full call, a bad payload) dispatch nothing and are logged.
 */
export function wireVoiceStates(deps: VoiceStatesDeps): void {
  const { hub, lobbies, calls, log } = deps;

  /** Sessions that should hear about a lobby's call: its members' sessions and the participants' own. */
  const listeners = (call: VoiceCall | undefined, lobbyId: string): GatewaySession[] => {
    const ids = new Set<string>();
    for (const member of lobbies.get(lobbyId)?.members ?? []) {
      for (const info of hub.list(member.userId)) ids.add(info.sessionId);
    }
    for (const participant of call?.participants.values() ?? []) ids.add(participant.sessionId);
    return [...ids].flatMap((id) => {
      const session = hub.session(id);
      return session ? [session] : [];
    });
  };

  const flavourOf = (session: GatewaySession, call: VoiceCall | undefined): JoinFlavour => {
    if (session.kind === 'bot') return 'guild';
    for (const participant of call?.participants.values() ?? []) {
      if (participant.sessionId === session.id) return participant.flavour;
    }
    return 'lobby';
  };

  const broadcast = (lobbyId: string, participant: CallParticipant, left: boolean): void => {
    const call = calls.get(lobbyId);
    const targets = listeners(call, lobbyId);
    // The participant's own session hears it even once it is out of the call.
    const own = hub.session(participant.sessionId);
    if (own && !targets.includes(own)) targets.push(own);
    for (const session of targets) {
      const flavour = session.id === participant.sessionId ? participant.flavour : flavourOf(session, call);
      const event = flavour === 'guild' ? 'VOICE_STATE_UPDATE' : 'LOBBY_VOICE_STATE_UPDATE';
      hub.dispatchTo(session, event, voiceStateWire(lobbyId, participant, { left, flavour }));
    }
  };

  /** The voice server update of a join (or a new token): to the joining session only. */
  const serverUpdate = (call: VoiceCall, participant: CallParticipant): void => {
    const session = hub.session(participant.sessionId);
    if (!session) return;
    const endpoint = deps.endpoint();
    if (participant.flavour === 'guild') {
      hub.dispatchTo(session, 'VOICE_SERVER_UPDATE', {
        token: participant.token,
        guild_id: call.serverId,
        endpoint,
      });
    } else {
      hub.dispatchTo(session, 'LOBBY_VOICE_SERVER_UPDATE', {
        token: participant.token,
        lobby_id: call.channelId,
        endpoint,
      });
    }
  };

  // A guild voice channel's voice states are the guild's (GuildVoice, VOICE_STATE_UPDATE to the guild's
  // sessions); only lobby calls are broadcast from here.
  calls.on('joined', (call, participant) => {
    if (call.guildId === null) broadcast(call.channelId, participant, false);
    serverUpdate(call, participant);
    log.line(
      'voice',
      `user ${participant.userId} joined the call of ${call.label} (${call.participants.size} in it)`,
    );
  });
  calls.on('renewed', serverUpdate);
  calls.on('changed', (call, participant) => {
    if (call.guildId === null) broadcast(call.channelId, participant, false);
  });
  calls.on('left', (call, participant, reason) => {
    if (call.guildId === null) broadcast(call.channelId, participant, true);
    log.line('voice', `user ${participant.userId} left the call of ${call.label} (${reason})`);
  });

  lobbies.setVoiceStateSource((lobbyId) => {
    const call = calls.get(lobbyId);
    return call ? [...call.participants.values()].map((p) => voiceStateWire(lobbyId, p)) : [];
  });
  lobbies.on('memberRemoved', (lobby, userId) => {
    const participant = calls.get(lobby.id)?.participants.get(userId);
    // The application's bot is no member; it stays until it leaves itself.
    if (participant && hub.session(participant.sessionId)?.kind !== 'bot') {
      calls.leave(lobby.id, userId, 'membership');
    }
  });
  lobbies.on('deleted', (lobby) => {
    calls.end(lobby.id);
  });
  hub.on('sessionEnded', (session) => {
    for (const { call, participant } of calls.ofSession(session.id)) {
      calls.leave(call.channelId, participant.userId, 'session');
    }
  });

  /** Joins one lobby call; false (logged) when refused. */
  const join = (
    session: GatewaySession,
    lobbyId: string,
    flags: { selfMute: boolean; selfDeaf: boolean },
    flavour: JoinFlavour,
  ): boolean => {
    const lobby = lobbies.get(lobbyId);
    if (!lobby) {
      log.line('voice', `user ${session.userId} refused: no lobby ${lobbyId}`);
      return false;
    }
    // Emulator-defined: the application's bot (its game backend) may join any of its lobbies' calls.
    if (session.kind !== 'bot' && !lobbies.isMember(lobbyId, session.userId)) {
      log.line('voice', `user ${session.userId} refused: not a member of lobby ${lobbyId}`);
      return false;
    }
    const result = calls.join(lobbyId, session.userId, session.id, flags, flavour);
    if (!result.ok) {
      log.line(
        'voice',
        `user ${session.userId} refused: the call of lobby ${lobbyId} is full (${MAX_CALL_PARTICIPANTS} participants)`,
      );
      return false;
    }
    return true;
  };

  const refuse = (connection: GatewayConnection, what: string): void => {
    log.line('voice', `bad payload: ${what}`);
    connection.close(GatewayClose.DecodeError, `Invalid payload: ${what}`);
  };

  const flagsOf = (entry: Record<string, unknown>): { selfMute: boolean; selfDeaf: boolean } => ({
    selfMute: entry.self_mute === true,
    selfDeaf: entry.self_deaf === true,
  });

  hub.onOp(GatewayOpcode.LobbyVoiceStates, (session, data, connection) => {
    if (!Array.isArray(data)) {
      refuse(connection, 'op 17 needs an array of {lobby_id, self_mute, self_deaf}');
      return;
    }
    const wanted = new Map<string, Record<string, unknown>>();
    for (const entry of data) {
      if (!isObject(entry) || typeof entry.lobby_id !== 'string' || !/^[0-9]{1,20}$/.test(entry.lobby_id)) {
        refuse(connection, 'op 17 entries need a lobby_id snowflake');
        return;
      }
      wanted.set(entry.lobby_id, entry);
    }
    for (const { call, participant } of calls.ofSession(session.id)) {
      if (participant.flavour === 'lobby' && !wanted.has(call.channelId)) {
        calls.leave(call.channelId, participant.userId, 'left');
      }
    }
    for (const [lobbyId, entry] of wanted) join(session, lobbyId, flagsOf(entry), 'lobby');
  });

  hub.onOp(GatewayOpcode.VoiceStateUpdate, (session, data, connection) => {
    if (!isObject(data)) {
      refuse(connection, 'op 4 needs {guild_id, channel_id, self_mute, self_deaf}');
      return;
    }
    const { guild_id: guildId, channel_id: channelId } = data;
    if (typeof guildId !== 'string' || !(channelId === null || typeof channelId === 'string')) {
      refuse(connection, 'op 4 needs a guild_id string and a channel_id string or null');
      return;
    }
    if (!lobbies.get(guildId) && calls.get(guildId)?.guildId !== null) {
      // Not a lobby (nor the call of one just deleted): a guild's voice channels.
      deps.guildVoice.fromGateway(session, guildId, channelId, flagsOf(data));
      return;
    }
    if (channelId === null) {
      const participant = calls.get(guildId)?.participants.get(session.userId);
      if (participant?.sessionId === session.id) calls.leave(guildId, session.userId, 'left');
      return;
    }
    if (channelId !== guildId) {
      log.line('voice', `op 4 refused: channel_id must equal guild_id (the lobby id) for a lobby call`);
      return;
    }
    join(session, guildId, flagsOf(data), 'guild');
  });
}
