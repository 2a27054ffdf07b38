/**
 * The emulator's world as plain, JSON-serialisable data: no class instances, Maps or Dates, so a snapshot
 * can be written to a file and read back (`--state FILE`, a later feature).
 */

/** The one application the emulator serves. */
export interface ApplicationRecord {
  id: string;
  name: string;
  /** The confidential-client secret. */
  clientSecret: string;
  botToken: string;
  /** Custom schemes whose `<scheme>:/authorize/callback` is registered, besides `discord-<id>`. */
  customSchemes: string[];
  /** The privileged gateway intents enabled for the bot (the portal's toggles), as intent bits. */
  privilegedIntents: number;
  /** The portal's Private Channel Obfuscation toggle: on for every bot session, capability or not. */
  channelObfuscation: boolean;
  /**
   * The application's Ed25519 key pair: interactions and webhook events are signed with it, and its public half
   * is `verify_key` (the portal's "Public Key"). Kept so that a receiver configured with it keeps working after
   * a restart.
   */
  signatureKey: ApplicationKeyRecord;
  /** What Edit Current Application (or the portal's General Information page) set; `''` when never set. */
  description: string;
  /** The icon's hash (32 hex digits), or null for none. The emulator keeps no picture. */
  icon: string | null;
  /** The rich presence invite cover image's hash, or null. */
  coverImage: string | null;
  /** Up to 5 tags of at most 20 characters. */
  tags: string[];
  /** The custom install link, or null. */
  customInstallUrl: string | null;
  /** The role connection verification URL, or null. */
  roleConnectionsVerificationUrl: string | null;
  /** The default in-app authorization link's scopes and permissions, or null when it has none. */
  installParams: InstallParamsRecord | null;
  /**
   * The installation contexts the application supports (the portal's Installation page): a context that is
   * absent is not supported; each present one holds its install link's scopes and permissions, or null.
   */
  installContexts: { guild?: InstallParamsRecord | null; user?: InstallParamsRecord | null };
  /**
   * The interactions endpoint URL (checked with a signed PING before it was set), or null: interactions go
   * over the bot's gateway.
   */
  interactionsEndpointUrl: string | null;
  /**
   * The users who installed the app to their account (an authorization with `integration_type=1` and
   * `applications.commands`), until they deauthorize it; absent: none.
   */
  userInstalls?: string[];
}

/** An Ed25519 private key as a JWK (RFC 8037): `d` the 32-byte seed, `x` the public key, both base64url. */
export interface ApplicationKeyRecord {
  kty: 'OKP';
  crv: 'Ed25519';
  d: string;
  x: string;
}

/** Scopes and permissions of an install link. */
export interface InstallParamsRecord {
  /** OAuth2 scopes, e.g. `bot`, `applications.commands`. */
  scopes: string[];
  /** The permissions asked for the bot's role: a decimal bitfield. */
  permissions: string;
}

/** A user account. */
export interface UserRecord {
  id: string;
  username: string;
  globalName: string | null;
  /** A provisional account (user flag 1 << 23), created for an external identity. */
  provisional: boolean;
  /** The application's bot user. */
  bot: boolean;
  /** Banned: cannot sign in; its tokens are gone. */
  banned: boolean;
  /** A provisional account made by a ban: merges of its identity fail with 530017. */
  restricted: boolean;
  /** Unix ms. */
  createdAt: number;
  /** The avatar hash (`a_` prefix: animated), or null for the default avatar. */
  avatar: string | null;
  /** The guild tag shown next to the name (1–4 characters), or null. */
  primaryGuildTag: string | null;
  /** The user's subscription tier (0 none, 1–3); shown only to apps holding `identify.premium`. */
  premiumType: 0 | 1 | 2 | 3;
  /** Accounts of other services the user connected (absent: none); see {@link ConnectionRecord}. */
  connections?: ConnectionRecord[];
  /**
   * The applications in which the user was sent the "your messages can be seen on Discord" disclosure
   * (absent: none); it goes once per user per application.
   */
  disclosedIn?: string[];
}

/** An account of another service a user connected (Get Current User Connections, `connections` scope). */
export interface ConnectionRecord {
  /** The service, as the platform names it (`github`, `steam`, `twitch`, …). */
  type: string;
  /** The account's id on that service. */
  id: string;
  /** The account's name on that service. */
  name: string;
  verified: boolean;
  /** 0: only the user sees it; 1: everyone does. */
  visibility: 0 | 1;
  friendSync: boolean;
  showActivity: boolean;
  twoWayLink: boolean;
  /** Whether the connection was revoked. */
  revoked: boolean;
}

/** How an access token came to be. */
export type TokenOrigin = 'oauth2' | 'provisional' | 'provisional-bot';

/** An access token. */
export interface AccessTokenRecord {
  token: string;
  userId: string;
  /** The scope string echoed to the client, as requested. */
  scope: string;
  /** Everything granted: the requested scopes and what bundles expand to. */
  scopes: string[];
  /** Unix ms. */
  expiresAt: number;
  origin: TokenOrigin;
  /** Tokens of one authorization (a code and every refresh after it) share this id. */
  grantId: string;
  /**
   * The child application a publisher-level child token was exchanged for (`POST /partner-sdk/child-token`);
   * absent for tokens of the served application itself.
   */
  applicationId?: string;
}

/** A refresh token; single use (refresh rotates it). */
export interface RefreshTokenRecord {
  token: string;
  userId: string;
  scope: string;
  scopes: string[];
  grantId: string;
  /** The access token issued together with this refresh token; it dies when this one is used. */
  accessToken: string;
  /** Whether the grant includes `openid`, so a refresh also returns an ID token. */
  openid: boolean;
}

/** An authorization code. Used codes stay a while so a replay can be detected and punished. */
export interface CodeRecord {
  code: string;
  userId: string;
  redirectUri: string;
  scope: string;
  scopes: string[];
  /** The PKCE S256 challenge; null for a code only a confidential client (with its secret) may exchange. */
  codeChallenge: string | null;
  nonce: string | null;
  /** Unix ms. */
  expiresAt: number;
  /** Unix ms of the successful exchange, or null. */
  usedAt: number | null;
  grantId: string;
}

/** The external identity types of the provisional-account API. */
export const EXTERNAL_AUTH_TYPES = [
  'OIDC',
  'STEAM_SESSION_TICKET',
  'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  'EPIC_ONLINE_SERVICES_ID_TOKEN',
  'UNITY_SERVICES_ID_TOKEN',
  'APPLE_ID_TOKEN',
  'PLAYSTATION_NETWORK_ID_TOKEN',
  'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
] as const;

/** One of {@link EXTERNAL_AUTH_TYPES}. */
export type ExternalAuthType = (typeof EXTERNAL_AUTH_TYPES)[number];

/** Who vouches for an identity: an external provider, or the application's bot (`/partner-sdk/token/bot`). */
export type IdentityProvider = Exclude<ExternalAuthType, 'DISCORD_BOT_ISSUED_ACCESS_TOKEN'> | 'DISCORD_BOT';

/** A game identity linked to an account: provisional while unmerged, a full account once merged. */
export interface IdentityRecord {
  /** `${provider}:${subject}`. */
  key: string;
  provider: IdentityProvider;
  /** The provider's user id (JWT `sub`, bot `external_user_id`, or a hash of an opaque token). */
  subject: string;
  /** The issuer when the identity came from a JWT. */
  issuer: string | null;
  /** The display name a new provisional account for this identity gets. */
  displayName: string | null;
  userId: string;
}

/** Relationship types a user can hold towards another (1 friend, 2 blocked, 3 incoming, 4 outgoing). */
export type RelationshipKind = 1 | 2 | 3 | 4;

/**
 * How `ownerId` relates to `targetId`. Relationships are one-sided records: a friend request is an
 * outgoing record for the sender and an incoming one for the receiver; a block exists only for the blocker.
 */
export interface RelationshipRecord {
  ownerId: string;
  targetId: string;
  type: RelationshipKind;
  /** Unix ms when this type was reached. */
  since: number;
}

/** An activity invite or join request carried by a direct message. */
export interface MessageActivityRecord {
  /** 1 Join (an invite to the sender's party), 5 JoinRequest (a request to join the recipient's party). */
  type: 1 | 5;
  partyId: string;
  /** The sender's gateway session the invite was sent from. */
  sessionId: string;
  /** False once the host's party ended or changed; the invite can then no longer be accepted. */
  valid: boolean;
}

/** A direct message between two users, as sent in a game. */
export interface DirectMessageRecord {
  id: string;
  authorId: string;
  recipientId: string;
  content: string;
  /** Developer metadata set by the sender. */
  metadata: Record<string, string>;
  /** Set only by the game backend (bot token). */
  moderationMetadata: Record<string, string>;
  /** The application the message was sent from. */
  applicationId: string | null;
  /** Unix ms. */
  createdAt: number;
  /** Unix ms of the last edit, or null. */
  editedAt: number | null;
  /** Present on activity invites and join requests. */
  activity: MessageActivityRecord | null;
  /** Non-text content of a message sent from the chat client (absent: none). */
  rich?: RichContentRecord;
}

/**
 * The non-text content of a message written in the chat client (attachments, embeds, a poll, stickers, a voice
 * message, the thread it started), kept with a direct message or a lobby message relayed from a linked
 * channel. Games get it on the wire as the platform sends such messages and summarise it (AdditionalContent).
 */
export interface RichContentRecord {
  /** Attachments (a voice message's recording among them). */
  attachments: RichAttachmentRecord[];
  /** Embeds as the chat client or bot sent them. */
  embeds: unknown[];
  /** The poll's question, or null for no poll. */
  pollQuestion: string | null;
  /** Stickers sent with the message. */
  stickers: { id: string; name: string }[];
  /** The message is a voice message (IS_VOICE_MESSAGE, 1 << 13): its one attachment is the recording. */
  voiceMessage: boolean;
  /** The thread the message started, or null. */
  thread: { id: string; name: string } | null;
}

/** An attachment of a {@link RichContentRecord}. */
export interface RichAttachmentRecord {
  id: string;
  filename: string;
  /** Bytes. */
  size: number;
  contentType: string | null;
  /** Where the bytes are served, or null when the emulator holds none (a made-up chat-client upload). */
  url: string | null;
}

/** Member flag: the member may link a guild channel to the lobby (CanLinkLobby). */
export const LOBBY_MEMBER_CAN_LINK = 1 << 0;

/** A member of a lobby. */
export interface LobbyMemberRecord {
  userId: string;
  /** Developer metadata of this member (≤25 keys, ≤1000 characters of keys and values). */
  metadata: Record<string, string>;
  /** Member flags; 1 << 0 is CanLinkLobby. */
  flags: number;
  /** A display name the game backend gives the member (a character name), 1–80 characters, or null. */
  additionalName: string | null;
  /** Unix ms. */
  joinedAt: number;
}

/** A lobby of the application. */
export interface LobbyRecord {
  id: string;
  /**
   * Who made it: `sdk` (a player's `PUT /lobbies`; deleted as soon as its last member leaves) or `bot` (the
   * game backend; players can neither join it by secret unless it has one, nor leave it).
   */
  createdBy: 'sdk' | 'bot';
  /** The create-or-join secret (per application), or null for lobbies made with `POST /lobbies`. */
  secret: string | null;
  metadata: Record<string, string>;
  /** Members in the order they joined. */
  members: LobbyMemberRecord[];
  /** Lobby flags (0 or 1; the platform does not document the bit). */
  flags: number;
  /** How long the lobby lives once no member has a connected gateway session (5–604800). */
  idleTimeoutSeconds: number;
  /** The guild text channel linked to the lobby, or null. */
  linkedChannelId: string | null;
  /** Unix ms. */
  createdAt: number;
  /** Unix ms since when no member had a connected gateway session (one with a socket attached); null while one has. */
  idleSince: number | null;
}

/** A message in a lobby, sent from the game (a member or the bot) or relayed from the linked channel. */
export interface LobbyMessageRecord {
  id: string;
  lobbyId: string;
  authorId: string;
  content: string;
  /** Developer metadata set by the sender (never relayed to the linked channel). */
  metadata: Record<string, string>;
  /** Set only by the game backend (bot token). */
  moderationMetadata: Record<string, string>;
  /** True when sent from the game (SDK or bot); false when relayed from the linked channel. */
  fromGame: boolean;
  /** The author's member additional name when the message was sent. */
  additionalName: string | null;
  /** Unix ms. */
  createdAt: number;
  /** Unix ms of the last edit, or null. */
  editedAt: number | null;
  /** Non-text content of a message relayed from the linked channel (absent: none). */
  rich?: RichContentRecord;
}

/** A per-channel permission overwrite: for a role (`type` 0; the guild id is the @everyone role) or a member (1). */
export interface ChannelOverwriteRecord {
  /** The role id (the guild id for @everyone) or the user id. */
  id: string;
  type: 0 | 1;
  /** Permission bits granted, as a decimal string. */
  allow: string;
  /** Permission bits taken away, as a decimal string. */
  deny: string;
}

/** A guild role. The @everyone role has the guild's id and is every member's without being listed. */
export interface RoleRecord {
  id: string;
  name: string;
  /** Permission bits, as a decimal string. */
  permissions: string;
  /** Sort position; @everyone is 0. */
  position: number;
  /** RGB colour (the deprecated `color`; 0 for none); always `colors.primary_color`. */
  color: number;
  /** A gradient's second colour (ENHANCED_ROLE_COLORS guilds only), or null / absent for a solid colour. */
  secondaryColor?: number | null;
  /** A holographic style's third colour (needs a second one too), or null / absent. */
  tertiaryColor?: number | null;
  /** Shown apart in the member list. */
  hoist: boolean;
  mentionable: boolean;
  /** The bot user whose own role this is (made when the bot joined), or null; such a role is managed. */
  botId: string | null;
}

/** A member of a guild. */
export interface GuildMemberRecord {
  /** Role ids besides @everyone. */
  roles: string[];
  nick: string | null;
  /** Unix ms. */
  joinedAt: number;
  /** Guild-specific avatar, banner and bio (Modify Current Member); null for none. */
  avatar: string | null;
  banner: string | null;
  bio: string | null;
  /** Server mute in voice channels (Modify Guild Member `mute`). Absent in states saved before guild voice. */
  mute?: boolean;
  /** Server deafen in voice channels (`deaf`). Absent in states saved before guild voice. */
  deaf?: boolean;
}

/** A guild (a server of the chat app) whose channels players may link to lobbies and bots live in. */
export interface GuildRecord {
  id: string;
  name: string;
  /** The icon's hash (Modify Guild); absent: no icon. */
  icon?: string;
  /** The guild's description (Modify Guild); absent: none. */
  description?: string;
  /** The owner holds every permission everywhere in the guild. */
  ownerId: string;
  /** The members by user id, the owner included. */
  members: Record<string, GuildMemberRecord>;
  /** The roles by id, @everyone (the guild id) included. */
  roles: Record<string, RoleRecord>;
  /** Unix ms. */
  createdAt: number;
  /**
   * The banned users by user id (absent in states saved before bans: none). Only ids of existing users: a ban
   * is refused for an unknown user, and one whose user was deleted since is dropped when the list is read.
   */
  bans?: Record<string, GuildBanRecord>;
  /** Guild features (`ENHANCED_ROLE_COLORS`, …) the admin hook `setGuildFeatures` gave it; absent: none. */
  features?: string[];
  /** Custom emoji by id (absent in states saved before them: none). */
  emojis?: Record<string, GuildEmojiRecord>;
  /** Stickers by id (absent: none). */
  stickers?: Record<string, GuildStickerRecord>;
  /** Soundboard sounds by id (absent: none). */
  soundboardSounds?: Record<string, SoundboardSoundRecord>;
  /** Scheduled events by id (absent: none). */
  scheduledEvents?: Record<string, ScheduledEventRecord>;
  /** AutoMod rules by id (absent: none). */
  autoModRules?: Record<string, AutoModRuleRecord>;
}

/** A guild's custom emoji; the emulator keeps its name and kind, not the picture. */
export interface GuildEmojiRecord {
  id: string;
  /** 2–32 letters, digits and underscores. */
  name: string;
  animated: boolean;
  /** Who made it (a user, or the bot): editing another's needs MANAGE_GUILD_EXPRESSIONS. */
  userId: string;
  /** Roles allowed to use it (empty: everyone). */
  roles: string[];
  /** Unix ms. */
  createdAt: number;
}

/** A guild sticker; the emulator keeps its fields and format, not the file. */
export interface GuildStickerRecord {
  id: string;
  /** 2–30 characters. */
  name: string;
  /** 0–100 characters, or null. */
  description: string | null;
  /** The autocomplete tags (an emoji name or words), up to 200 characters. */
  tags: string;
  /** 1 PNG, 2 APNG, 3 LOTTIE, 4 GIF. */
  formatType: 1 | 2 | 3 | 4;
  userId: string;
  /** Unix ms. */
  createdAt: number;
}

/** A guild soundboard sound; the emulator keeps its fields, not the audio. */
export interface SoundboardSoundRecord {
  id: string;
  /** 2–32 characters. */
  name: string;
  /** 0–1. */
  volume: number;
  emojiId: string | null;
  emojiName: string | null;
  userId: string;
  /** Unix ms. */
  createdAt: number;
}

/** A guild scheduled event: 1 STAGE_INSTANCE, 2 VOICE (a channel), 3 EXTERNAL (a location and an end time). */
export interface ScheduledEventRecord {
  id: string;
  /** The stage or voice channel; null for an external event. */
  channelId: string | null;
  creatorId: string;
  /** 1–100 characters. */
  name: string;
  /** 0–1000 characters, or null. */
  description: string | null;
  /** Unix ms. */
  startsAt: number;
  /** Unix ms, or null (required for external events). */
  endsAt: number | null;
  entityType: 1 | 2 | 3;
  /** 1 SCHEDULED, 2 ACTIVE, 3 COMPLETED, 4 CANCELED. */
  status: 1 | 2 | 3 | 4;
  /** External events: where (1–100 characters); null otherwise. */
  location: string | null;
  /** Unix ms. */
  createdAt: number;
}

/** An AutoMod rule (the keyword kinds the emulator enforces: KEYWORD 1 and MEMBER_PROFILE 6). */
export interface AutoModRuleRecord {
  id: string;
  name: string;
  creatorId: string;
  /** 1 MESSAGE_SEND, 2 MEMBER_UPDATE. */
  eventType: 1 | 2;
  /** 1 KEYWORD, 6 MEMBER_PROFILE. */
  triggerType: 1 | 6;
  /** `keyword_filter` (matched case-insensitively, `*` at either end as the platform's wildcards). */
  keywords: string[];
  /** `allow_list`: words that never match. */
  allowList: string[];
  /** Actions as validated: `{type, metadata}` (1 BLOCK_MESSAGE, 2 SEND_ALERT_MESSAGE, 3 TIMEOUT, 4 BLOCK_MEMBER_INTERACTION). */
  actions: { type: 1 | 2 | 3 | 4; metadata: Record<string, unknown> }[];
  enabled: boolean;
  exemptRoles: string[];
  exemptChannels: string[];
}

/** A guild ban: the user may not join the guild again until it is lifted. */
export interface GuildBanRecord {
  /** The `X-Audit-Log-Reason` given with the ban (at most 512 characters), or null. */
  reason: string | null;
}

/** A channel of a guild: 0 text, 2 voice, 4 category. */
export interface GuildChannelRecord {
  id: string;
  guildId: string;
  name: string;
  type: number;
  /** Sort position among its siblings. */
  position: number;
  /** The category the channel is in, or null at the top level. */
  parentId: string | null;
  overwrites: ChannelOverwriteRecord[];
  /** Text channels: the topic (0–1024 characters), or null. Absent in states saved before bots. */
  topic?: string | null;
  /** Text channels: age-restricted. */
  nsfw?: boolean;
  /** Text channels: slowmode seconds (0–21600); bots are not subject to it. */
  rateLimitPerUser?: number;
  /** Voice channels: at most this many users (1–99; 0 or absent: no limit). MOVE_MEMBERS passes it. */
  userLimit?: number;
  /** Voice channels: bits per second (8000–96000). @defaultValue 64000 */
  bitrate?: number;
  /** Voice channels: the voice region id, or null (absent) for automatic. */
  rtcRegion?: string | null;
}

/** A file attached to a channel message; the bytes live in memory beside the store, not in it. */
export interface AttachmentRecord {
  id: string;
  filename: string;
  /** Bytes. */
  size: number;
  contentType: string | null;
  /** Alt text (0–1024 characters), or null. */
  description: string | null;
  /** Marked as a spoiler (`is_spoiler`, or the legacy `SPOILER_` filename prefix). */
  spoiler: boolean;
}

/** What a message points at: a reply (type 0) or a forward (type 1, with a snapshot of the original). */
export interface MessageReferenceRecord {
  type: 0 | 1;
  messageId: string;
  channelId: string;
  guildId: string;
}

/** The part of a forwarded message that travels with the forward (the document's `message_snapshot`). */
export interface MessageSnapshotRecord {
  content: string;
  embeds: unknown[];
  attachments: AttachmentRecord[];
  flags: number;
  /** Unix ms of the original. */
  createdAt: number;
  editedAt: number | null;
}

/**
 * A message in a guild channel: written by a chat-app user or a bot, or relayed from the linked lobby. The
 * fields after `createdAt` came with bots; a state saved before them lacks them, which reads as their empty
 * value.
 */
export interface ChannelMessageRecord {
  id: string;
  channelId: string;
  authorId: string;
  content: string;
  /** The lobby the message was relayed from, or null when a user wrote it in the chat app. */
  fromLobbyId: string | null;
  /** Unix ms. */
  createdAt: number;
  /** Unix ms of the last edit, or null. */
  editedAt?: number | null;
  /** Embeds as validated (≤ 10, each ≤ 25 fields). */
  embeds?: unknown[];
  attachments?: AttachmentRecord[];
  /** Components as validated (legacy action rows, or Components V2 with flag 1 << 15). */
  components?: unknown[];
  /** Message flags (IS_COMPONENTS_V2 = 1 << 15, SUPPRESS_EMBEDS = 1 << 2, …). */
  flags?: number;
  /** The sender's nonce, or null. */
  nonce?: string | null;
  /** Unix ms when pinned, or null. */
  pinnedAt?: number | null;
  reference?: MessageReferenceRecord | null;
  /** Present on forwards. */
  snapshot?: MessageSnapshotRecord | null;
  /** Users mentioned as `<@id>`. */
  mentions?: string[];
  /** Roles mentioned as `<@&id>`. */
  mentionRoles?: string[];
  /** Set on messages made by an interaction response or follow-up. */
  interaction?: MessageInteractionRecord | null;
  /** A poll (set when a deferred response is edited into one), as validated. */
  poll?: unknown;
  /** Stickers a chat-app user sent with the message (absent: none). */
  stickers?: { id: string; name: string }[];
  /** The thread a chat-app user started from the message (absent or null: none). */
  thread?: { id: string; name: string } | null;
}

/** What a message made by an interaction remembers of it (`interaction_metadata`). */
export interface MessageInteractionRecord {
  id: string;
  type: number;
  /** The command's name (for the deprecated `interaction` field). */
  name: string;
  userId: string;
  /** `authorizing_integration_owners`: installation context → guild or user id (strings). */
  owners: Record<string, string>;
  /** Follow-ups: the interaction's original response message. */
  originalResponseMessageId: string | null;
}

/**
 * An invite to a guild channel: a lobby channel invite (`lobbyId` set: single use, valid one hour) or a guild
 * invite a bot made (`lobbyId` null: `maxUses` and `maxAgeSeconds`, roles given on acceptance, an optional
 * list of the only users who may accept it).
 */
export interface ChannelInviteRecord {
  code: string;
  guildId: string;
  channelId: string;
  /** The lobby whose linked channel it is for, or null for a guild invite. */
  lobbyId: string | null;
  /** Only this user may redeem it (null: anyone). */
  forUserId: string | null;
  /** Unix ms. */
  createdAt: number;
  /** Unix ms; Number.MAX_SAFE_INTEGER for an invite that never expires. */
  expiresAt: number;
  /** Unix ms of the redemption (lobby invites), or null. */
  usedAt: number | null;
  /** Guild invites: uses allowed (0: unlimited). */
  maxUses?: number;
  /** Guild invites: uses so far. */
  uses?: number;
  /** Guild invites: the asked lifetime in seconds (0: never expires). */
  maxAgeSeconds?: number;
  /** Guild invites: membership that ends when the user goes offline. */
  temporary?: boolean;
  /** Guild invites: roles given on acceptance (`role_ids`). */
  roleIds?: string[];
  /** Guild invites: the only users who may accept (`target_users_file`), or null for anyone. */
  targetUserIds?: string[] | null;
  /** Who made it (the bot), or null. */
  inviterId?: string | null;
}

/** An application command (slash command, context menu, or the entry point). */
export interface CommandRecord {
  id: string;
  /** The guild of a guild command, or null for a global one. */
  guildId: string | null;
  /** 1 CHAT_INPUT, 2 USER, 3 MESSAGE, 4 PRIMARY_ENTRY_POINT. */
  type: 1 | 2 | 3 | 4;
  name: string;
  /** Empty for context-menu commands. */
  description: string;
  /** Options as validated (chat input only). */
  options: unknown[];
  /** Permission bits a member needs by default (decimal string), or null for everyone. */
  defaultMemberPermissions: string | null;
  /** Installation contexts (0 guild, 1 user). */
  integrationTypes: number[];
  /** Interaction contexts (0 guild, 1 bot DM, 2 private channel). */
  contexts: number[];
  nsfw: boolean;
  /** Entry point commands: 1 APP_HANDLER, 2 DISCORD_LAUNCH_ACTIVITY; null for others. */
  handler: 1 | 2 | null;
  /** A snowflake that changes with each update. */
  version: string;
}

/** An emoji of the application (usable in any guild by its bot). */
export interface AppEmojiRecord {
  id: string;
  /** 2–32 letters, digits and underscores, unique in the application. */
  name: string;
  animated: boolean;
  /** Unix ms. */
  createdAt: number;
}

/** A SKU of the application: what can be bought. */
export interface SkuRecord {
  id: string;
  /** 2 DURABLE, 3 CONSUMABLE, 5 SUBSCRIPTION (6 SUBSCRIPTION_GROUP is the platform's own, not made here). */
  type: 2 | 3 | 5;
  name: string;
  slug: string;
  /** AVAILABLE 1 << 2, and for subscriptions GUILD_SUBSCRIPTION 1 << 7 or USER_SUBSCRIPTION 1 << 8. */
  flags: number;
  /** Subscriptions: the length of one period, in ms. */
  periodMs: number | null;
  /** The price the store shows, in the currency's smallest unit (no payment is ever taken); absent: free. */
  price?: SkuPrice;
}

/** A SKU's price: `amount` in the currency's smallest unit (cents), `currency` an ISO 4217 code in lower case. */
export interface SkuPrice {
  amount: number;
  currency: string;
}

/** An entitlement: a user's (or guild's) right to a SKU. */
export interface EntitlementRecord {
  id: string;
  skuId: string;
  userId: string | null;
  guildId: string | null;
  /** 1 PURCHASE (subscriptions too, after the 2024 migration), 4 TEST_MODE_PURCHASE, … */
  type: number;
  /** Unix ms, or null. */
  startsAt: number | null;
  /** Unix ms when it ends or ended, or null: indefinite (an ongoing subscription). */
  endsAt: number | null;
  consumed: boolean;
  deleted: boolean;
  /** The subscription it belongs to, or null. */
  subscriptionId: string | null;
}

/** A user's subscription to a subscription SKU. */
export interface SubscriptionRecord {
  id: string;
  userId: string;
  skuIds: string[];
  entitlementIds: string[];
  /** The SKUs the user will be subscribed to at renewal (empty once canceled). */
  renewalSkuIds: string[];
  /** Unix ms. */
  currentPeriodStart: number;
  /** Unix ms. */
  currentPeriodEnd: number;
  /** 0 ACTIVE, 1 INACTIVE, 2 ENDING (the document's values). */
  status: 0 | 1 | 2;
  /** Unix ms of the cancellation, or null. */
  canceledAt: number | null;
}

/** The whole store. */
export interface StoreState {
  version: 2;
  application: ApplicationRecord;
  /** The private key that signs ID tokens, as a JWK. */
  signingKey: Record<string, unknown>;
  users: Record<string, UserRecord>;
  accessTokens: Record<string, AccessTokenRecord>;
  refreshTokens: Record<string, RefreshTokenRecord>;
  codes: Record<string, CodeRecord>;
  identities: Record<string, IdentityRecord>;
  /** Platform relationships by `${ownerId}:${targetId}`. */
  relationships: Record<string, RelationshipRecord>;
  /** Game relationships (this application only) by `${ownerId}:${targetId}`; types 1, 3 and 4. */
  gameRelationships: Record<string, RelationshipRecord>;
  /** Direct messages by id. */
  messages: Record<string, DirectMessageRecord>;
  /** Lobbies by id. */
  lobbies: Record<string, LobbyRecord>;
  /** Lobby messages by id. */
  lobbyMessages: Record<string, LobbyMessageRecord>;
  /** Guilds by id. */
  guilds: Record<string, GuildRecord>;
  /** Guild channels by id. */
  channels: Record<string, GuildChannelRecord>;
  /** Guild channel messages by id. */
  channelMessages: Record<string, ChannelMessageRecord>;
  /** Lobby channel invites by code. */
  channelInvites: Record<string, ChannelInviteRecord>;
  /** Application commands by id (absent in states saved before bots: read as none). */
  commands: Record<string, CommandRecord>;
  /** Application emoji by id (absent in states saved before bots: read as none). */
  appEmojis: Record<string, AppEmojiRecord>;
  /** SKUs by id (absent in older states: none). */
  skus: Record<string, SkuRecord>;
  /** Entitlements by id (absent in older states: none). */
  entitlements: Record<string, EntitlementRecord>;
  /** Subscriptions by id (absent in older states: none). */
  subscriptions: Record<string, SubscriptionRecord>;
}
