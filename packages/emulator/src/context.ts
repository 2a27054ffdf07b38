import type { Accounts } from './accounts/Accounts.js';
import type { ActivityInstances } from './activities/ActivityInstances.js';
import type { ActivityShares } from './activities/ActivityShares.js';
import type { ActivityProxy } from './activities/ActivityProxy.js';
import type { BotGateway } from './bot/botGateway.js';
import type { GatewayHub } from './gateway/GatewayHub.js';
import type { Commands } from './interactions/Commands.js';
import type { InteractionFlow } from './interactions/InteractionFlow.js';
import type { Interactions } from './interactions/Interactions.js';
import type { Premium } from './premium/Premium.js';
import type { EmulatorLog } from './log.js';
import type { PublisherApplication } from './oauth/publisherApplications.js';
import type { IdTokenSigner } from './oauth/idToken.js';
import type { DirectMessages } from './social/DirectMessages.js';
import type { Guilds } from './social/Guilds.js';
import type { GuildVoiceJoins } from './social/guildVoiceJoins.js';
import type { Invites } from './social/Invites.js';
import type { Lobbies } from './social/Lobbies.js';
import type { PresenceService } from './social/PresenceService.js';
import type { Relationships } from './social/Relationships.js';
import type { EmulatorStore } from './store/Store.js';
import type { WebhookEvents } from './webhooks/WebhookEvents.js';

/** The emulator's public addresses. */
export interface EmulatorUrls {
  /** HTTP origin, also the ID token issuer. */
  http: string;
  /** API base, `${http}/api/v10`. */
  api: string;
  /** Gateway WebSocket URL. */
  gateway: string;
}

/**
 * The options that routes and connections read while they serve. The rest of the resolved options
 * (options.ts, `ResolvedOptions`, which extends this) are read once, where Emulator.ts builds the services and
 * servers. options.ts stands above the faces, since it checks options of theirs (rate limits, URL mappings).
 */
export interface ContextOptions {
  autoConsent: boolean;
  codeTtlMs: number;
  accessTokenTtlSeconds: number;
  /** The device authorization grant's first polling interval, in seconds. */
  deviceCodeIntervalSeconds: number;
  /** How long a device code and its user code live, in seconds. */
  deviceCodeTtlSeconds: number;
  /** How long a desktop-client connection may wait before its handshake. */
  rpcHandshakeTimeoutMs: number;
  /** `EmulatorOptions.maxOutboundBufferBytes`. */
  maxOutboundBufferBytes: number;
  /** `EmulatorOptions.publisherApplications`, checked: the publisher's child applications and foreign ones. */
  publisherApplications: PublisherApplication[];
}

/** Everything a route or service of one emulator instance needs; passed explicitly, never global. */
export interface EmulatorContext {
  options: ContextOptions;
  urls: EmulatorUrls;
  store: EmulatorStore;
  accounts: Accounts;
  hub: GatewayHub;
  /** Every user's merged presence (gateway sessions and local-client connections). */
  presence: PresenceService;
  /** The friend graph. */
  relationships: Relationships;
  /** Direct messages. */
  messages: DirectMessages;
  /** Activity invite rules. */
  invites: Invites;
  /** Guilds, channels, permissions, channel messages and lobby channel invites. */
  guilds: Guilds;
  /** Guild voice channels with media: joins, moves, and the rules on a participant's audio. */
  guildVoice: GuildVoiceJoins;
  /** The application's commands. */
  commands: Commands;
  /** Live interactions. */
  interactions: Interactions;
  /** Interactions from invocation to response. */
  flow: InteractionFlow;
  /** The interactions endpoint URL (null: interactions go over the gateway). */
  interactionsEndpoint: { url: string | null };
  /** The Activity proxy (URL mappings to the game's servers). */
  activityProxy: ActivityProxy;
  /** The live Activity instances and their participants. */
  activities: ActivityInstances;
  /** The Activity links players shared from the game. */
  activityShares: ActivityShares;
  /** SKUs, entitlements and subscriptions. */
  premium: Premium;
  /** The bot's view of guilds over the gateway. */
  bot: BotGateway;
  /** The application's lobbies, their members and messages. */
  lobbies: Lobbies;
  signer: IdTokenSigner;
  /** The application's webhook events: signing key, URL and deliveries. */
  webhooks: WebhookEvents;
  log: EmulatorLog;
  /** Key of the consent form's anti-CSRF tokens; random per instance. */
  csrfKey: Buffer;
}
