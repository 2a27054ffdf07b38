import { shortId } from '../log.js';
import type { UserRecord } from '../store/types.js';
import type { Emulator, EmulatorVoiceCall } from '../types.js';

/** An activity as the dashboard shows it: what friends see, never the join or spectate secrets. */
export interface DashboardActivity {
  /** The activity type (0 playing, 2 listening, …), or null when absent. */
  type: number | null;
  /** The game or activity name. */
  name: string | null;
  /** The first line under the name. */
  details: string | null;
  /** The second line (party status). */
  state: string | null;
  /** Party size and capacity, when the activity has a party. */
  party: { size: number | null; max: number | null } | null;
}

/** A user with presence and relationships. */
export interface DashboardUser {
  /** The user's id. */
  id: string;
  /** The unique username. */
  username: string;
  /** The display name, or null. */
  globalName: string | null;
  /** A provisional account (made for an external identity). */
  provisional: boolean;
  /** Banned: cannot sign in. */
  banned: boolean;
  /** The status friends see. */
  status: string;
  /** Activities as friends see them. */
  activities: DashboardActivity[];
  /** Gateway sessions with a socket attached. */
  connectedSessions: number;
  /** Platform friends (user ids). */
  friends: string[];
  /** Platform friend requests received (user ids). */
  incoming: string[];
  /** Platform friend requests sent (user ids). */
  outgoing: string[];
  /** Users this user blocked. */
  blocked: string[];
  /** Game friends of this application. */
  gameFriends: string[];
  /** Game friend requests received. */
  gameIncoming: string[];
  /** Game friend requests sent. */
  gameOutgoing: string[];
}

/** A lobby with its members and latest messages. */
export interface DashboardLobby {
  /** The lobby's id. */
  id: string;
  /** `sdk` or `bot`. */
  createdBy: string;
  /** Lobby metadata. */
  metadata: Record<string, string>;
  /** The linked guild channel, or null. */
  linkedChannelId: string | null;
  /** Members in join order. */
  members: {
    /** The member's user id. */
    id: string;
    /** Member metadata. */
    metadata: Record<string, string>;
    /** Whether the member has a connected gateway session. */
    connected: boolean;
    /** The name the game backend gave the member, or null. */
    additionalName: string | null;
  }[];
  /** The latest messages, oldest first (at most {@link LOBBY_MESSAGES_SHOWN}). */
  messages: {
    /** The message's id. */
    id: string;
    /** The sender's user id. */
    authorId: string;
    /** The text. */
    content: string;
    /** The sender's additional name when sent, or null. */
    additionalName: string | null;
    /** Unix ms by the emulator's clock. */
    time: number;
  }[];
}

/** A call participant as the voice server sees them. */
export interface DashboardParticipant {
  /** The participant's user id. */
  userId: string;
  /** Muted by themselves. */
  selfMute: boolean;
  /** Deafened by themselves. */
  selfDeaf: boolean;
  /** Whether a voice socket is attached. */
  connected: boolean;
  /** The RTP SSRC, or null before voice Identify. */
  ssrc: number | null;
  /** The last speaking flags (0 silent), or 0 before voice Identify. */
  speaking: number;
  /** The transport encryption mode, or null. */
  mode: string | null;
  /** RTP packets accepted from the participant. */
  packetsFromClient: number;
  /** RTP packets sent to the participant. */
  packetsToClient: number;
}

/**
 * Why the dashboard shows no privacy code: the code is derived from the MLS epoch authenticator, a secret of
 * the group's members. The emulator's DAVE coordinator is only the group's external sender; computing the code
 * would need the group's secrets and break the end-to-end property.
 */
export const PRIVACY_CODE_NOTE =
  'Known only to the call members: the privacy code comes from the MLS epoch authenticator, which the ' +
  'server (an external sender, not a group member) never learns. Compare it in the clients.';

/** A lobby call. */
export interface DashboardCall {
  /** The lobby whose call it is. */
  lobbyId: string;
  /** 1 with DAVE, 0 without, null before anyone's Session Description. */
  daveProtocolVersion: number | null;
  /** The MLS epoch the server's proposals target, as a decimal string, or null without DAVE. */
  daveEpoch: string | null;
  /** Always null: see {@link PRIVACY_CODE_NOTE}. */
  privacyCode: null;
  /** What the server knows about the privacy code. */
  privacyCodeNote: string;
  /** Participants in join order. */
  participants: DashboardParticipant[];
  /** Packets the forwarding unit received and forwarded for this call. */
  packetsIn: number;
  /** Packet copies sent to receivers. */
  packetsForwarded: number;
}

/** A gateway session. */
export interface DashboardSession {
  /** The session id, shortened (the first four characters). */
  id: string;
  /** Its user. */
  userId: string;
  /** The last sequence number dispatched. */
  seq: number;
  /** Whether a socket is attached. */
  connected: boolean;
}

/** Everything the dashboard shows, as JSON: no tokens, secrets or join secrets. */
export interface DashboardState {
  /** Where the emulator listens. */
  emulator: {
    /** The HTTP origin. */
    http: string;
    /** The gateway URL. */
    gateway: string;
    /** The voice gateway's `host:port`. */
    voice: string;
    /** The application id. */
    applicationId: string;
  };
  /** Every user but the application's bot, oldest first. */
  users: DashboardUser[];
  /** Every lobby, oldest first. */
  lobbies: DashboardLobby[];
  /** Every call. */
  calls: DashboardCall[];
  /** Every gateway session, connected or waiting for a resume. */
  sessions: DashboardSession[];
}

/** How many of a lobby's latest messages the dashboard shows. */
export const LOBBY_MESSAGES_SHOWN = 20;

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The shown part of a stored activity; `secrets` and anything unknown are left out on purpose. */
function visibleActivity(activity: Record<string, unknown>): DashboardActivity {
  const party = activity.party;
  let shownParty: DashboardActivity['party'] = null;
  if (typeof party === 'object' && party !== null) {
    const size = (party as { size?: unknown }).size;
    shownParty = Array.isArray(size)
      ? { size: count(size[0]), max: count(size[1]) }
      : { size: null, max: null };
  }
  return {
    type: count(activity.type),
    name: text(activity.name),
    details: text(activity.details),
    state: text(activity.state),
    party: shownParty,
  };
}

function idsOf(list: { id: string; type: number }[], type: number): string[] {
  return list.filter((r) => r.type === type).map((r) => r.id);
}

function userView(emulator: Emulator, user: UserRecord, connected: Map<string, number>): DashboardUser {
  const presence = emulator.presenceOf(user.id);
  const { discord, game } = emulator.relationshipsOf(user.id);
  return {
    id: user.id,
    username: user.username,
    globalName: user.globalName,
    provisional: user.provisional,
    banned: user.banned,
    status: presence.status,
    activities: presence.activities.map(visibleActivity),
    connectedSessions: connected.get(user.id) ?? 0,
    friends: idsOf(discord, 1),
    incoming: idsOf(discord, 3),
    outgoing: idsOf(discord, 4),
    blocked: idsOf(discord, 2),
    gameFriends: idsOf(game, 1),
    gameIncoming: idsOf(game, 3),
    gameOutgoing: idsOf(game, 4),
  };
}

function callView(call: EmulatorVoiceCall): DashboardCall {
  return {
    lobbyId: call.lobbyId,
    daveProtocolVersion: call.daveProtocolVersion,
    daveEpoch: call.daveEpoch === null ? null : call.daveEpoch.toString(),
    privacyCode: null,
    privacyCodeNote: PRIVACY_CODE_NOTE,
    participants: call.participants.map((p) => ({
      userId: p.userId,
      selfMute: p.selfMute,
      selfDeaf: p.selfDeaf,
      connected: p.voice?.connected ?? false,
      ssrc: p.voice?.ssrc ?? null,
      speaking: p.voice?.speaking ?? 0,
      mode: p.voice?.mode ?? null,
      packetsFromClient: p.voice?.packetsFromClient ?? 0,
      packetsToClient: p.voice?.packetsToClient ?? 0,
    })),
    packetsIn: call.counters.packetsIn,
    packetsForwarded: call.counters.packetsForwarded,
  };
}

/**
 * The dashboard's view of a running emulator, built from its public test API. Each field is chosen, never
 * copied wholesale, so a secret added to a record later cannot leak into the page.
 */
export function dashboardState(emulator: Emulator, users: readonly UserRecord[]): DashboardState {
  const sessions = emulator.gatewaySessions();
  const connected = new Map<string, number>();
  for (const s of sessions) if (s.connected) connected.set(s.userId, (connected.get(s.userId) ?? 0) + 1);
  return {
    emulator: {
      http: emulator.http,
      gateway: emulator.gateway,
      voice: emulator.voice.endpoint,
      applicationId: emulator.applicationId,
    },
    users: users.map((user) => userView(emulator, user, connected)),
    lobbies: emulator.lobbies().map((lobby) => ({
      id: lobby.id,
      createdBy: lobby.createdBy,
      metadata: lobby.metadata,
      linkedChannelId: lobby.linkedChannelId,
      members: lobby.members.map((m) => ({
        id: m.id,
        metadata: m.metadata,
        connected: m.connected,
        additionalName: m.additionalName,
      })),
      messages: emulator
        .lobbyMessages(lobby.id)
        .slice(0, LOBBY_MESSAGES_SHOWN)
        .reverse()
        .map((m) => ({
          id: m.id,
          authorId: m.authorId,
          content: m.content,
          additionalName: m.additionalName,
          time: m.timestamp,
        })),
    })),
    calls: emulator.voice.calls().map(callView),
    sessions: sessions.map((s) => ({
      id: shortId(s.sessionId),
      userId: s.userId,
      seq: s.seq,
      connected: s.connected,
    })),
  };
}
