import { ProvisionalAccount } from '../social/ProvisionalAccount.js';
import { AuthManager } from '../auth/AuthManager.js';
import { openInSystemBrowser } from '../auth/openUrl.js';
import { CallManager } from '../voice/call/CallManager.js';
import { DirectMessageManager } from '../chat/DirectMessageManager.js';
import { LobbyMessageManager } from '../chat/LobbyMessageManager.js';
import { MessageStore } from '../chat/MessageStore.js';
import { DaveProtocolSession } from '../media/index.js';
import { ClientNotReadyError, ValidationError } from '@sdkpp/protocol';
import type { GatewayConnection } from '../gateway/GatewayConnection.js';
import { defaultGatewaySocketFactory } from '../gateway/GatewaySocket.js';
import { GuildManager } from '../guilds/GuildManager.js';
import { InviteManager } from '../invites/InviteManager.js';
import { LobbyManager } from '../lobbies/LobbyManager.js';
import { Logger, LoggingSeverity, type LogWriter } from '../logging/index.js';
import { createMediaEngine, getDefaultMediaEngine, type MediaEngine } from '../media/index.js';
import { PresenceManager } from '../presence/PresenceManager.js';
import { RestClient, type RestRequest } from '../rest/RestClient.js';
import { LocalClientCallbacks } from '../invites/LocalClientCallbacks.js';
import { LocalClientEvents } from '../rpc/LocalClientEvents.js';
import { DesktopChat } from '../chat/DesktopChat.js';
import { ProvisionalMergeWait } from '../session/ProvisionalMergeWait.js';
import { LocalClientLink } from '../rpc/LocalClientLink.js';
import type { SessionContext, SessionFeature } from '../session/SessionContext.js';
import { RelationshipManager } from '../social/RelationshipManager.js';
import { UserStore } from '../social/UserStore.js';
import { systemClock } from '@sdkpp/protocol';
import type { EventMap } from '@sdkpp/protocol';
import { currentSignal } from '@sdkpp/protocol';
import type { ClientEvents } from './ClientEvents.js';
import type { ClientOptions } from './ClientOptions.js';
import { ClientStatus } from './ClientStatus.js';
import { ConnectionManager } from './ConnectionManager.js';
import { HttpWaitStatus } from './HttpWaitStatus.js';

const DEFAULT_API_BASE = 'https://discord.com/api/v10';
const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

/** How the session reaches the client that owns it: its events and its listener-error report. */
export interface SessionHost {
  emit<K extends keyof ClientEvents>(event: K, ...args: ClientEvents[K]): void;
  /** A game callback threw; reported like a throwing listener. */
  listenerError(error: unknown, event: string): void;
}

/** The client's settings that can change after construction. */
export interface SessionSettings {
  applicationId: string | undefined;
  httpTimeoutMs: number;
  readonly launchRegistryDir: string | undefined;
}

/**
 * Everything one client is made of, wired once by {@link createSession}: the facade's methods are one-line
 * calls into these parts. Each part gets what it needs as typed dependencies, not the client.
 */
export interface Session {
  readonly logger: Logger;
  /** The client's own log scope. */
  readonly log: LogWriter;
  readonly settings: SessionSettings;
  readonly auth: AuthManager;
  readonly connection: ConnectionManager;
  /** The shown status: the connection's, or HttpWait while a request waits on a rate limit. */
  readonly httpWait: HttpWaitStatus;
  readonly users: UserStore;
  /** The signed-in user's id while Ready. */
  currentUserId(): string | undefined;
  /** The media engine, chosen on first use. */
  media(): MediaEngine;
  readonly localClient: LocalClientLink;
  readonly localEvents: LocalClientEvents;
  readonly localCallbacks: LocalClientCallbacks;
  readonly presence: PresenceManager;
  readonly relationships: RelationshipManager;
  readonly provisionalAccount: ProvisionalAccount;
  readonly directMessages: DirectMessageManager;
  readonly lobbyMessages: LobbyMessageManager;
  readonly lobbies: LobbyManager;
  readonly calls: CallManager;
  readonly guilds: GuildManager;
  readonly invites: InviteManager;
  /** The one account merge an operation of a provisional player waits for. */
  readonly merge: ProvisionalMergeWait;
  /** Chat through the desktop client: showing chat, opening messages and settings. */
  readonly desktopChat: DesktopChat;
  /** `setVoiceParticipantChangedCallback`'s callback. */
  voiceParticipantCallback: ((lobbyId: string, memberId: string, added: boolean) => void) | undefined;
  /** Set by destroy(): the shutdown under way or done. */
  destroyed: Promise<void> | undefined;
  /** Stops every part; the client's destroy() runs it once. */
  shutDown(): Promise<void>;
}

/** Checks an HTTP timeout in ms. */
export function checkedTimeout(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0 || ms > 2 ** 31 - 1)
    throw new ValidationError('the HTTP timeout must be a positive number of ms');
  return ms;
}

/**
 * The client's composition root: builds every part from the options and wires them together. Features see
 * a {@link SessionContext} typed to their own events; the connection and the signed-in API read the one
 * token source, the AuthManager.
 */
export function createSession(options: ClientOptions, host: SessionHost): Session {
  const logger = new Logger({ debug: options.debug ?? process.env.SDKPP_DEBUG === '1' });
  if (options.logCallback)
    logger.addCallback(options.logCallback, options.logSeverity ?? LoggingSeverity.Info);
  const log = logger.writer('client');
  const settings: SessionSettings = {
    applicationId: options.applicationId,
    httpTimeoutMs: checkedTimeout(options.httpRequestTimeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS),
    launchRegistryDir: options.launchRegistryDir,
  };
  const applicationId = (): string | undefined => settings.applicationId;
  const apiBase = options.apiBase ?? DEFAULT_API_BASE;
  const webBase = options.webBase ?? new URL(apiBase).origin;
  const clock = options.clock ?? systemClock;
  const users = new UserStore();
  users.applicationId = applicationId;
  let currentUserId: string | undefined;
  const features: SessionFeature[] = [];
  const feature = <F extends SessionFeature>(part: F): F => {
    features.push(part);
    return part;
  };

  // The rate limiter reports waits to the status, which reads the connection built after it; no wait is
  // reported before the first request, so `httpWait` is set by then.
  const rest = new RestClient({
    apiBase,
    timeoutMs: () => settings.httpTimeoutMs,
    log: logger.writer('http'),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    clock,
    rateLimits: {
      ...(options.maxRateLimitWaitMs === undefined ? {} : { maxWaitMs: options.maxRateLimitWaitMs }),
      onWait: (waiting, seconds, route) => {
        httpWait.onWait(waiting, seconds, route);
      },
    },
  });
  const localClient = new LocalClientLink(
    options.localClient ?? {},
    applicationId,
    logger.writer('rpc'),
    clock,
  );
  const auth = new AuthManager({
    rest,
    log: logger.writer('auth'),
    clock,
    webBase,
    applicationId,
    openUrl: options.openUrl ?? openInSystemBrowser,
    tokenExpiryWarningMs: options.tokenExpiryWarningMs ?? 300_000,
    localClient: async () => localClient.get(),
    localClientRefusal: () => localClient.refusal,
    events: {
      tokenExpiring: (expiresAt) => {
        host.emit('tokenExpiring', expiresAt);
      },
      deauthorized: (error) => {
        host.emit('deauthorized', error);
      },
    },
  });
  const connection = new ConnectionManager({
    rest,
    log: logger.writer('gateway'),
    clock,
    socketFactory: options.gatewaySocketFactory ?? defaultGatewaySocketFactory,
    tokens: auth,
    gatewayUrl: options.gatewayUrl,
    reconnectDelayMs: options.reconnectDelayMs,
    invalidSessionDelayMs: options.invalidSessionDelayMs,
  });
  const httpWait = new HttpWaitStatus({
    connectionStatus: () => connection.status,
    log: logger.writer('client'),
    emitStatus: (status, error, detail) => {
      host.emit('statusChanged', status, error, detail);
    },
    emitWait: (waiting, seconds, route) => {
      host.emit('httpWait', waiting, seconds, route);
    },
  });
  const readyGateway = (): GatewayConnection | undefined =>
    connection.status === ClientStatus.Ready ? connection.gateway : undefined;
  const presence = new PresenceManager({
    log: logger.writer('presence'),
    clock,
    readyGateway,
    applicationId,
    localClient: async () => localClient.get(),
    localClientRefusal: () => localClient.refusal,
  });

  // Every feature shares one context; its type narrows `emit` to the feature's own events.
  const shared: SessionContext<ClientEvents> = {
    log: logger.writer('social'),
    clock,
    api: async <T>(request: Omit<RestRequest, 'auth'>): Promise<T> => {
      const token = auth.token;
      if (connection.status !== ClientStatus.Ready || token === undefined) throw new ClientNotReadyError();
      const response = await rest.request<T>({
        signal: currentSignal(),
        ...request,
        auth: { kind: 'bearer', token },
      });
      return response.body;
    },
    requireReady: () => {
      if (connection.status !== ClientStatus.Ready) throw new ClientNotReadyError();
    },
    currentUserId: () => currentUserId,
    applicationId,
    emit: (event, ...args) => {
      host.emit(event, ...args);
    },
  };
  // Each feature's event map is a part of ClientEvents (ClientEvents extends them all), so the shared
  // context serves every feature; the type narrows what each may emit.
  const context = <E extends EventMap<E>>(): SessionContext<E> => shared;

  const localCallbacks = new LocalClientCallbacks({
    applicationId: () => settings.applicationId ?? '',
    activityJoin: (secret, inviteApplicationId) => {
      host.emit('activityJoin', secret, inviteApplicationId);
    },
    invite: (invite, sender) => {
      users.upsert(sender);
      host.emit('activityInviteCreated', invite);
    },
    guildStatus: (status) => {
      host.emit('guildStatus', status);
    },
    other: (evt, data) => {
      host.emit('localClientEvent', evt, data);
    },
    callbackError: (error, name) => {
      host.listenerError(error, name);
    },
    log: logger.writer('rpc'),
  });
  const localEvents = new LocalClientEvents({
    transport: async () => localClient.get(),
    deliver: (evt, data) => {
      localCallbacks.route(evt, data);
    },
    log: logger.writer('rpc'),
    clock,
  });

  const relationships = feature(new RelationshipManager(context(), users));
  const messages = new MessageStore();
  const directMessages = feature(new DirectMessageManager(context(), users, messages));
  // Lobbies and their messages and calls refer to each other; each reads the others only after wiring.
  const lobbyMessages = feature(
    new LobbyMessageManager(context(), users, messages, {
      isMember: (lobbyId) => lobbies.isMember(lobbyId),
      handle: (messageId) => directMessages.handle(messageId),
    }),
  );
  const lobbies = feature(
    new LobbyManager(
      context(),
      users,
      (lobbyId) => {
        lobbyMessages.forgetLobby(lobbyId);
      },
      (lobbyId) => session.calls.callInfo(lobbyId),
    ),
  );
  const merge = new ProvisionalMergeWait(logger.writer('social'));
  const desktopChat = new DesktopChat({
    log: logger.writer('rpc'),
    localClient: async () => localClient.get(),
    localClientRefusal: () => localClient.refusal,
    messages,
    users,
    currentUserId: () => currentUserId,
    lobbyIsLinked: (lobbyId) => (lobbies.handle(lobbyId)?.linkedChannel ?? null) !== null,
    merge,
  });
  let mediaEngine: MediaEngine | undefined;
  const media = (): MediaEngine => {
    if (mediaEngine) return mediaEngine;
    const choice = options.mediaEngine ?? 'auto';
    const mediaLog = logger.writer('media');
    if (typeof choice === 'object') mediaEngine = choice;
    else if (choice === 'auto') mediaEngine = getDefaultMediaEngine({ log: mediaLog });
    else mediaEngine = createMediaEngine({ prefer: choice, log: mediaLog });
    mediaLog.info(`media engine: ${mediaEngine.info.engine} ${mediaEngine.info.version}`);
    return mediaEngine;
  };
  const session: Session = {
    logger,
    log,
    settings,
    auth,
    connection,
    httpWait,
    users,
    currentUserId: () => currentUserId,
    media,
    localClient,
    localEvents,
    localCallbacks,
    presence,
    relationships,
    provisionalAccount: new ProvisionalAccount(context(), users),
    directMessages,
    lobbyMessages,
    lobbies,
    calls: feature(
      new CallManager({
        session: context(),
        gateway: readyGateway,
        engine: media,
        isLobbyMember: (lobbyId) => lobbies.isMember(lobbyId),
        log: logger.writer('voice'),
        redact: (line) => logger.redact(line),
        secureVoice: !apiBase.startsWith('http:'),
        ...(options.callJoinTimeoutMs !== undefined ? { joinTimeoutMs: options.callJoinTimeoutMs } : {}),
        ...(options.daveSessionFactory === false
          ? {}
          : {
              dave:
                options.daveSessionFactory ??
                ((o) =>
                  new DaveProtocolSession({
                    selfUserId: o.selfUserId,
                    channelId: o.channelId,
                    logger: o.log,
                  })),
            }),
        ...(options.voiceSocketFactory ? { socketFactory: options.voiceSocketFactory } : {}),
        participantChanged: (lobbyId, memberId, added) => {
          try {
            session.voiceParticipantCallback?.(lobbyId, memberId, added);
          } catch (error) {
            host.listenerError(error, 'voiceParticipantChanged');
          }
        },
      }),
    ),
    guilds: new GuildManager(
      context(),
      users,
      (code) => `${webBase.replace(/\/$/, '')}/invite/${code}`,
      merge,
    ),
    merge,
    desktopChat,
    invites: feature(new InviteManager(context(), users, { current: () => presence.current })),
    voiceParticipantCallback: undefined,
    destroyed: undefined,
    shutDown: async () => {
      auth.dispose();
      localEvents.close();
      localClient.close();
      await session.calls.destroy();
      await connection.destroy();
      log.info('client destroyed');
    },
  };

  connection.on('status', (status, error, detail) => {
    // A new session starts without presence, so the current one is sent again once Ready.
    if (status === ClientStatus.Ready) presence.onReady();
    if (status === ClientStatus.Disconnected) {
      presence.cancel();
      currentUserId = undefined;
      users.clear();
      for (const part of features) part.onDisconnected?.();
    }
    httpWait.onConnectionStatus(status, error, detail);
  });
  connection.on('ready', (data) => {
    const user = users.upsert(data.user);
    currentUserId = user?.id;
    if (user) log.info(`ready as ${user.username} (${user.id})`);
    for (const part of features) part.onReady?.(data);
  });
  connection.on('dispatch', (event, data) => {
    host.emit('dispatch', event, data);
    if (event === 'USER_UPDATE') {
      const user = users.upsert(data);
      if (user) host.emit('userUpdated', user.id);
    }
    for (const part of features) part.onDispatch?.(event, data);
  });
  return session;
}
