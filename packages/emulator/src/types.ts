/** Options of {@link startEmulator}. Every field is optional; the defaults give a ready-to-use world. */
export interface EmulatorOptions {
  /** TCP port for HTTP and the gateway. @defaultValue `0` (an ephemeral port) */
  port?: number;
  /**
   * A world saved by {@link Emulator.exportState} to start from: its application, users, relationships,
   * identities, messages, lobbies, guilds and tokens. Nothing is seeded then (`users` and `seedGuild` apply
   * to a new world only); `applicationId` and `botToken`, when given, must match the saved ones.
   * @throws RangeError from {@link startEmulator} when it is not a saved state this version reads, or a field
   *   of it is damaged (the message gives its path, e.g. `data.skus["…"].periodMs`); nothing is half loaded.
   */
  state?: EmulatorSavedState;
  /** Interface to listen on. @defaultValue `'127.0.0.1'` */
  host?: string;
  /**
   * Number of test users to seed: alice, bob, carol, dave, erin, frank, grace, heidi, then player9,
   * player10, …; each `global_name` is the capitalised username. @defaultValue `2`
   */
  users?: number;
  /**
   * `GET /oauth2/authorize` redirects at once, as the user named by `login_hint` (username or id; the first
   * user when absent), instead of showing the consent page. `prompt=consent` still shows the page.
   * @defaultValue `false`
   */
  autoConsent?: boolean;
  /** The application's id (a snowflake). @defaultValue a snowflake made at start */
  applicationId?: string;
  /** The application's name, shown on the consent page and in READY. @defaultValue `'sdkpp Demo Game'` */
  applicationName?: string;
  /** The bot token (`Authorization: Bot <token>`). @defaultValue random */
  botToken?: string;
  /** The client secret for confidential-client flows. @defaultValue random */
  clientSecret?: string;
  /**
   * The application's webhook events URL: events (APPLICATION_AUTHORIZED, APPLICATION_DEAUTHORIZED) are POSTed
   * there, signed with the key in {@link EmulatorInfo.applicationPublicKey}. @defaultValue none (no events sent)
   */
  webhookEventsUrl?: string;
  /**
   * The application's interactions endpoint URL: interactions are then POSTed there, signed as the platform
   * signs them, and the answer is the callback, instead of arriving as INTERACTION_CREATE on the bot's
   * gateway. {@link Emulator.setInteractionsEndpointUrl} checks an endpoint as the developer portal does.
   * Given with {@link EmulatorOptions.state}, it replaces the URL the saved state kept.
   * @defaultValue the saved state's, else none (interactions go over the gateway)
   */
  interactionsEndpointUrl?: string;
  /**
   * The Activity's URL mappings, as the developer portal's URL Mappings page holds them: `{ prefix: '/', target:
   * 'http://127.0.0.1:5173' }` for the game's own server, and more for its APIs (`{ prefix: '/api', … }`).
   * Requests to {@link Emulator.activityUrl} go through them. @defaultValue none
   */
  activityUrlMappings?: EmulatorUrlMapping[];
  /**
   * The platform's Content Security Policy on the game's documents (every HTML answer of the Activity proxy):
   * the frame may reach its own proxy origin only, so a request that production would block fails here too,
   * and the host page logs it with the URL mapping that would allow it. `false` turns it off for debugging
   * (CLI `--no-activity-csp`). @defaultValue `true`
   */
  activityContentSecurityPolicy?: boolean;
  /** Extra custom URI schemes whose `<scheme>:/authorize/callback` is a registered redirect URI. */
  customSchemes?: string[];
  /**
   * Publisher-level account linking: other applications the emulator knows. An entry with `child` true (the
   * default) is a child of the served application, which is then the publisher (parent): `POST
   * /partner-sdk/child-token` exchanges the served application's tokens for tokens of the child. An entry
   * with `child: false` belongs to another publisher, so exchanging for it is refused (403 50001). `scopes`
   * are what the child accepts (default `openid sdk.social_layer sdk.social_layer_presence`): a child token
   * carries the parent token's scopes narrowed to them. Not kept in a saved state. @defaultValue none
   */
  publisherApplications?: { id: string; name?: string; child?: boolean; scopes?: string[] }[];
  /**
   * The application's OpenID Connect identity providers (the portal's identity provider settings). With at
   * least one, a provisional account's `OIDC` token must be an ID token of one of them: the emulator fetches
   * `<issuer>/.well-known/openid-configuration` and its JWKS without following HTTP redirects, verifies the
   * RS256 or ES256 signature, `iss`, `aud` (when `audience` is given), `exp` and `nbf`. Issuers (and the JWKS
   * URI discovery names) must pass the stricter hostname rules: https, a DNS name of two or more labels, no IP
   * literal, no localhost (see {@link EmulatorOptions.allowLoopbackOidcIssuers}). Refused at start-up, as the
   * portal refuses an edit. @defaultValue none: OIDC tokens are decoded without verification, as before
   */
  oidcProviders?: { issuer: string; audience?: string }[];
  /**
   * Allows OIDC issuers and JWKS URIs on the loopback hosts `127.0.0.1`, `[::1]` and `localhost`, over http
   * too: for tests and a local identity server. Other IP literals stay refused. @defaultValue false
   */
  allowLoopbackOidcIssuers?: boolean;
  /**
   * The privileged gateway intents enabled for the bot, as the developer portal's toggles do: `members`
   * (GUILD_MEMBERS), `presences` (GUILD_PRESENCES), `message_content` (MESSAGE_CONTENT). A bot that asks for one
   * that is not enabled is closed with 4014. @defaultValue none, as on the platform
   */
  privilegedIntents?: ('members' | 'presences' | 'message_content')[];
  /**
   * The portal's Private Channel Obfuscation toggle: every bot session sees the channels it cannot view
   * obfuscated, as Identify's capability bit 1 << 15 does for one session. @defaultValue false
   */
  channelObfuscation?: boolean;
  /** Gateway heartbeat interval sent in Hello. @defaultValue `41250` */
  heartbeatIntervalMs?: number;
  /** Authorization code lifetime. @defaultValue `100_000` */
  codeTtlMs?: number;
  /** Access token lifetime. @defaultValue `604800` (7 days) */
  accessTokenTtlSeconds?: number;
  /**
   * The device authorization grant's polling `interval` in seconds (RFC 8628 §3.2); each `slow_down` adds 5.
   * @defaultValue `5`, the platform's
   */
  deviceCodeIntervalSeconds?: number;
  /** How long a device code and its user code live (`expires_in`), in seconds. @defaultValue `300`, the platform's */
  deviceCodeTtlSeconds?: number;
  /** How long a dropped gateway session stays resumable. @defaultValue `180_000` */
  resumeWindowMs?: number;
  /** Messages a gateway client may send per window before it is closed with 4008. @defaultValue 120 per 60 s */
  gatewayRateLimit?: {
    /** Messages allowed per window (a positive integer). */
    count: number;
    /** Length of the fixed window, in ms. */
    windowMs: number;
  };
  /**
   * Deadlines of the HTTP server (API, OAuth2 pages, dashboard, gateway upgrades): a connection whose
   * request headers are not complete after `headersMs`, or whose whole request is not after `requestMs`, is
   * answered 408 and closed; an idle keep-alive connection is closed after `keepAliveMs`. Node checks them
   * about once a second. @defaultValue `{ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5000 }`
   */
  httpTimeouts?: {
    /** Ms to receive a request's headers. @defaultValue `10_000` */
    headersMs?: number;
    /** Ms to receive a whole request (at least `headersMs`). @defaultValue `30_000` */
    requestMs?: number;
    /** Ms an idle keep-alive connection stays open. @defaultValue `5000` */
    keepAliveMs?: number;
  };
  /**
   * How long a gateway or voice gateway socket may stay open without a successful Identify or Resume before
   * it is closed with 4003 (Not authenticated): heartbeating alone does not keep it. @defaultValue `20_000`
   */
  identifyTimeoutMs?: number;
  /**
   * The bot's Identify budget per 24 h (`session_start_limit.total` of `GET /gateway/bot`; resumes do not
   * count). Once it is spent, a bot Identify gets op 9 Invalid Session (`d: false`) until the oldest
   * Identify of the day is 24 h old. @defaultValue `1000`
   */
  botSessionLimit?: number;
  /**
   * `session_start_limit.max_concurrency`: bot Identifies are paced per rate-limit key
   * `shard_id % botMaxConcurrency` (shard 0 without a `shard` field), one per key per
   * {@link EmulatorOptions.botIdentifyWindowMs}; one too early gets op 9 Invalid Session (`d: false`).
   * @defaultValue `1`
   */
  botMaxConcurrency?: number;
  /**
   * The pacing window of {@link EmulatorOptions.botMaxConcurrency}, in ms; the platform's is 5 s. Tests may
   * shorten it. @defaultValue `5000`
   */
  botIdentifyWindowMs?: number;
  /**
   * The most bytes a gateway or desktop-client (IPC) connection may have queued for sending (ws
   * `bufferedAmount`, the socket's `writableLength`). A client that stops reading reaches it and is closed:
   * the gateway with 4008 and the reason `Slow consumer`, the IPC socket with its CLOSE frame code 1008
   * where it can, else destroyed; both log a line. At least 4096. @defaultValue 4 MiB
   */
  maxOutboundBufferBytes?: number;
  /**
   * The most bytes of dispatches a gateway session keeps for a resume (next to the 1000-dispatch count); a
   * resume from further back gets op 9. At least 4096. @defaultValue 4 MiB
   */
  replayBufferBytes?: number;
  /**
   * The emulated desktop client: an IPC socket games reach over RPC (rich presence without sign-in,
   * AUTHORIZE, invites), signed in as `user` (username or id). `false` turns it off.
   * `handshakeTimeoutMs` (default 10000): a connection that has not completed the handshake by then is closed
   * with 1003, so a peer that connects and says nothing cannot hold a connection forever.
   * @defaultValue on, signed in as the first seeded user (off when no user is seeded)
   */
  rpc?:
    | boolean
    | {
        /** Username or id of the desktop client's signed-in user. @defaultValue the first seeded user */
        user?: string;
        /** Ms to complete the handshake before the connection is closed with 1003. @defaultValue `10000` */
        handshakeTimeoutMs?: number;
      };
  /**
   * Directory of the desktop client's socket. The default is a fresh owner-only directory (0700) holding
   * `discord-ipc-0`, so tests never meet a real desktop client. Given a directory (such as the platform's, to be
   * found by a plain scan), the emulator takes the first free `discord-ipc-<n>` there: a live socket is skipped,
   * a stale one removed. The socket is owner-only (0600) and removed on close. Windows uses the first free named
   * pipe `\\?\pipe\discord-ipc-<n>` instead.
   */
  rpcSocketDir?: string;
  /** Where the emulated desktop client finds games' launch commands (XDG desktop entries). @defaultValue the platform's */
  launchRegistryDir?: string;
  /**
   * Seeds the guild "Emulator Guild", owned by the first seeded user with every seeded user a member, whose
   * channels players may link to lobbies (see {@link Emulator.guilds}). @defaultValue `true`
   */
  seedGuild?: boolean;
  /**
   * HTTP rate limits (wire-protocols §4.11): `'default'` limits generously (500 requests/s per token, 250/s per
   * route, caller and major parameter, 500/s per remote address without credentials; normal use never meets
   * them), `'development'` adds the platform's pre-approval limits per application (100 per 2 h for lobby
   * create/join/update, member changes, bulk, invites and lobby messages; 20 per 2 h for channel linking; 100
   * per 2 h for direct messages), `'off'` sends no rate-limit headers and never answers 429. A
   * {@link RateLimitSettings} object starts from one of those and overrides the global limit and single
   * routes, so tests can hit a limit at will. @defaultValue `'default'`
   */
  rateLimits?: RateLimitsOption;
  /**
   * Milliseconds each API reply waits after its request was processed, while gateway dispatches go out at
   * once: a slow HTTP path next to a fast gateway, as on a real network. It makes a game meet the case of an
   * HTTP reply that arrives after the dispatches its request caused, or after later ones. From 0 to
   * 10 000. @defaultValue `0`
   */
  httpLatencyMs?: number;
  /**
   * Receives one line per request or event, for demos and debugging. Lines never contain tokens, codes,
   * verifiers or secrets.
   */
  log?: (line: string) => void;
  /** The voice server (lobby calls): ports, DAVE policy, timings and impairment; see {@link EmulatorVoiceOptions}. */
  voice?: EmulatorVoiceOptions;
}

/**
 * Options of the emulator's voice server: a voice gateway v8 on its own TCP port (any path, `?v=4`…`8`;
 * VOICE_SERVER_UPDATE's `endpoint` is `127.0.0.1:<port>`) and a UDP forwarding unit on its own UDP port.
 */
export interface EmulatorVoiceOptions {
  /** TCP port of the voice gateway. @defaultValue `0` (an ephemeral port) */
  port?: number;
  /** UDP port of the forwarding unit (Ready's `port`). @defaultValue `0` (an ephemeral port) */
  udpPort?: number;
  /**
   * Calls are end-to-end encrypted only: a client whose Identify says `max_dave_protocol_version: 0` is
   * closed with 4017. `true` lets it in, and the whole call then runs DAVE version 0 (transport encryption
   * only) until it empties: members already on DAVE get op 21 `{protocol_version: 0, transition_id: 0}`.
   * For tests of the downgrade path. @defaultValue `false`
   */
  allowNonDave?: boolean;
  /** Heartbeat interval in the voice Hello. @defaultValue `13750` */
  heartbeatIntervalMs?: number;
  /**
   * Where the emulator's local certificate authority is kept, made there once (folder 0700, key 0600). With
   * it the voice gateway answers `wss://` as well as `ws://` on its port, with a server certificate the
   * authority signs at each start; {@link EmulatorInfo.voiceCaFile} is the file to trust. `false`: `ws://`
   * only. @defaultValue a per-user folder: `$XDG_STATE_HOME/sdkpp-emulator`, else
   * `~/.local/state/sdkpp-emulator` (`%LOCALAPPDATA%\sdkpp-emulator` on Windows)
   */
  certificateDir?: string | false;
  /** How long a voice session whose socket went away can be resumed (op 7). @defaultValue `30_000` */
  resumeWindowMs?: number;
  /** Impairment of forwarded packets from the start; see {@link EmulatorVoice.setImpairment}. */
  impairment?: VoiceImpairment;
  /**
   * The media engine behind the forwarding unit's transport crypto: `'auto'` (the native addon when it
   * loads), `'native'` or `'js'`. @defaultValue `'auto'`
   */
  mediaEngine?: 'auto' | 'native' | 'js';
}

/** Network impairment of the forwarding unit, applied to each packet copy it forwards. */
export interface VoiceImpairment {
  /** Percent (0–100) of forwarded packets dropped. */
  lossPercent?: number;
  /** Milliseconds every forwarded packet is held (0–10000). */
  delayMs?: number;
  /** Up to this many extra milliseconds per packet, uniformly drawn (0–10000). */
  jitterMs?: number;
  /** Percent (0–100) of packets held back about 30 ms so the next one overtakes them. */
  reorderPercent?: number;
  /** Seed of the PRNG behind every draw, for reproducible runs. @defaultValue `1` */
  seed?: number;
}

/** The forwarding unit's counters of one call. */
export interface EmulatorVoiceCounters {
  /** RTP packets received and opened with the sender's transport key. */
  packetsIn: number;
  /** Bytes of those packets as they arrived, encrypted, RTP header included. */
  bytesIn: number;
  /** Packet copies sent to receivers (one per receiver). */
  packetsForwarded: number;
  /** Bytes of those copies as sent, re-encrypted for each receiver. */
  bytesForwarded: number;
  /** Packets from an address other than the one pinned for their SSRC. */
  droppedForeignSource: number;
  /** Packets the sender's key did not open. */
  droppedDecrypt: number;
  /** Copies the impairment dropped. */
  droppedImpairment: number;
  /** IP discovery requests answered. */
  discoveries: number;
  /**
   * IP discovery requests refused: they carried a member's SSRC from an address other than the one its
   * voice session's first discovery pinned (a hostile or confused peer), and were not answered.
   */
  refusedDiscoveries: number;
  /** Copies not sent because forwarding to their receiver was blocked ({@link EmulatorVoice.blockForwarding}). */
  droppedBlocked: number;
  /**
   * Packets forwarded to nobody because the platform's voice rules silence their sender in a guild voice
   * channel: server mute, no SPEAK permission, or a stage audience member.
   */
  droppedSilenced: number;
  /** Copies not sent because their receiver is server-deafened. */
  droppedDeafened: number;
}

/** A call participant, as {@link EmulatorVoice.calls} shows it. */
export interface EmulatorVoiceParticipant {
  /** The participant's user id. */
  userId: string;
  /** The main gateway session in the voice state. */
  sessionId: string;
  /** Whether the client's voice state says it muted its microphone. */
  selfMute: boolean;
  /** Whether the client's voice state says it deafened itself (hears nothing). */
  selfDeaf: boolean;
  /** The voice connection, or null until the client identifies on the voice gateway. */
  voice: {
    /** Whether a voice socket is attached (false while the session waits for a resume). */
    connected: boolean;
    /** The RTP source id the voice server gave the participant in Ready; their packets carry it. */
    ssrc: number;
    /** The transport encryption mode, or null before Select Protocol. */
    mode: string | null;
    /** The DAVE version of the Session Description, or null before it. */
    daveProtocolVersion: number | null;
    /** The last speaking flags the client sent (0 silent). */
    speaking: number;
    /** RTP packets from this participant that the forwarding unit accepted. */
    packetsFromClient: number;
    /** RTP packets the forwarding unit sent to this participant (others' audio). */
    packetsToClient: number;
  } | null;
}

/** A lobby call, as {@link EmulatorVoice.calls} shows it. */
export interface EmulatorVoiceCall {
  /** The lobby whose call this is (each lobby has at most one); null for a guild voice channel's call. */
  lobbyId: string | null;
  /** The call's channel: the lobby's id, or the guild voice channel's. */
  channelId: string;
  /** The guild of a voice channel's call; null for a lobby's. */
  guildId: string | null;
  /** Participants in join order. */
  participants: EmulatorVoiceParticipant[];
  /** 1 with DAVE, 0 without, null before anyone's Session Description. */
  daveProtocolVersion: number | null;
  /** The MLS epoch of the call's DAVE group, or null without one. */
  daveEpoch: bigint | null;
  /** The forwarding unit's packet and byte counts for this call. */
  counters: EmulatorVoiceCounters;
}

/** The impairment's counters since it was set. */
export interface EmulatorImpairmentStats {
  /** Packet copies that went through it. */
  seen: number;
  /** Copies dropped by `lossPercent`. */
  dropped: number;
  /** Copies held back by `reorderPercent` so the next one overtakes them. */
  reordered: number;
  /** Copies sent later than at once (delay, jitter or reordering). */
  delayed: number;
}

/** What {@link Emulator.joinVoiceChannel} takes. */
export interface EmulatorVoiceChannelJoin {
  /** Username, user id or `'@bot'`. */
  user: string;
  /** A voice channel's id (its guild is the channel's). */
  channel: string;
  /** A 16-bit PCM WAV file (any rate, mono or stereo) the user speaks once. */
  play?: string;
  /** Where the WAV of what the user hears is written (48 kHz stereo). */
  record?: string;
}

/** A user {@link Emulator.joinVoiceChannel} put in a voice channel. */
export interface EmulatorVoiceChannelUser {
  /** Their voice state's `session_id`. */
  readonly sessionId: string;
  /** Leaves the channel; the recording is complete once this resolves. */
  leave(): Promise<void>;
}

/** The voice server of a running emulator: lobby and voice channel calls, for tests and the dashboard. */
export interface EmulatorVoice {
  /** `host:port` of the voice gateway, as VOICE_SERVER_UPDATE's `endpoint` carries it. */
  readonly endpoint: string;
  /** The forwarding unit's UDP port. */
  readonly udpPort: number;
  /** Every lobby call with its participants, SSRCs, speaking flags, DAVE epoch and counters (a snapshot). */
  calls(): EmulatorVoiceCall[];
  /**
   * Removes a participant from a call, as a moderator would: voice close 4014 on their voice socket and a
   * voice state with `channel_id: null` to the lobby. Returns false when they were not in the call.
   */
  kick(lobbyId: string, userId: string): boolean;
  /**
   * Destroys voice sockets without a close frame (a network drop), all or one user's (in one lobby); their
   * sessions stay resumable (op 7) for the resume window. Returns how many.
   */
  dropConnections(userId?: string, lobbyId?: string): number;
  /**
   * Impairs every packet the forwarding unit forwards from now on (null: none); the PRNG starts again from
   * the seed and the counters from zero.
   * @throws RangeError for a value out of range
   */
  setImpairment(impairment: VoiceImpairment | null): void;
  /** The impairment's counters, or null when none is set. */
  impairmentStats(): EmulatorImpairmentStats | null;
  /**
   * A test hook for one-way loss: while `blocked`, the forwarding unit sends nothing to the user's current
   * voice session (all their calls, or the one in `lobbyId`); what they send is still forwarded to others.
   * It follows the voice session, not the user: a fresh voice Identify starts unblocked, as a new path
   * would. Returns how many voice sessions it changed.
   */
  blockForwarding(userId: string, blocked: boolean, lobbyId?: string): number;
  /** Counters of UDP datagrams that belong to no call (unknown SSRCs, RTCP, keep-alives, pings, junk). */
  udpCounters(): EmulatorVoiceUdpCounters;
}

/** The forwarding unit's counters of datagrams outside any call's RTP. */
export interface EmulatorVoiceUdpCounters {
  /** Datagrams read. */
  datagrams: number;
  /** RTP packets and discovery requests for an SSRC nobody holds. */
  unknownSsrc: number;
  /** RTCP packets (tolerated, not forwarded). */
  rtcp: number;
  /** 8-byte keep-alives. */
  keepAlives: number;
  /** UDP pings answered. */
  pings: number;
  /** Anything else that was not understood. */
  malformed: number;
}

/** One rate limit: at most `limit` requests per fixed window of `windowMs` milliseconds. */
export interface RateLimitRule {
  /** Requests allowed per window; the next one gets 429. */
  limit: number;
  /** Length of the fixed window, in ms. */
  windowMs: number;
  /**
   * For a route: `'caller'` counts per caller and major parameter (lobby, guild, channel or target user), as
   * the platform's buckets do; `'application'` keeps one count for every caller (429 scope `shared`).
   * Ignored for the global limits. @defaultValue `'caller'`
   */
  per?: 'caller' | 'application';
}

/** Explicit HTTP rate limits; see {@link EmulatorOptions.rateLimits}. */
export interface RateLimitSettings {
  /** The preset the other fields override. @defaultValue `'default'` */
  base?: 'off' | 'default' | 'development';
  /** Requests per window of one token (user or bot) across every route; `null` turns it off. */
  global?: RateLimitRule | null;
  /** Requests per window without valid credentials, per remote address; `null` turns it off. */
  unauthenticated?: RateLimitRule | null;
  /**
   * Limits of single routes by `"METHOD /pattern"` as the emulator routes them, e.g.
   * `{ 'POST /users/:user_id/messages': { limit: 2, windowMs: 1000 } }`; `null` turns a route's limit off.
   * Starting fails on a route the emulator does not serve.
   */
  routes?: Record<string, RateLimitRule | null>;
}

/** {@link EmulatorOptions.rateLimits}: a preset or explicit settings. */
export type RateLimitsOption = 'off' | 'default' | 'development' | RateLimitSettings;

/** A user of the emulated platform. */
export interface EmulatorUser {
  /** The user's id (a snowflake). */
  id: string;
  /** The unique username, e.g. `alice`. */
  username: string;
}

/** Where the emulator listens and what it was seeded with. */
export interface EmulatorInfo {
  /** The HTTP origin, e.g. `http://127.0.0.1:43121`. */
  http: string;
  /** The API base, `${http}/api/v10`. */
  api: string;
  /** The gateway WebSocket URL, e.g. `ws://127.0.0.1:43121/gateway`. */
  gateway: string;
  /**
   * The dashboard, `${http}/dashboard`: a live page of users, presence, relationships, lobbies, calls (DAVE
   * epoch, speaking, SSRCs), gateway sessions and the request and event log, with tester actions (create
   * users, ban, revoke tokens, kick from a call, drop gateway connections). Loopback clients only.
   */
  dashboard: string;
  /** Path of the emulated desktop client's IPC socket, or null when it is off. */
  rpcSocket: string | null;
  /** The application's id. */
  applicationId: string;
  /**
   * The application's Ed25519 public key (64 hex digits): its `verify_key`, the developer portal's "Public
   * Key". Interactions and webhook events are signed with its private half; a receiver checks them with it
   * (sdkpp/backend's createInteractionsHandler and createWebhookEventsHandler take it as `publicKey`). A saved
   * state keeps the key pair, so it stays the same across restarts with `--state`.
   */
  applicationPublicKey: string;
  /**
   * The client secret, for confidential-client flows (a game backend's code exchange). A secret like the bot
   * token: it is in the `--json` line and the start-up summary on purpose, never in a log line or
   * `/emulator.json`.
   */
  clientSecret: string;
  /** The application's bot token. */
  botToken: string;
  /** The full (non-provisional) users, in creation order. */
  users: EmulatorUser[];
  /**
   * The emulator's local certificate authority (a PEM file), which signs the voice gateway's `wss://`
   * certificate: a client that dials only `wss://` (@discordjs/voice) trusts it through
   * `NODE_EXTRA_CA_CERTS=<this file>`, set before Node starts. Null when `voice.certificateDir` is false.
   */
  voiceCaFile: string | null;
}

/** The desktop client's device authorization screen, as {@link Emulator.rpcDeviceScreen} reports it. */
export interface EmulatorDeviceScreen {
  /** The application the code is for. */
  clientId: string;
  /** The code shown, as `XXXX-XXXX`. */
  userCode: string;
  /** When it was opened, ms since the epoch (the emulator's clock). */
  openedAt: number;
}

/** A device authorization (RFC 8628), as {@link Emulator.deviceAuthorizations} reports it. */
export interface EmulatorDeviceAuthorization {
  /** The code the player enters, as `XXXX-XXXX`. */
  userCode: string;
  /** The requested scopes. */
  scopes: string[];
  /** `pending` until the player answers on the verification page. */
  status: 'pending' | 'approved' | 'denied';
  /** The polling interval now, in seconds (grown by each `slow_down`). */
  intervalSeconds: number;
  /** When the codes expire, ms since the epoch (the emulator's clock). */
  expiresAt: number;
}

/** Options of {@link Emulator.browserAs}. */
export interface BrowserOptions {
  /** Which consent button the simulated user presses (on the device page: Authorize or Deny). @defaultValue `'authorize'` */
  action?: 'authorize' | 'cancel';
  /**
   * Receives the final redirect when it uses a custom scheme (e.g. `discord-123:/authorize/callback?code=…`),
   * which a browser would hand to the operating system instead of loading.
   */
  onCustomSchemeRedirect?: (url: string) => void;
}

/** A user's presence as others see it. */
export interface EmulatorPresence {
  /** The status friends see; an invisible user, or one with no connected session, shows `'offline'`. */
  status: 'online' | 'idle' | 'dnd' | 'offline';
  /** The activities as stored (with secrets; others receive them without). */
  activities: Record<string, unknown>[];
}

/** One relationship as the owner holds it: 1 friend, 2 blocked, 3 incoming request, 4 outgoing request. */
export interface EmulatorRelationship {
  /** The other user's id. */
  id: string;
  /** 1 friend, 2 blocked, 3 incoming request, 4 outgoing request (as in `RelationshipType`). */
  type: 1 | 2 | 3 | 4;
}

/** Summary of one gateway session, for tests and tooling. */
export interface GatewaySessionInfo {
  /** The session id sent in READY. */
  sessionId: string;
  /** The user the session belongs to. */
  userId: string;
  /** The last sequence number dispatched to the session. */
  seq: number;
  /** Whether a socket is attached right now (false while the session waits for a resume). */
  connected: boolean;
}

/** A lobby member, as {@link Emulator.lobbies} shows it. */
export interface EmulatorLobbyMember {
  /** The member's user id. */
  id: string;
  /** Developer metadata of the member, set by the game backend or on joining. */
  metadata: Record<string, string>;
  /** Member flags; 1 << 0 is CanLinkLobby. */
  flags: number;
  /** The display name the game backend gave the member, or null. */
  additionalName: string | null;
  /** Whether the member has a gateway session with a socket attached (one waiting for a resume does not count). */
  connected: boolean;
}

/** A lobby, as {@link Emulator.lobbies} shows it. */
export interface EmulatorLobby {
  /** The lobby's snowflake id. */
  id: string;
  /** Whether the lobby has a create-or-join secret (the secret itself is not shown). */
  secret: boolean;
  /** `sdk`: made by a player's `PUT /lobbies`; `bot`: made by the game backend. */
  createdBy: 'sdk' | 'bot';
  /** Developer metadata of the lobby. */
  metadata: Record<string, string>;
  /** Lobby flags as the creator or the backend set them; 0 when none. */
  flags: number;
  /** Seconds without connected members before the lobby is deleted; 300 unless the creator set it. */
  idleTimeoutSeconds: number;
  /** The linked guild channel, or null. */
  linkedChannelId: string | null;
  /** Members in the order they joined. */
  members: EmulatorLobbyMember[];
}

/** A lobby message, as {@link Emulator.lobbyMessages} shows it. */
export interface EmulatorLobbyMessage {
  /** The message's snowflake id. */
  id: string;
  /** The sender's user id (the chat-app user for a relayed message). */
  authorId: string;
  /** The text as sent. */
  content: string;
  /** The developer metadata the sender attached; empty when none or relayed. */
  metadata: Record<string, string>;
  /** What the game backend set as moderation metadata; empty until it does. */
  moderationMetadata: Record<string, string>;
  /** True when sent from the game (SDK or bot), false when relayed from the linked channel. */
  fromGame: boolean;
  /** The author's additional name when the message was sent. */
  additionalName: string | null;
  /** Unix ms by the emulator's clock. */
  timestamp: number;
}

/** A permission overwrite of a guild channel. */
export interface EmulatorChannelOverwrite {
  /** The user's id, or the guild's id for @everyone. */
  id: string;
  /** 0 a role (@everyone), 1 a member. */
  type: 0 | 1;
  /** Bits granted, as a decimal string. */
  allow: string;
  /** Bits taken away, as a decimal string. */
  deny: string;
}

/** A channel of a guild. */
export interface EmulatorGuildChannel {
  /** The channel's snowflake id, used to link it to a lobby. */
  id: string;
  /** The channel's name, without `#`. */
  name: string;
  /** 0 text, 2 voice, 4 category. */
  type: number;
  /** Sort order among its siblings, from 0; ties go by id. */
  position: number;
  /** The category's id, or null at the top level. */
  parentId: string | null;
  /** Permission overwrites on top of the members' guild permissions; empty when none. */
  overwrites: EmulatorChannelOverwrite[];
  /** Whether the application's bot may view it (false also when the bot is not in the guild). */
  botCanView: boolean;
}

/** An application command, as {@link Emulator.commands} shows it. */
export interface EmulatorCommand {
  /** The command's id. */
  id: string;
  /** Its name. */
  name: string;
  /** 1 chat input, 2 user, 3 message, 4 primary entry point. */
  type: number;
  /** Its guild, or null for a global command. */
  guildId: string | null;
  /** Its description (empty for context menus). */
  description: string;
  /** Its options. */
  options: EmulatorCommandOption[];
}

/** An option of an {@link EmulatorCommand}. */
export interface EmulatorCommandOption {
  /** The option's name. */
  name: string;
  /** 3 string, 4 integer, 5 boolean, 6 user, 7 channel, 8 role, 10 number, … */
  type: number;
  /** Whether the user must give it. */
  required: boolean;
}

/** Where {@link Emulator.launchActivity} launches the Activity. */
export interface LaunchActivityOptions {
  /** The player: a user id or username. */
  user: string;
  /**
   * A guild channel the player can see: every player launching there joins the same instance. Left out, the
   * launch is private to the player (a new instance each time).
   */
  channel?: string;
  /**
   * An Activity link the player opened (one a `shareLink` made, `<http>/activities/<application_id>?custom_id=…`):
   * the game reads its `custom_id` as the SDK's `customId`. Throws a RangeError for another URL.
   */
  link?: string;
}

/** What {@link Emulator.setActivityLayout} changes. */
export interface SetActivityLayoutOptions {
  /** The instance's id. */
  instance: string;
  /** Only this player's frames (username or id); every player's when absent. */
  user?: string;
  /** The client's layout of the Activity. */
  layoutMode?: 'focused' | 'pip' | 'grid';
  /** The screen's orientation. */
  orientation?: 'portrait' | 'landscape';
}

/** An Activity link a player shared from the game with `shareLink`. */
export interface EmulatorActivityShare {
  /** The share's id. */
  id: string;
  /** Who shared it. */
  userId: string;
  /** The link: pass it as `link` to {@link Emulator.launchActivity} to open it as a player. */
  url: string;
  /** The game's `custom_id`, or null. */
  customId: string | null;
  /** The game's `link_id`, or null. */
  linkId: string | null;
  /** The message the game sent with the link. */
  message: string;
  /** How the player shared it in the client's share modal: copied the link, or sent it in a channel. */
  via: 'copy' | 'send';
  /** The channel the link was sent in, or null. */
  channelId: string | null;
  /** The channel message carrying the link, or null. */
  messageId: string | null;
  /** When, in the emulator's clock (ms). */
  sharedAt: number;
}

/** One player's launch of the Activity. */
export interface EmulatorActivityLaunch {
  /** The instance id the Embedded App SDK reads (shared by every player of one launch). */
  instanceId: string;
  /** The SDK's `location_id`. */
  locationId: string;
  /** The instance's guild, or null for a private launch. */
  guildId: string | null;
  /** The instance's channel, or null for a private launch. */
  channelId: string | null;
  /**
   * The player's host page, the desktop client's frame around the game: open it in a browser. It is the
   * player's pass to the instance, so keep it to them.
   */
  url: string;
}

/** A console line an Activity's frame sent (the Embedded App SDK forwards `console` calls with CAPTURE_LOG). */
export interface EmulatorConsoleLine {
  /** Whose frame sent it. */
  userId: string;
  /** `log`, `warn`, `debug`, `info` or `error`. */
  level: string;
  /** The line, cut at 2000 characters. */
  message: string;
}

/** A live Activity instance. */
export interface EmulatorActivityInstance {
  /** The instance id. */
  id: string;
  /** The SDK's `location_id`. */
  locationId: string;
  /** Its guild, or null for a private launch. */
  guildId: string | null;
  /** Its channel, or null for a private launch. */
  channelId: string | null;
  /** Who launched it first. */
  launchedBy: string;
  /** The ids of the players whose frame is connected, in the order they joined. */
  participants: string[];
  /** The last 200 console lines of its frames, oldest first. */
  console: EmulatorConsoleLine[];
}

/** One URL mapping of the Activity proxy. */
export interface EmulatorUrlMapping {
  /** A path prefix: `/` for the game's own server, or e.g. `/api`. */
  prefix: string;
  /** The `http:` URL it maps to, e.g. `http://127.0.0.1:5173`. */
  target: string;
}

/** A SKU, as {@link Emulator.skus} shows it. */
export interface EmulatorSku {
  /** The SKU's id. */
  id: string;
  /** Its name. */
  name: string;
  /** 2 durable, 3 consumable, 5 subscription. */
  type: number;
  /** A subscription's period in ms; null for the others. */
  periodMs: number | null;
  /** The price the store shows, or null when free. */
  price: EmulatorSkuPrice | null;
}

/** A SKU's price. */
export interface EmulatorSkuPrice {
  /** In the currency's smallest unit (499 is $4.99). */
  amount: number;
  /** An ISO 4217 code in lower case, e.g. `usd`. */
  currency: string;
}

/** An entitlement, as {@link Emulator.entitlements} shows it. */
export interface EmulatorEntitlement {
  /** The entitlement's id. */
  id: string;
  /** Its SKU. */
  skuId: string;
  /** Its user, or null for a guild's. */
  userId: string | null;
  /** Its guild, or null for a user's. */
  guildId: string | null;
  /** 1 purchase, 4 test mode purchase. */
  type: number;
  /** When it ends or ended (ISO 8601), or null: indefinite. */
  endsAt: string | null;
  /** A consumable's entitlement once consumed. */
  consumed: boolean;
  /** A deleted test entitlement. */
  deleted: boolean;
}

/** A subscription, as {@link Emulator.subscriptions} shows it. */
export interface EmulatorSubscription {
  /** The subscription's id. */
  id: string;
  /** Its user. */
  userId: string;
  /** The SKUs subscribed to. */
  skuIds: string[];
  /** 0 active, 1 inactive, 2 ending. */
  status: number;
  /** The current period's end (ISO 8601). */
  currentPeriodEnd: string;
  /** When it was canceled (ISO 8601), or null. */
  canceledAt: string | null;
}

/** What {@link Emulator.purchaseSku} made. */
export interface EmulatorPurchase {
  /** The new entitlement. */
  entitlement: EmulatorEntitlement;
  /** The new subscription, for a subscription SKU; else null. */
  subscription: EmulatorSubscription | null;
}

/** What {@link Emulator.invokeCommand} takes. */
export interface InvokeCommandOptions {
  /** Who invokes it (username or id). */
  user: string;
  /** The command's name or id. */
  command: string;
  /** 1 chat input, 2 user, 3 message. @defaultValue 1 */
  type?: number;
  /**
   * The guild text channel it is invoked in (context 0, GUILD). Without `channel`, `dm` and `groupDm`: the DM
   * with the app's bot user (context 1, BOT_DM).
   */
  channel?: string;
  /**
   * Another user (username or id) whose DM with the invoking user it is invoked in (context 2, PRIVATE_CHANNEL):
   * a user-installed app only. `app_permissions` is then the document's limited DM set.
   */
  dm?: string;
  /** The other 2–9 users (usernames or ids) of a group DM it is invoked in (context 2): a user-installed app only. */
  groupDm?: string[];
  /**
   * Chat input option values by option name (ids for users, channels and roles; for an ATTACHMENT option an
   * {@link EmulatorUploadFile}, checked against the option's `file_types` and reaching the app in
   * `resolved.attachments`).
   */
  options?: Record<string, unknown>;
  /** A context-menu command's target: a user id, or a message id in `channel`. */
  target?: string;
  /**
   * `guild`: the app is installed in the channel's guild (its bot is a member); `user`: a user-installed app,
   * whose responses are ephemeral where USE_EXTERNAL_APPS is off and which may send 5 follow-ups.
   * @defaultValue 'guild'
   */
  installation?: 'guild' | 'user';
}

/** A file a user uploads (a modal's File Upload component). */
export interface EmulatorUploadFile {
  /** The file's name (1–1024 characters, no slash). */
  filename: string;
  /** Its media type, e.g. `image/png`; absent: none named (served as `application/octet-stream`). */
  contentType?: string;
  /** Its bytes, or base64 text of them (what a JSON caller sends); at most 10 MiB. */
  data: Uint8Array | string;
}

/** What {@link Emulator.submitModal} takes. */
export interface SubmitModalOptions {
  /** Who submits it (username or id): the user the modal was opened for. */
  user: string;
  /** The interaction whose response opened the modal. */
  interaction: string;
  /**
   * Answers by custom id: a Text Input's text, a select's or Checkbox Group's picked values, a Radio Group's
   * value, a Checkbox's boolean.
   */
  values: Record<string, string | string[] | boolean>;
  /**
   * Files by the custom id of a File Upload component: within its `min_values`–`max_values` (0–10), each of
   * its `file_types` when it names some. They reach the app in `data.resolved.attachments`, downloadable from
   * their `url`.
   */
  files?: Record<string, readonly EmulatorUploadFile[]>;
}

/** A modal an app opened in answer to an interaction. */
export interface EmulatorModal {
  /** The modal's custom id. */
  customId: string;
  /** Its title (≤ 45 characters). */
  title: string;
  /** Its components as the app sent them (Labels, Text Displays, …). */
  components: unknown[];
}

/** A message only the invoking user sees. */
export interface EmulatorPrivateMessage {
  /** The message id. */
  id: string;
  /** Its content. */
  content: string;
  /** Its flags (EPHEMERAL is 64). */
  flags: number;
}

/** An interaction, as {@link Emulator.interactions} shows it. */
export interface EmulatorInteraction {
  /** The interaction's snowflake id. */
  id: string;
  /** 2 command, 3 component, 4 autocomplete, 5 modal submit. */
  type: number;
  /** The command's name, or the component's or modal's custom id. */
  name: string;
  /** Who triggered it. */
  userId: string;
  /** Its guild, or null in the DM with the bot. */
  guildId: string | null;
  /** Its guild channel, or null in a DM or group DM. */
  channelId: string | null;
  /** The interaction context: 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL (a DM between users, a group DM). */
  context: 0 | 1 | 2;
  /** How the app is installed where it was triggered. */
  installation: 'guild' | 'user';
  /** `pending`, `gateway`, `http <status>` (with what went wrong after it, if anything), or `failed: …`. */
  delivery: string;
  /** The first response's callback type (4 message, 5 deferred, 6, 7 update, 8 autocomplete, 9 modal, …), or null. */
  responseType: number | null;
  /** The message the response made or updated. */
  originalMessageId: string | null;
  /** Follow-up message ids. */
  followUps: string[];
  /** The modal the app opened, until it is submitted. */
  modal: EmulatorModal | null;
  /** Messages only the invoking user sees (ephemeral ones, and those in the DM with the bot). */
  privateMessages: EmulatorPrivateMessage[];
  /** The autocomplete choices, when that was the answer. */
  choices: unknown[] | null;
  /**
   * The Activity launch this interaction made: a LAUNCH_ACTIVITY (12) answer, or an entry point command with
   * the DISCORD_LAUNCH_ACTIVITY handler (then the app gets no interaction). Null otherwise.
   */
  activity: EmulatorInteractionLaunch | null;
}

/** The Activity launch of an {@link EmulatorInteraction}. */
export interface EmulatorInteractionLaunch {
  /** The instance the invoking user joined. */
  instanceId: string;
  /** The invoking user's host page (see {@link EmulatorActivityLaunch.url}). */
  url: string;
}

/**
 * An interaction a user just triggered ({@link Emulator.invokeCommand}, {@link Emulator.clickComponent},
 * {@link Emulator.submitModal}): the interaction as delivered, and a way to await the app's answer.
 */
export interface EmulatorInvocation extends EmulatorInteraction {
  /**
   * Waits for the app's response and resolves with what it produced: the message (for a deferred response,
   * once the app edited it), the modal, or the Activity launch. An app answering over HTTP has answered by the
   * time the invocation resolves; a bot on the gateway answers through the callback route a moment later.
   * Rejects with an `InteractionResponseError` (from `@sdkpp/emulator`) whose `reason` says why: the interaction
   * was not delivered, the app's answer was refused, no response came within the platform's 3 s, or
   * `timeoutMs` passed first (a deferred response never edited). Not enumerable: spreading the invocation or
   * `JSON.stringify` gives the plain {@link EmulatorInteraction}.
   */
  response(options?: AwaitResponseOptions): Promise<EmulatorInteractionResponse>;
}

/** Options of {@link EmulatorInvocation.response}. */
export interface AwaitResponseOptions {
  /**
   * The longest wait in ms, from the call (1 to 900 000, the interaction token's 15 minutes). Without a response
   * the wait ends sooner, when the platform's 3 s window for the first one closes. @defaultValue `4000`
   */
  timeoutMs?: number;
}

/** What an app's response to an interaction produced, as {@link EmulatorInvocation.response} resolves it. */
export interface EmulatorInteractionResponse {
  /**
   * The first response's callback type: 4 a message, 5 a deferred message (then edited), 6 a deferred update,
   * 7 an update of the component's message, 9 a modal, 12 an Activity launch.
   */
  type: number;
  /**
   * The message the response made or updated, as the user sees it now: for a deferred response (5) the edited
   * one, for a deferred update (6) the component's message as it is; null for a modal or a launch.
   */
  message: EmulatorResponseMessage | null;
  /** The modal the response opened (submit it with {@link Emulator.submitModal}), or null. */
  modal: EmulatorModal | null;
  /** The Activity launch a LAUNCH_ACTIVITY answer made, or null. */
  activity: EmulatorInteractionLaunch | null;
  /** The interaction once answered (its follow-ups so far, private messages, …). */
  interaction: EmulatorInteraction;
}

/** A message an interaction's response made or updated, with what a user can act on. */
export interface EmulatorResponseMessage {
  /** The message id ({@link Emulator.clickComponent}'s `message`). */
  id: string;
  /** Its channel: the guild text channel, or the DM with the app's bot user. */
  channelId: string;
  /** Its content. */
  content: string;
  /** Its embeds as the app sent them. */
  embeds: unknown[];
  /** Its components as the app sent them (action rows with buttons and selects, or Components V2). */
  components: unknown[];
  /** Its flags (EPHEMERAL 64, IS_COMPONENTS_V2 1 << 15). */
  flags: number;
  /** Whether only the invoking user sees it (ephemeral, or in the DM with the bot). */
  private: boolean;
}

/** A role of an {@link EmulatorGuild}. */
export interface EmulatorGuildRole {
  /** The role's id; `@everyone`'s is the guild's. */
  id: string;
  /** Its name; the admin hooks' `permissions` shorthand makes roles named `Member` or `Permissions <bits>`. */
  name: string;
  /** Its permission bitfield (decimal string). */
  permissions: string;
  /** The bot's own role, made when it joined. */
  managed: boolean;
  /** The user ids holding it (every member for `@everyone`). */
  members: string[];
}

/** A guild, as {@link Emulator.guilds} and {@link Emulator.createGuild} show it. */
export interface EmulatorGuild {
  /** The guild's snowflake id. */
  id: string;
  /** The guild's display name, e.g. `Emulator Guild`. */
  name: string;
  /** The owner's user id; the owner holds every permission. */
  ownerId: string;
  /** Member id → guild permissions bitfield (decimal string); the owner holds every bit. */
  members: Record<string, string>;
  /** The roles by position, `@everyone` (the guild's id) first. */
  roles: EmulatorGuildRole[];
  /** The channels, by position. */
  channels: EmulatorGuildChannel[];
}

/** A channel of {@link Emulator.createGuild}. */
export interface EmulatorGuildChannelSpec {
  /** The channel's name; categories are referred to by it in `parent`. */
  name: string;
  /** 0 text, 2 voice, 4 category. @defaultValue `0` */
  type?: number;
  /** @defaultValue its index among the siblings listed before it */
  position?: number;
  /** The name of a category listed before it; absent for the top level. */
  parent?: string;
  /**
   * Permission overwrites: `target` is `'@everyone'`, a username or a user id; `allow` and `deny` are
   * bitfields (decimal strings or bigints; VIEW_CHANNEL 1<<10, SEND_MESSAGES 1<<11, MANAGE_CHANNELS 1<<4).
   */
  overwrites?: {
    /** `'@everyone'`, a username or a user id. */
    target: string;
    /** Permission bits granted (decimal string or bigint). */
    allow?: string | bigint;
    /** Permission bits taken away (decimal string or bigint). */
    deny?: string | bigint;
  }[];
}

/** A message in a guild channel. */
export interface EmulatorChannelMessage {
  /** The message's snowflake id. */
  id: string;
  /** The guild text channel it is in. */
  channelId: string;
  /** The chat-app user who wrote it, or the lobby member whose message was relayed. */
  authorId: string;
  /** The text, 1–2000 characters. */
  content: string;
  /** The lobby it was relayed from, or null when a chat-app user wrote it. */
  fromLobbyId: string | null;
  /** ISO 8601. */
  timestamp: string;
}

/** A running emulator. */
/** What {@link Emulator.enrollInQuest} takes. */
export interface EnrollInQuestOptions {
  /** The user who enrolls (username or id). */
  user: string;
  /** The Quest's id (a snowflake; the emulator keeps no Quests, the platform runs them). */
  questId: string;
}

/** A connection of {@link Emulator.setUserConnections}: an account of another service the user connected. */
export interface EmulatorConnectionInput {
  /** The service, as the platform names it: `github`, `steam`, `twitch`, `xbox`, … */
  type: string;
  /** The account's id on that service (1–256 characters). */
  id: string;
  /** The account's name on that service (1–256 characters). */
  name: string;
  /** @defaultValue true */
  verified?: boolean;
  /** 0: only the user sees it; 1: everyone does. @defaultValue 1 */
  visibility?: 0 | 1;
  /** @defaultValue false */
  friendSync?: boolean;
  /** @defaultValue true */
  showActivity?: boolean;
  /** @defaultValue false */
  twoWayLink?: boolean;
  /** @defaultValue false */
  revoked?: boolean;
}

export interface Emulator extends EmulatorInfo {
  /** The voice server: lobby calls, kicks, drops and impairment. */
  readonly voice: EmulatorVoice;
  /** Configures the webhook events URL (null: none, events are not sent). */
  setWebhookEventsUrl(url: string | null): void;
  /** The latest webhook event deliveries (at most 100), with their attempts and outcome. */
  webhookDeliveries(): WebhookDelivery[];
  /**
   * A user enrolls in one of the application's Quests: sends the QUEST_USER_ENROLLMENT webhook event (signed,
   * retried like the others; nothing without a webhook events URL) and resolves with its data (`user_id`,
   * `user`, `quest_id`, `enrolled_at`).
   */
  enrollInQuest(options: EnrollInQuestOptions): Record<string, unknown>;
  /** Closes every socket (gateway clients get close code 1001); resolves when the port is free. */
  close(): Promise<void>;
  /** The same as {@link Emulator.close}, for `await using emulator = await startEmulator(…)`. */
  [Symbol.asyncDispose](): Promise<void>;
  /**
   * The lasting part of the world, for {@link EmulatorOptions.state} in a later run: everything in the store
   * except authorization codes and expired access tokens. Live sessions, presence and calls are not in it.
   * It holds the bot token and users' tokens (so a game's saved token keeps working after a restart).
   * @throws StateExportError when some records cannot be saved (not serialisable, or they would not load):
   *   it names each and carries the rest as `partial`, so a save never loses more than those records.
   */
  exportState(): EmulatorSavedState;
  /** Adds a full user; the username defaults to the next unused seed name. */
  createUser(options?: { username?: string; globalName?: string }): EmulatorUser;
  /**
   * Changes a user's profile: names, avatar hash (32 hex digits, `a_` first for an animated one), guild tag
   * (1–4 characters) and subscription tier. The user's sessions get USER_UPDATE and their friends a
   * PRESENCE_UPDATE carrying the new user object.
   */
  updateUser(
    id: string,
    patch: {
      username?: string;
      globalName?: string;
      avatar?: string | null;
      primaryGuildTag?: string | null;
      premiumType?: 0 | 1 | 2 | 3;
    },
  ): void;
  /**
   * Replaces a user's connections (accounts of other services), which Get Current User Connections answers to
   * a token holding the `connections` scope; an empty list removes them all. At most 50.
   */
  setUserConnections(user: string, connections: readonly EmulatorConnectionInput[]): void;
  /**
   * Bans a user: tokens are deleted at once, gateway sessions close with 4004, and the user's external
   * identity moves to a new restricted provisional account, whose merges then fail with 530017.
   */
  banUser(id: string): void;
  /** Revokes every token of the user for this application, as the revoke endpoint does. */
  revokeUserTokens(id: string): void;
  /** Dispatches an event to every gateway session of the user (buffered for resume while disconnected). */
  dispatch(userId: string, event: string, data: unknown): void;
  /** Terminates gateway sockets without a close frame (a network drop); sessions stay resumable. */
  dropGatewayConnections(userId?: string): number;
  /** Closes gateway sockets with a close code; returns how many were closed. */
  closeGatewayConnections(code: number, reason?: string, userId?: string): number;
  /** Sends op 7 Reconnect; the server closes the socket (4000, resumable) a little later. */
  sendGatewayReconnect(userId?: string): number;
  /** The gateway sessions, connected or waiting for a resume. */
  gatewaySessions(userId?: string): GatewaySessionInfo[];
  /**
   * Makes two users friends at once (both get RELATIONSHIP_ADD and each other's presence), in the platform
   * graph or, with `{ game: true }`, as game friends of this application.
   */
  befriend(userA: string, userB: string, options?: { game?: boolean }): void;
  /** A user's presence as their friends see it. */
  presenceOf(userId: string): EmulatorPresence;
  /** The user's relationships: `{ id, type }` per other user, in each graph. */
  relationshipsOf(userId: string): {
    /** Relationships in the platform's own (Discord) graph. */
    discord: EmulatorRelationship[];
    /** Game friends and requests of this application only. */
    game: EmulatorRelationship[];
  };
  /**
   * Sends an event from the emulated desktop client (ACTIVITY_JOIN, ACTIVITY_JOIN_REQUEST, ACTIVITY_INVITE,
   * AUTHORIZE_REQUEST, GUILD_STATUS, …) to every game connection subscribed to it; returns how many got it.
   */
  rpcDispatch(event: string, data: unknown): number;
  /** Cuts every game connection of the desktop client without a CLOSE frame; returns how many. */
  dropRpcConnections(): number;
  /** Game connections to the desktop client that completed the handshake. */
  rpcConnectionCount(): number;
  /** The activity a game set through the desktop client, or null. */
  rpcActivity(): Record<string, unknown> | null;
  /** Invite and chat commands games sent to the desktop client (SEND_ACTIVITY_JOIN_INVITE, SET_SHOWING_CHAT, …), oldest first: the last 256. */
  rpcCommands(): {
    /** The RPC command, e.g. `SEND_ACTIVITY_JOIN_INVITE`. */
    cmd: string;
    /** The command's `args` as the game sent them. */
    args: Record<string, unknown>;
  }[];
  /**
   * How the player answers AUTHORIZE in the desktop client from now on: `true` approves (a code for the
   * desktop client's user), `false` declines (ERROR 5000), `null` follows `autoConsent` again.
   */
  rpcConsent(answer: boolean | null): void;
  /**
   * The code the desktop client's device authorization screen shows (a game's OpenAuthorizeDeviceScreen), or
   * null when none is shown.
   */
  rpcDeviceScreen(): EmulatorDeviceScreen | null;
  /**
   * Closes the desktop client's device authorization screen as the player would; the games subscribed to
   * AUTHORIZE_DEVICE_SCREEN_CLOSED hear of it. Returns false when none was shown.
   */
  closeRpcDeviceScreen(): boolean;
  /** The device authorizations waiting or decided but not yet redeemed, oldest first (device codes left out). */
  deviceAuthorizations(): EmulatorDeviceAuthorization[];
  /** The launch commands games registered on this machine, by application id, as a desktop client reads them. */
  launchCommands(): Record<string, string>;
  /**
   * Moves the emulator's wall clock `ms` forward: what the emulator stamps on records and checks expiry
   * against (access tokens, codes, invites, lobby history windows, idle lobbies) is real time plus every
   * advance so far. Real timers (heartbeats, resume windows, rate-limit windows) are not touched. Runs the
   * lobby idle sweep at once, so a lobby whose members have been offline for its idle timeout is gone
   * (LOBBY_DELETE `deleted`) when this returns.
   */
  advanceTime(ms: number): void;
  /** Every lobby with its members, oldest first (a snapshot; changing it changes nothing). */
  lobbies(): EmulatorLobby[];
  /** Every stored message of a lobby, newest first, whatever its age; empty for an unknown lobby. */
  lobbyMessages(lobbyId: string): EmulatorLobbyMessage[];
  /** Deletes a lobby message (as moderation would); members get LOBBY_MESSAGE_DELETE. Throws for an unknown one. */
  deleteLobbyMessage(lobbyId: string, messageId: string): void;
  /** How many requests matched a route, e.g. `requestCount('POST', '/oauth2/token')`. */
  requestCount(method: string, routePattern: string): number;
  /**
   * An opener for the SDK's authorize(): it plays the user in a browser, on the consent page, and follows
   * the final redirect to the SDK's loopback listener. Given a device sign-in's `verificationUriComplete`, it
   * enters the code on the verification page and approves it as the user (denies it with `action: 'cancel'`).
   */
  browserAs(user: string, options?: BrowserOptions): (url: string) => Promise<void>;
  /** Every guild with its members and channels, oldest first (a copy). */
  guilds(): EmulatorGuild[];
  /**
   * Creates a guild owned by `owner` (username or id). `members` (usernames or ids) get VIEW_CHANNEL and
   * SEND_MESSAGES, or the given `permissions` bitfield. Without `channels` the guild has one text channel,
   * `general`. Throws a `RangeError` for an unknown user or a bad channel list.
   */
  createGuild(options: {
    name: string;
    owner: string;
    members?: (string | { user: string; permissions?: string | bigint })[];
    channels?: EmulatorGuildChannelSpec[];
  }): EmulatorGuild;
  /**
   * Makes a user (username or id) a member of a guild, or changes a member's guild permissions.
   * @defaultValue permissions VIEW_CHANNEL | SEND_MESSAGES
   */
  addGuildMember(guildId: string, userId: string, options?: { permissions?: string | bigint }): void;
  /**
   * Adds the application's bot to a guild with its own managed role holding `permissions` (as the OAuth2 `bot`
   * scope does), or changes that role's permissions. @defaultValue permissions VIEW_CHANNEL | SEND_MESSAGES
   */
  addBotToGuild(guildId: string, options?: { permissions?: string | bigint }): void;
  /** Creates a role (at the top, below nothing) in a guild. @defaultValue permissions 0 */
  createRole(guildId: string, options: { name: string; permissions?: string | bigint }): EmulatorGuildRole;
  /**
   * Sets a member's roles (not `@everyone`, not a bot's managed role); `user` is a username, an id or `'@bot'`.
   * Bot sessions get GUILD_MEMBER_UPDATE and, with obfuscation on, CHANNEL_UPDATE for channels it gains or loses.
   */
  setMemberRoles(guildId: string, user: string, roleIds: string[]): void;
  /**
   * Sets (or with `null` removes) a channel's permission overwrite for `target`: `'@everyone'`, a role id, a
   * username, a user id or `'@bot'`. Bot sessions get CHANNEL_UPDATE.
   */
  setChannelOverwrite(
    channelId: string,
    target: string,
    overwrite: { allow?: string | bigint; deny?: string | bigint } | null,
  ): void;
  /**
   * Puts a member (username, id or `'@bot'`) in a guild voice channel, or out of voice with `null`: what a
   * chat-app user joining a voice channel looks like to bots (VOICE_STATE_UPDATE, the voice state endpoints,
   * the channel's voice start time), without audio. {@link Emulator.joinVoiceChannel} joins with audio.
   */
  setGuildVoiceState(guildId: string, user: string, channelId: string | null): void;
  /**
   * A chat-app user joins a guild voice channel with audio, as a real participant of its call: they connect
   * to the voice server (voice gateway, UDP, DAVE as an MLS member of the channel's group, so a bot's
   * `@discordjs/voice` receiver decrypts what they say), speak `play` (a WAV file) from the moment audio
   * flows, and record what they hear into `record` (48 kHz stereo WAV, complete once `leave()` resolves).
   * The channel's rules apply as to anyone (VIEW_CHANNEL and CONNECT, the user limit); bots with
   * GUILD_VOICE_STATES see their VOICE_STATE_UPDATE. A move (Modify Guild Member's `channel_id`) takes
   * them along. Throws a RangeError when the join is refused.
   */
  joinVoiceChannel(options: EmulatorVoiceChannelJoin): EmulatorVoiceChannelUser;
  /**
   * The user {@link Emulator.joinVoiceChannel} put in a voice channel (username, id or `'@bot'`) leaves it, as
   * their `leave()` does; resolves false when there was none.
   */
  leaveVoiceChannel(user: string): Promise<boolean>;
  /**
   * A user invokes an application command (chat input, user or message context menu), as the chat app would:
   * checked like a client (the command is registered for that guild or globally, allowed in that context and
   * installation, `default_member_permissions`, required options), then delivered to the interactions
   * endpoint URL or over the bot's gateway. Resolves once delivered; the app's answer shows in
   * {@link Emulator.interactions}, and {@link EmulatorInvocation.response} awaits it. Throws a `RangeError`
   * naming what does not fit.
   */
  invokeCommand(options: InvokeCommandOptions): Promise<EmulatorInvocation>;
  /**
   * A user clicks a button, or picks `values` in a select, of a message; a MESSAGE_COMPONENT interaction follows.
   * Resolves once delivered; {@link EmulatorInvocation.response} awaits the app's answer.
   */
  clickComponent(options: {
    user: string;
    message: string;
    customId: string;
    values?: string[];
  }): Promise<EmulatorInvocation>;
  /**
   * A user submits the modal an interaction's response opened: `values` by custom id (text, the picked
   * values, or a checkbox's boolean), checked against the modal (required fields, lengths). Resolves once
   * delivered; {@link EmulatorInvocation.response} awaits the app's answer.
   */
  submitModal(options: SubmitModalOptions): Promise<EmulatorInvocation>;
  /** The latest interactions (at most 500), oldest first. */
  interactions(): EmulatorInteraction[];
  /** The application's commands, global ones first, each scope oldest first. */
  commands(): EmulatorCommand[];
  /**
   * Creates a SKU, as the developer portal does: `durable`, `consumable` or `subscription` (renewing every
   * `periodMs`, default 30 days). Throws a `RangeError` for a bad name or period.
   */
  createSku(options: {
    name: string;
    type: 'durable' | 'consumable' | 'subscription';
    periodMs?: number;
    /**
     * The price the store shows (an Activity reads it with `getSkus`), e.g. `{ amount: 499, currency: 'usd' }`;
     * no payment is ever taken. @defaultValue free
     */
    price?: EmulatorSkuPrice;
  }): EmulatorSku;
  /** The application's SKUs, oldest first. */
  skus(): EmulatorSku[];
  /**
   * A user (username or id) buys a SKU, with no payment: an entitlement (ENTITLEMENT_CREATE over the gateway
   * and as a webhook event), and for a subscription SKU an ACTIVE subscription (SUBSCRIPTION_CREATE) whose
   * entitlement has `ends_at` null. `advanceTime` then renews it at each period's end.
   */
  purchaseSku(user: string, skuId: string): EmulatorPurchase;
  /**
   * The user cancels a subscription: ENDING, `canceled_at` set, no renewal SKUs (SUBSCRIPTION_UPDATE). At the
   * period's end it goes INACTIVE and its entitlement gets `ends_at` (ENTITLEMENT_UPDATE).
   */
  cancelSubscription(subscriptionId: string): void;
  /** Every entitlement, oldest first. */
  entitlements(): EmulatorEntitlement[];
  /** Every subscription, oldest first. */
  subscriptions(): EmulatorSubscription[];
  /**
   * Sets the interactions endpoint URL (null: interactions go over the gateway), after checking it the way
   * the developer portal does: a signed PING must be answered with PONG, and a PING with a wrong signature
   * must be refused with 401. Rejects with a `RangeError` saying which check failed.
   */
  setInteractionsEndpointUrl(url: string | null): Promise<void>;
  /**
   * The Activity proxy's origin, `http://<application_id>.localhost:<port>`: requests there go through the
   * URL mappings to the game's servers, with or without the `/.proxy` prefix.
   */
  readonly activityUrl: string;
  /** Replaces the Activity's URL mappings (see EmulatorOptions.activityUrlMappings). */
  setActivityUrlMappings(mappings: EmulatorUrlMapping[]): void;
  /** The Activity's URL mappings, as checked (prefixes without a trailing slash). */
  activityUrlMappings(): EmulatorUrlMapping[];
  /**
   * Launches the Activity for a player, as the client's Activity shelf does: in a channel, where every player
   * joins the same instance, or privately. Returns the player's host page, which runs the game (the root URL
   * mapping) in a frame that speaks the Embedded App SDK's protocol. Throws a RangeError for an unknown user
   * or a channel the player cannot see.
   */
  launchActivity(options: LaunchActivityOptions): EmulatorActivityLaunch;
  /** The live Activity instances, with their connected participants and console lines. */
  activityInstances(): EmulatorActivityInstance[];
  /**
   * Changes how the players' clients show an instance's frames, as the dashboard's control does: the layout
   * (`focused`, `pip`, `grid`: ACTIVITY_LAYOUT_MODE_UPDATE) and the screen's orientation (`portrait`,
   * `landscape`: ORIENTATION_UPDATE), to every frame of the instance subscribed to them (or only `user`'s).
   * Returns how many events were sent; throws a RangeError for an unknown instance.
   */
  setActivityLayout(options: SetActivityLayoutOptions): number;
  /** The Activity links players shared from the game (`shareLink`), oldest first (the last 1000). */
  activityShares(): EmulatorActivityShare[];
  /** Keywords AutoMod blocks in a guild: a message or edit containing one gets 400 200000. */
  setAutoModKeywords(guildId: string, keywords: string[]): void;
  /**
   * Sets a guild's features (`ENHANCED_ROLE_COLORS` lets its roles have gradient colours), as the platform
   * grants them; at most 64 upper-case names. Kept by `--state`; sent in the guild object from then on.
   */
  setGuildFeatures(guildId: string, features: string[]): void;
  /**
   * A member (username or id) makes a guild resource as the chat app would: an `emoji`, a `sticker`, a
   * soundboard `sound`, or an external scheduled `event` starting in an hour. Returns its id; the bot's
   * sessions get the matching event. Throws a `RangeError` for a non-member or a bad name.
   */
  addGuildResource(options: {
    guildId: string;
    user: string;
    kind: 'emoji' | 'sticker' | 'sound' | 'event';
    name: string;
  }): string;
  /**
   * A chat-app user (username or id) writes in a guild text channel, with optional non-text content
   * (attachments, embeds, a poll, stickers, a voice message, a thread it starts); the message is relayed to a
   * lobby linked to the channel, its non-text content with it. Throws a `RangeError` when the user may not
   * view or write there, or the content is not 1–2000 characters (0 allowed with non-text content).
   */
  postChannelMessage(
    channelId: string,
    userIdOrName: string,
    content: string,
    extras?: ChatMessageExtras,
  ): EmulatorChannelMessage;
  /**
   * A full account (username or id) sends a direct message from the Discord client (not from a game: no
   * application id, SentFromGame false) to a user, with optional non-text content; both users' sessions get
   * MESSAGE_CREATE and the recipient's desktop client notifies them. Returns the message id. Throws a
   * `RangeError` for an unknown or provisional sender, an unknown recipient, or content over 2000 characters
   * (or empty without non-text content).
   */
  sendDirectMessageFromDiscord(from: string, to: string, content: string, extras?: ChatMessageExtras): string;
  /**
   * The direct-message notifications of the emulated desktop client, oldest first (the last 256): `shown`
   * false when a game connected to it reported showing chat (SET_SHOWING_CHAT). Empty without a desktop client.
   */
  localClientNotifications(): LocalClientNotification[];
  /**
   * What the emulated desktop client opened for games (OPEN_MESSAGE, OPEN_CONNECTED_GAMES_SETTINGS), oldest
   * first (the last 256). Empty without a desktop client.
   */
  localClientOpened(): LocalClientOpened[];
  /** A channel's messages, oldest first: written in the chat app or relayed from a linked lobby. */
  channelMessages(channelId: string): EmulatorChannelMessage[];
}

/**
 * A saved emulator state (`Emulator.exportState()`, `EmulatorOptions.state`): plain JSON. It holds the bot
 * token, the client secret, the application's Ed25519 key pair (interactions and webhook events are signed with
 * it), users' access and refresh tokens and the ID token signing key, so treat it as a secret of your local
 * setup.
 */
export interface EmulatorSavedState {
  /** Always `'sdkpp-emulator-state'`. */
  format: string;
  /** The format version (2; version 1 files, from before guild roles, are read too). */
  version: number;
  /** When it was saved, ISO 8601. */
  savedAt: string;
  /** The saved world; its shape belongs to the emulator and may change with `version`. */
  data: Record<string, unknown>;
}

/** One delivery of one event to the application's webhook events URL, as the dashboard and tests see it. */
export interface WebhookDelivery {
  /** A number in delivery order. */
  readonly id: number;
  /** The event type, e.g. `APPLICATION_DEAUTHORIZED`. */
  readonly eventType: string;
  /** Where it was sent. */
  readonly url: string;
  /** How many times it was sent so far. */
  readonly attempts: number;
  /** `pending` while a retry is due, then `delivered` (a 2xx answer) or `failed` (out of attempts). */
  readonly state: 'pending' | 'delivered' | 'failed';
  /** The last answer's HTTP status, or null when there was none (refused connection, timeout). */
  readonly status: number | null;
  /** Why the last attempt failed, or null. */
  readonly error: string | null;
}

/** What an emulator says about itself at `<http>/emulator.json`: nothing secret. */
export interface EmulatorPublicInfo {
  /** Its HTTP origin. */
  http: string;
  /** Its API base, `${http}/api/v10`. */
  api: string;
  /** Its gateway WebSocket URL. */
  gateway: string;
  /** Its dashboard page. */
  dashboard: string;
  /** The application id it runs with. */
  applicationId: string;
  /**
   * The application's Ed25519 public key (64 hex digits, `verify_key`): what a backend in another process
   * checks the signatures of interactions and webhook events with.
   */
  applicationPublicKey: string;
  /** Whether it approves authorize requests at once (`--auto-consent`). */
  autoConsent: boolean;
  /** Its full test users, oldest first. */
  users: EmulatorPublicUser[];
}

/** A test user as `/emulator.json` lists it. */
export interface EmulatorPublicUser {
  /** The user id (snowflake). */
  id: string;
  /** The username, e.g. `alice`. */
  username: string;
}

/**
 * What a chat-app user sends besides text, in the emulator's API (`postChannelMessage`,
 * `sendDirectMessageFromDiscord`): names stand for the pieces, whose bytes the emulator does not need.
 */
export interface ChatMessageExtras {
  /** File names of attachments (at most 10); each is an empty file. */
  attachments?: string[];
  /** Titles of embeds (at most 10). */
  embeds?: string[];
  /** A poll's question. */
  poll?: string;
  /** Names of stickers (at most 3). */
  stickers?: string[];
  /** A voice message: one `voice-message.ogg` recording with IS_VOICE_MESSAGE. */
  voiceMessage?: boolean;
  /** The name of a thread the message starts. */
  thread?: string;
}

/** A direct-message notification of the emulated desktop client: shown, or held back for a game showing chat. */
export interface LocalClientNotification {
  /** The message it is about. */
  messageId: string;
  /** The conversation, as the desktop client's user sees it (the author's id). */
  channelId: string;
  authorId: string;
  /** The author's name, as the notification's title shows it. */
  title: string;
  /** The text shown (the message's content, or a word for its non-text content). */
  body: string;
  /** False when a game on this machine said it shows chat (SET_SHOWING_CHAT), so the desktop client kept quiet. */
  shown: boolean;
  /** Unix ms. */
  at: number;
}

/** Something the emulated desktop client opened for a game. */
export interface LocalClientOpened {
  /** A message, or the Connected Games settings. */
  kind: 'message' | 'connectedGamesSettings';
  /** The message opened, or null for the settings. */
  messageId: string | null;
  /** The channel it was opened in (a DM's: the other user's id; a lobby's: the linked channel), or null. */
  channelId: string | null;
  /** Unix ms. */
  at: number;
}
