// What the page receives over its event stream (`state` events) and from `/dashboard/api/state`: plain data
// with no imports, so that the browser script (browser/app.ts), which is type-checked against the DOM and not
// Node, can read the same declarations as the server that builds them (state.ts).

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
  /** The latest messages, oldest first (at most state.ts's `LOBBY_MESSAGES_SHOWN`). */
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

/** A lobby call. */
export interface DashboardCall {
  /** The call's channel: the lobby's id, or the guild voice channel's. */
  channelId: string;
  /** The guild of a voice channel's call; null for a lobby's. */
  guildId: string | null;
  /** 1 with DAVE, 0 without, null before anyone's Session Description. */
  daveProtocolVersion: number | null;
  /** The MLS epoch the server's proposals target, as a decimal string, or null without DAVE. */
  daveEpoch: string | null;
  /** Always null: see state.ts's `PRIVACY_CODE_NOTE`. */
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

/** A guild as the bot sees it. */
export interface DashboardBotGuild {
  /** The guild id. */
  id: string;
  /** Its name. */
  name: string;
  /** Whether the application's bot is a member. */
  botIn: boolean;
  /** Its channels, by position; `botCanView` false for those the bot cannot view (obfuscated for it). */
  channels: { id: string; name: string; type: number; botCanView: boolean }[];
}

/** The bot side of the application: guilds, commands, interactions and webhook deliveries. */
export interface DashboardBot {
  /** Every guild. */
  guilds: DashboardBotGuild[];
  /** The application's commands. */
  commands: {
    id: string;
    name: string;
    type: number;
    guildId: string | null;
    description: string;
    options: { name: string; type: number; required: boolean }[];
  }[];
  /** The latest interactions, newest first (no tokens). */
  interactions: {
    id: string;
    type: number;
    name: string;
    userId: string;
    delivery: string;
    responseType: number | null;
    modalOpen: boolean;
  }[];
  /** The latest webhook event deliveries, newest first. */
  deliveries: {
    id: number;
    eventType: string;
    state: string;
    attempts: number;
    status: number | null;
    error: string | null;
  }[];
}

/** The Activity: the proxy, its URL mappings and the live instances (launch links are secrets: not here). */
export interface DashboardActivities {
  /** The proxy's origin. */
  url: string;
  /** The URL mappings. */
  mappings: { prefix: string; target: string }[];
  /** The live instances. */
  instances: { id: string; channelId: string | null; participants: string[]; consoleLines: number }[];
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
  /** The bot side. */
  bot: DashboardBot;
  /** The Activity. */
  activity: DashboardActivities;
  /** What the emulated desktop client did: DM notifications and what it opened for games. */
  desktopClient: DashboardDesktopClient;
}

/** The emulated desktop client's latest notifications and openings, oldest first. */
export interface DashboardDesktopClient {
  notifications: {
    /** Unix ms. */
    at: number;
    authorId: string;
    body: string;
    /** False when held back because a game on this machine showed chat. */
    shown: boolean;
  }[];
  opened: {
    /** Unix ms. */
    at: number;
    kind: 'message' | 'connectedGamesSettings';
    messageId: string | null;
  }[];
}
