import { OidcVerifier } from './oauth/oidcVerifier.js';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { isIPv4, type AddressInfo } from 'node:net';

import { createMediaEngine, type MediaEngine } from 'sdkpp/media';
import { readLaunchCommands } from '@sdkpp/protocol';
import { systemClock } from '@sdkpp/protocol';
import { Accounts } from './accounts/Accounts.js';
import { wireUser } from './accounts/userObject.js';
import { setConnections } from './accounts/connections.js';
import type { EmulatorContext, EmulatorUrls } from './context.js';
import { Dashboard } from './dashboard/Dashboard.js';
import { GatewayHub } from './gateway/GatewayHub.js';
import { GATEWAY_PATH, GatewayServer } from './gateway/GatewayServer.js';
import { allRoutes } from './http/routes.js';
import { HttpRateLimits } from './http/rateLimits.js';
import { Router } from './http/router.js';
import { EmulatorLog } from './log.js';
import { IdTokenSigner, generateSigningJwk } from './oauth/idToken.js';
import { portalDefaults } from './store/migrate.js';
import { removeUserInstall } from './store/userInstalls.js';
import { generateApplicationKey } from './store/applicationKey.js';
import { resolveOptions, webhookUrl, type ResolvedOptions } from './options.js';
import { randomToken } from './random.js';
import { SnowflakeGenerator } from './snowflake.js';
import { DirectMessages } from './social/DirectMessages.js';
import { Invites } from './social/Invites.js';
import { GuildAdmin } from './social/guildAdmin.js';
import { Guilds } from './social/Guilds.js';
import { seedGuild } from './social/seedGuild.js';
import { Lobbies } from './social/Lobbies.js';
import { ActivityHost } from './activityHost/ActivityHost.js';
import { ActivityInstances } from './activities/ActivityInstances.js';
import { ActivityShares } from './activities/ActivityShares.js';
import { ActivityProxy, activityOrigin } from './activities/ActivityProxy.js';
import { activityInstances, launchActivity, launchFor } from './activityHost/activityAdmin.js';
import { wireBotGateway } from './bot/botGateway.js';
import { addUserResource } from './social/resourceAdmin.js';
import { wireResourceGateway } from './bot/resourceGateway.js';
import { wireMessageWebhookEvents } from './webhooks/messageEvents.js';
import { enrollInQuest } from './webhooks/questEnrollment.js';
import { Premium, SkuType } from './premium/Premium.js';
import { entitlementView, skuView, subscriptionView } from './premium/premiumAdmin.js';
import { wirePremiumEvents } from './premium/premiumEvents.js';
import { wireBotRequests } from './bot/botRequests.js';
import { Commands } from './interactions/Commands.js';
import { InteractionFlow } from './interactions/InteractionFlow.js';
import { Interactions } from './interactions/Interactions.js';
import { commandView, InteractionAdmin, interactionView } from './interactions/interactionAdmin.js';
import { verifyInteractionsEndpoint } from './interactions/endpointCheck.js';
import { wireLobbyGateway } from './social/lobbyGateway.js';
import { wireLobbyRelay } from './social/lobbyRelay.js';
import { wireDisclosures } from './social/disclosures.js';
import { richFromExtras, type ChatMessageExtras } from './social/richContent.js';
import { LocalClientServer } from './localClient/LocalClientServer.js';
import { deviceAuthorizationsOf } from './oauth/deviceAuthorizations.js';
import { deviceScreenOf } from './oauth/deviceScreen.js';
import type { LocalClientOpened } from './localClient/chatCommands.js';
import type { LocalClientNotification } from './localClient/notifications.js';
import { PresenceService } from './social/PresenceService.js';
import { Relationships } from './social/Relationships.js';
import { wireSocialGateway } from './social/socialGateway.js';
import { EmulatorStore, type UserPatch } from './store/Store.js';
import { wirePresence } from './social/wire.js';
import { exportStoreState, importStoreState, StateExportError } from './store/persist.js';
import type { StoreState } from './store/types.js';
import { createBrowserOpener } from './testing/browser.js';
import { ChannelVoiceUser, type ChannelVoiceUserDeps } from './social/ChannelVoiceUser.js';
import { GuildVoiceJoins } from './social/guildVoiceJoins.js';
import { loadLocalCa } from './tls/localCa.js';
import { wireVoiceStates } from './social/voiceStates.js';
import { VoiceCalls } from './voice/VoiceCalls.js';
import { VoiceServer } from './voice/VoiceServer.js';
import { DaveCoordinator } from './voice/dave/DaveCoordinator.js';
import type {
  BrowserOptions,
  Emulator,
  EmulatorChannelMessage,
  EmulatorConnectionInput,
  EnrollInQuestOptions,
  EmulatorGuild,
  EmulatorGuildRole,
  EmulatorCommand,
  EmulatorDeviceAuthorization,
  EmulatorDeviceScreen,
  EmulatorEntitlement,
  EmulatorSku,
  EmulatorSubscription,
  EmulatorUrlMapping,
  EmulatorActivityInstance,
  EmulatorActivityShare,
  SetActivityLayoutOptions,
  EmulatorActivityLaunch,
  LaunchActivityOptions,
  EmulatorInteraction,
  EmulatorInvocation,
  InvokeCommandOptions,
  EmulatorInfo,
  EmulatorLobby,
  EmulatorLobbyMessage,
  EmulatorOptions,
  EmulatorPresence,
  EmulatorRelationship,
  EmulatorSavedState,
  EmulatorUser,
  EmulatorVoice,
  EmulatorVoiceChannelJoin,
  EmulatorVoiceChannelUser,
  GatewaySessionInfo,
  WebhookDelivery,
} from './types.js';
import { WebhookEvents } from './webhooks/WebhookEvents.js';

/** The context as the emulator holds it: with every resolved option, where the faces see only theirs. */
type EmulatorParts = EmulatorContext & { options: ResolvedOptions };

/** How far {@link Emulator.advanceTime} has moved the emulator's wall clock ahead of real time. */
interface WallClock {
  offsetMs: number;
}

/** A bot token shaped like the platform's: base64url(bot id) . 6 chars . 27 chars. */
function makeBotToken(applicationId: string): string {
  return `${Buffer.from(applicationId).toString('base64url')}.${randomToken(4).slice(0, 6)}.${randomToken(20).slice(0, 27)}`;
}

/**
 * The store a saved state describes, when one is given; throws a RangeError when it does not fit the options
 * (another application id or bot token).
 */
function restoredState(options: ResolvedOptions, now: number): StoreState | undefined {
  if (options.state === undefined) return undefined;
  const state = importStoreState(options.state, now);
  const app = state.application;
  if (options.applicationId !== undefined && options.applicationId !== app.id) {
    throw new RangeError(
      `the saved state is of application ${app.id}, not ${options.applicationId}: drop the application id or start from another state`,
    );
  }
  if (options.botToken !== undefined && options.botToken !== app.botToken) {
    throw new RangeError(
      'the saved state has another bot token: drop the bot token or start from another state',
    );
  }
  return state;
}

function initialState(options: ResolvedOptions, ids: SnowflakeGenerator): StoreState {
  const id = options.applicationId ?? ids.next();
  return {
    version: 2,
    application: {
      id,
      name: options.applicationName,
      clientSecret: options.clientSecret ?? randomToken(24),
      botToken: options.botToken ?? makeBotToken(id),
      customSchemes: options.customSchemes,
      privilegedIntents: options.privilegedIntents,
      channelObfuscation: options.channelObfuscation,
      signatureKey: generateApplicationKey(),
      ...portalDefaults(),
      interactionsEndpointUrl: options.interactionsEndpointUrl,
    },
    signingKey: generateSigningJwk(),
    users: {},
    accessTokens: {},
    refreshTokens: {},
    codes: {},
    identities: {},
    relationships: {},
    gameRelationships: {},
    messages: {},
    lobbies: {},
    lobbyMessages: {},
    guilds: {},
    channels: {},
    channelMessages: {},
    channelInvites: {},
    commands: {},
    appEmojis: {},
    skus: {},
    entitlements: {},
    subscriptions: {},
  };
}

/** The URLs for a listening address; a wildcard address is reached through loopback. */
function urlsFor(address: AddressInfo): EmulatorUrls {
  let host = address.address;
  if (host === '0.0.0.0') host = '127.0.0.1';
  if (host === '::') host = '::1';
  const authority = host.includes(':') ? `[${host}]:${address.port}` : `${host}:${address.port}`;
  const http = `http://${authority}`;
  return { http, api: `${http}/api/v10`, gateway: `ws://${authority}${GATEWAY_PATH}` };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** A running emulator; see {@link Emulator}. */
class RunningEmulator implements Emulator {
  readonly http: string;
  readonly api: string;
  readonly gateway: string;
  readonly dashboard: string;
  readonly rpcSocket: string | null;
  readonly applicationId: string;
  readonly botToken: string;
  readonly clientSecret: string;
  readonly applicationPublicKey: string;
  readonly voiceCaFile: string | null;
  readonly #ctx: EmulatorParts;
  readonly #voiceUserDeps: ChannelVoiceUserDeps;
  /** The users joinVoiceChannel put in voice channels, left at close. */
  readonly #voiceUsers = new Set<ChannelVoiceUser>();
  readonly #dashboard: Dashboard;
  readonly #activityHost: ActivityHost;
  readonly #server: Server;
  readonly #router: Router;
  readonly #gatewayServer: GatewayServer;
  readonly #localClient: LocalClientServer | null;
  readonly #wallClock: WallClock;
  readonly #stopLobbySweep: () => void;
  readonly #voiceServer: VoiceServer;
  readonly voice: EmulatorVoice;
  #closing: Promise<void> | undefined;

  constructor(
    ctx: EmulatorParts,
    server: Server,
    router: Router,
    gatewayServer: GatewayServer,
    localClient: LocalClientServer | null,
    wallClock: WallClock,
    stopLobbySweep: () => void,
    voice: { server: VoiceServer; calls: VoiceCalls; caFile: string | null; engine: MediaEngine },
  ) {
    this.#ctx = ctx;
    this.#activityHost = new ActivityHost(ctx, ctx.activities, voice.calls);
    this.#voiceServer = voice.server;
    this.voice = voiceApi(voice.server, voice.calls);
    this.#wallClock = wallClock;
    this.#stopLobbySweep = stopLobbySweep;
    this.#server = server;
    this.#router = router;
    this.#gatewayServer = gatewayServer;
    this.#localClient = localClient;
    this.rpcSocket = localClient?.path ?? null;
    this.http = ctx.urls.http;
    this.api = ctx.urls.api;
    this.gateway = ctx.urls.gateway;
    this.applicationId = ctx.store.state.application.id;
    this.botToken = ctx.store.state.application.botToken;
    this.clientSecret = ctx.store.state.application.clientSecret;
    this.applicationPublicKey = ctx.webhooks.publicKeyHex;
    this.voiceCaFile = voice.caFile;
    this.#voiceUserDeps = {
      joins: ctx.guildVoice,
      calls: voice.calls,
      engine: voice.engine,
      log: ctx.log,
      endpoint: () => voice.server.endpoint,
    };
    this.#dashboard = new Dashboard({
      emulator: this,
      users: () => ctx.store.allUsers().filter((u) => !u.bot),
      findUser: (idOrName) => ctx.store.findUser(idOrName),
      log: ctx.log,
    });
    this.dashboard = this.#dashboard.url;
    ctx.hub.on('dispatched', (session, event) => {
      this.#dashboard.dispatched(session.userId, event);
    });
  }

  /**
   * Answers one HTTP request: on the proxy host the Activity host page's or the game's (through the URL
   * mappings); otherwise the dashboard's own, or the API's through the router.
   */
  serve(req: IncomingMessage, res: ServerResponse): void {
    if (this.#ctx.activityProxy.owns(req)) {
      if (ActivityHost.owns(req.url ?? '')) this.#activityHost.handle(req, res);
      else this.#ctx.activityProxy.handle(req, res);
    } else if (this.#dashboard.owns(req)) void this.#dashboard.handle(req, res);
    else void this.#router.handle(req, res);
  }

  /** Takes one upgrade: on the proxy host the host page's socket or the game's; otherwise the gateway's. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (!this.#ctx.activityProxy.owns(req)) this.#gatewayServer.upgrade(req, socket, head);
    else if (ActivityHost.owns(req.url ?? '')) this.#activityHost.upgrade(req, socket, head);
    else this.#ctx.activityProxy.upgrade(req, socket, head);
  }

  get users(): EmulatorUser[] {
    return this.#ctx.store.fullUsers().map((u) => ({ id: u.id, username: u.username }));
  }

  /** The {@link EmulatorInfo} of this emulator, so `JSON.stringify(emulator)` gives it. */
  toJSON(): EmulatorInfo {
    return {
      http: this.http,
      api: this.api,
      gateway: this.gateway,
      dashboard: this.dashboard,
      rpcSocket: this.rpcSocket,
      applicationId: this.applicationId,
      applicationPublicKey: this.applicationPublicKey,
      clientSecret: this.clientSecret,
      botToken: this.botToken,
      users: this.users,
      voiceCaFile: this.voiceCaFile,
    };
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  exportState(): EmulatorSavedState {
    try {
      return exportStoreState(this.#ctx.store.state, this.#ctx.store.now());
    } catch (error) {
      if (error instanceof StateExportError) {
        for (const o of error.omitted) {
          this.#ctx.log.line('emulator', `state export: ${o.collection} ${o.id} left out (${o.reason})`);
        }
      }
      throw error;
    }
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#stopLobbySweep();
    await Promise.all([...this.#voiceUsers].map((user) => user.leave()));
    this.#ctx.webhooks.close();
    this.#dashboard.close();
    this.#activityHost.close();
    await this.#voiceServer.close();
    await this.#localClient?.close();
    this.#gatewayServer.close();
    await this.#ctx.hub.shutdown();
    this.#gatewayServer.terminateAll();
    await new Promise<void>((resolve) => {
      this.#server.close(() => {
        resolve();
      });
      // Keep-alive and in-flight HTTP connections would otherwise hold the port open.
      this.#server.closeAllConnections();
    });
    this.#ctx.log.line('emulator', 'closed');
  }

  createUser(options: { username?: string; globalName?: string } = {}): EmulatorUser {
    const user = this.#ctx.store.createFullUser(options);
    this.#ctx.log.line('emulator', `user ${user.username} created`);
    return { id: user.id, username: user.username };
  }

  updateUser(id: string, patch: UserPatch): void {
    const user = this.#ctx.store.updateUser(this.#requireUser(id), patch);
    this.#ctx.hub.dispatch(user.id, 'USER_UPDATE', wireUser(user));
    const presence = wirePresence(user.id, this.#ctx.presence.of(user.id));
    for (const friendId of this.#ctx.relationships.friendsOf(user.id)) {
      this.#ctx.hub.dispatch(friendId, 'PRESENCE_UPDATE', { ...presence, user: wireUser(user) });
    }
  }

  setUserConnections(user: string, connections: readonly EmulatorConnectionInput[]): void {
    setConnections(this.#ctx.store, this.#requireUser(user), connections);
  }

  banUser(id: string): void {
    this.#ctx.accounts.ban(id);
  }

  setWebhookEventsUrl(url: string | null): void {
    this.#ctx.webhooks.url = webhookUrl(url);
  }

  enrollInQuest(options: EnrollInQuestOptions): Record<string, unknown> {
    return enrollInQuest(this.#ctx, options);
  }

  webhookDeliveries(): WebhookDelivery[] {
    return this.#ctx.webhooks.deliveries();
  }

  revokeUserTokens(id: string): void {
    this.#ctx.accounts.revokeAll(id);
  }

  dispatch(userId: string, event: string, data: unknown): void {
    if (!/^[A-Z][A-Z0-9_]*$/.test(event)) {
      throw new RangeError(`"${event}" is not a gateway event name (UPPER_SNAKE_CASE)`);
    }
    this.#ctx.hub.dispatch(userId, event, data);
  }

  dropGatewayConnections(userId?: string): number {
    return this.#ctx.hub.drop(userId);
  }

  closeGatewayConnections(code: number, reason?: string, userId?: string): number {
    return this.#ctx.hub.closeConnections(code, reason ?? '', userId);
  }

  sendGatewayReconnect(userId?: string): number {
    return this.#ctx.hub.requestReconnect(userId);
  }

  gatewaySessions(userId?: string): GatewaySessionInfo[] {
    return this.#ctx.hub.list(userId);
  }

  befriend(userA: string, userB: string, options: { game?: boolean } = {}): void {
    const a = this.#requireUser(userA);
    const b = this.#requireUser(userB);
    this.#ctx.relationships.befriend(options.game === true ? 'game' : 'discord', a, b);
  }

  presenceOf(userId: string): EmulatorPresence {
    const { status, activities } = this.#ctx.presence.of(this.#requireUser(userId));
    return { status, activities: structuredClone(activities) };
  }

  relationshipsOf(userId: string): { discord: EmulatorRelationship[]; game: EmulatorRelationship[] } {
    const id = this.#requireUser(userId);
    const view = (graph: 'discord' | 'game'): EmulatorRelationship[] =>
      this.#ctx.relationships.list(graph, id).map((r) => ({ id: r.targetId, type: r.type }));
    return { discord: view('discord'), game: view('game') };
  }

  /** The id of a user named by id or username; throws for an unknown one. */
  #requireUser(idOrName: string): string {
    const user = this.#ctx.store.findUser(idOrName);
    if (!user) throw new RangeError(`no user "${idOrName}"`);
    return user.id;
  }

  /** {@link Emulator.#requireUser}, or the bot for `'@bot'`. */
  #memberId(idOrName: string): string {
    return idOrName === '@bot' ? this.#ctx.store.botUser().id : this.#requireUser(idOrName);
  }

  rpcDispatch(event: string, data: unknown): number {
    if (!/^[A-Z][A-Z0-9_]*$/.test(event)) throw new RangeError(`"${event}" is not an RPC event name`);
    return this.#localClient?.dispatch(event, data) ?? 0;
  }

  dropRpcConnections(): number {
    return this.#localClient?.drop() ?? 0;
  }

  rpcConnectionCount(): number {
    return this.#localClient?.connectionCount ?? 0;
  }

  rpcActivity(): Record<string, unknown> | null {
    return this.#localClient?.activity() ?? null;
  }

  rpcCommands(): { cmd: string; args: Record<string, unknown> }[] {
    return this.#localClient?.recorded() ?? [];
  }

  rpcConsent(answer: boolean | null): void {
    this.#localClient?.setConsent(answer);
  }

  rpcDeviceScreen(): EmulatorDeviceScreen | null {
    return deviceScreenOf(this.#ctx, () => this.#ctx.store.now()).current();
  }

  closeRpcDeviceScreen(): boolean {
    const closed = deviceScreenOf(this.#ctx, () => this.#ctx.store.now()).close('closed');
    if (closed) this.#ctx.log.line('rpc', 'the device authorization screen was closed by the tester');
    return closed;
  }

  deviceAuthorizations(): EmulatorDeviceAuthorization[] {
    return deviceAuthorizationsOf(this.#ctx, () => this.#ctx.store.now()).authorizations.list();
  }

  launchCommands(): Record<string, string> {
    return readLaunchCommands(this.#ctx.options.launchRegistryDir);
  }

  advanceTime(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advanceTime: ms must be a finite number ≥ 0');
    this.#wallClock.offsetMs += ms;
    this.#ctx.log.line('emulator', `clock advanced by ${ms} ms`);
    this.#ctx.lobbies.sweep();
    this.#ctx.premium.tick();
  }

  lobbies(): EmulatorLobby[] {
    return this.#ctx.lobbies.all().map((lobby) => ({
      id: lobby.id,
      secret: lobby.secret !== null,
      createdBy: lobby.createdBy,
      metadata: { ...lobby.metadata },
      flags: lobby.flags,
      idleTimeoutSeconds: lobby.idleTimeoutSeconds,
      linkedChannelId: lobby.linkedChannelId,
      members: lobby.members.map((m) => ({
        id: m.userId,
        metadata: { ...m.metadata },
        flags: m.flags,
        additionalName: m.additionalName,
        connected: this.#ctx.lobbies.connected(m.userId),
      })),
    }));
  }

  lobbyMessages(lobbyId: string): EmulatorLobbyMessage[] {
    return this.#ctx.lobbies.messagesOf(lobbyId).map((m) => ({
      id: m.id,
      authorId: m.authorId,
      content: m.content,
      metadata: { ...m.metadata },
      moderationMetadata: { ...m.moderationMetadata },
      fromGame: m.fromGame,
      additionalName: m.additionalName,
      timestamp: m.createdAt,
    }));
  }

  deleteLobbyMessage(lobbyId: string, messageId: string): void {
    const message = this.#ctx.lobbies.message(lobbyId, messageId);
    if (!message) throw new RangeError(`no message ${messageId} in lobby ${lobbyId}`);
    this.#ctx.lobbies.deleteMessage(message);
  }

  requestCount(method: string, routePattern: string): number {
    return this.#router.count(method, routePattern);
  }

  guilds(): EmulatorGuild[] {
    return new GuildAdmin(this.#ctx.store, this.#ctx.guilds).list();
  }

  createGuild(options: Parameters<Emulator['createGuild']>[0]): EmulatorGuild {
    return new GuildAdmin(this.#ctx.store, this.#ctx.guilds).create(options);
  }

  addGuildMember(guildId: string, userId: string, options: { permissions?: string | bigint } = {}): void {
    new GuildAdmin(this.#ctx.store, this.#ctx.guilds).addMember(guildId, userId, options);
  }

  addBotToGuild(guildId: string, options: { permissions?: string | bigint } = {}): void {
    new GuildAdmin(this.#ctx.store, this.#ctx.guilds).addBot(guildId, options);
  }

  createRole(guildId: string, options: { name: string; permissions?: string | bigint }): EmulatorGuildRole {
    return new GuildAdmin(this.#ctx.store, this.#ctx.guilds).createRole(guildId, options);
  }

  setMemberRoles(guildId: string, user: string, roleIds: string[]): void {
    new GuildAdmin(this.#ctx.store, this.#ctx.guilds).setRoles(guildId, user, roleIds);
  }

  setChannelOverwrite(
    channelId: string,
    target: string,
    overwrite: { allow?: string | bigint; deny?: string | bigint } | null,
  ): void {
    new GuildAdmin(this.#ctx.store, this.#ctx.guilds).setOverwrite(channelId, target, overwrite);
  }

  setGuildVoiceState(guildId: string, user: string, channelId: string | null): void {
    new GuildAdmin(this.#ctx.store, this.#ctx.guilds).setVoiceState(guildId, user, channelId);
  }

  async leaveVoiceChannel(user: string): Promise<boolean> {
    // An unknown user was put in no channel: false, as for a known one who was not.
    const userId = user === '@bot' ? this.#ctx.store.botUser().id : this.#ctx.store.findUser(user)?.id;
    for (const joined of this.#voiceUsers) {
      if (joined.userId !== userId) continue;
      this.#voiceUsers.delete(joined);
      await joined.leave();
      return true;
    }
    return false;
  }

  joinVoiceChannel(options: EmulatorVoiceChannelJoin): EmulatorVoiceChannelUser {
    const channel = this.#ctx.guilds.channel(options.channel);
    if (!channel) throw new RangeError(`no channel "${options.channel}"`);
    const userId = this.#memberId(options.user);
    // Before the user is made: making it opens the recording, which a refused join must not touch.
    for (const other of this.#voiceUsers) {
      if (other.ended) this.#voiceUsers.delete(other);
      else if (other.userId === userId) {
        throw new RangeError(`user "${options.user}" is in a voice channel already`);
      }
    }
    const user = new ChannelVoiceUser(this.#voiceUserDeps, {
      guildId: channel.guildId,
      channelId: channel.id,
      userId,
      ...(options.play === undefined ? {} : { play: options.play }),
      ...(options.record === undefined ? {} : { record: options.record }),
    });
    user.join();
    this.#voiceUsers.add(user);
    return {
      sessionId: user.sessionId,
      leave: async () => {
        this.#voiceUsers.delete(user);
        await user.leave();
      },
    };
  }

  invokeCommand(options: InvokeCommandOptions): Promise<EmulatorInvocation> {
    return new InteractionAdmin(this.#ctx).invoke(options);
  }

  clickComponent(options: Parameters<Emulator['clickComponent']>[0]): Promise<EmulatorInvocation> {
    return new InteractionAdmin(this.#ctx).click(options);
  }

  submitModal(options: Parameters<Emulator['submitModal']>[0]): Promise<EmulatorInvocation> {
    return new InteractionAdmin(this.#ctx).submit(options);
  }

  interactions(): EmulatorInteraction[] {
    return this.#ctx.interactions.all().map(interactionView);
  }

  commands(): EmulatorCommand[] {
    const { commands, guilds } = this.#ctx;
    return [null, ...guilds.all().map((g) => g.id)].flatMap((scope) => commands.list(scope).map(commandView));
  }

  async setInteractionsEndpointUrl(url: string | null): Promise<void> {
    const checked = webhookUrl(url, 'setInteractionsEndpointUrl');
    if (checked !== null) await verifyInteractionsEndpoint(checked, this.#ctx);
    this.#ctx.interactionsEndpoint.url = checked;
    this.#ctx.log.line(
      'interactions',
      checked === null ? 'interactions go over the gateway' : 'interactions endpoint URL set',
    );
  }

  createSku(options: Parameters<Emulator['createSku']>[0]): EmulatorSku {
    const types = {
      durable: SkuType.DURABLE,
      consumable: SkuType.CONSUMABLE,
      subscription: SkuType.SUBSCRIPTION,
    } as const;
    const type = Object.hasOwn(types, options.type) ? types[options.type] : undefined;
    if (type === undefined) throw new RangeError('createSku: type is durable, consumable or subscription');
    return skuView(
      this.#ctx.premium.createSku({
        name: options.name,
        type,
        ...(options.periodMs === undefined ? {} : { periodMs: options.periodMs }),
        ...(options.price === undefined ? {} : { price: options.price }),
      }),
    );
  }

  skus(): EmulatorSku[] {
    return this.#ctx.premium.skus().map(skuView);
  }

  purchaseSku(user: string, skuId: string): ReturnType<Emulator['purchaseSku']> {
    const record = this.#ctx.store.findUser(user);
    if (!record || record.bot) throw new RangeError(`purchaseSku: no user "${user}"`);
    const { entitlement, subscription } = this.#ctx.premium.purchase(record.id, skuId);
    return {
      entitlement: entitlementView(entitlement),
      subscription: subscription ? subscriptionView(subscription) : null,
    };
  }

  cancelSubscription(subscriptionId: string): void {
    const subscription = this.#ctx.premium.subscription(subscriptionId);
    if (!subscription) throw new RangeError(`cancelSubscription: no subscription "${subscriptionId}"`);
    this.#ctx.premium.cancel(subscription);
  }

  entitlements(): EmulatorEntitlement[] {
    return this.#ctx.premium.entitlements().map(entitlementView);
  }

  subscriptions(): EmulatorSubscription[] {
    return this.#ctx.premium.subscriptions().map(subscriptionView);
  }

  get activityUrl(): string {
    return activityOrigin(this.http, this.applicationId);
  }

  setActivityUrlMappings(mappings: EmulatorUrlMapping[]): void {
    this.#ctx.activityProxy.setMappings(mappings);
    this.#ctx.log.line('activity', `URL mappings: ${mappings.map((m) => m.prefix).join(', ') || 'none'}`);
  }

  activityUrlMappings(): EmulatorUrlMapping[] {
    return this.#ctx.activityProxy.mappings();
  }

  launchActivity(options: LaunchActivityOptions): EmulatorActivityLaunch {
    return launchActivity(this.#ctx, options);
  }

  activityInstances(): EmulatorActivityInstance[] {
    return activityInstances(this.#ctx, this.#activityHost);
  }

  setActivityLayout(options: SetActivityLayoutOptions): number {
    if (!this.#ctx.activities.get(options.instance))
      throw new RangeError(`setActivityLayout: no instance "${options.instance}"`);
    const user = options.user === undefined ? undefined : this.#ctx.store.findUser(options.user);
    if (options.user !== undefined && !user)
      throw new RangeError(`setActivityLayout: no user "${options.user}"`);
    return this.#activityHost.setLayout(options.instance, {
      ...(user === undefined ? {} : { userId: user.id }),
      ...(options.layoutMode === undefined ? {} : { layoutMode: options.layoutMode }),
      ...(options.orientation === undefined ? {} : { orientation: options.orientation }),
    });
  }

  activityShares(): EmulatorActivityShare[] {
    return this.#ctx.activityShares.list();
  }

  setAutoModKeywords(guildId: string, keywords: string[]): void {
    if (!this.#ctx.guilds.guild(guildId)) throw new RangeError(`no guild "${guildId}"`);
    this.#ctx.guilds.setAutoModKeywords(guildId, keywords);
  }

  addGuildResource(options: {
    guildId: string;
    user: string;
    kind: 'emoji' | 'sticker' | 'sound' | 'event';
    name: string;
  }): string {
    const user = this.#ctx.store.findUser(options.user);
    if (!user || user.bot) throw new RangeError(`no user "${options.user}"`);
    return addUserResource(this.#ctx.store, this.#ctx.guilds, { ...options, userId: user.id });
  }

  setGuildFeatures(guildId: string, features: string[]): void {
    this.#ctx.guilds.setFeatures(guildId, features);
  }

  postChannelMessage(
    channelId: string,
    userIdOrName: string,
    content: string,
    extras?: ChatMessageExtras,
  ): EmulatorChannelMessage {
    return new GuildAdmin(this.#ctx.store, this.#ctx.guilds).post(channelId, userIdOrName, content, extras);
  }

  sendDirectMessageFromDiscord(
    from: string,
    to: string,
    content: string,
    extras?: ChatMessageExtras,
  ): string {
    const author = this.#ctx.store.findUser(from);
    const recipient = this.#ctx.store.findUser(to);
    if (!author || author.bot || author.provisional) throw new RangeError(`no full account "${from}"`);
    if (!recipient || recipient.bot) throw new RangeError(`no user "${to}"`);
    const rich = richFromExtras(extras, () => this.#ctx.store.nextId());
    if (content.length > 2000 || (content === '' && !rich)) {
      throw new RangeError('content must be 1–2000 characters, or empty with non-text content');
    }
    const record = this.#ctx.messages.create({
      authorId: author.id,
      recipientId: recipient.id,
      content,
      applicationId: null,
      ...(rich ? { rich } : {}),
    });
    this.#ctx.log.line('messages', `${author.username} sent message ${record.id} from Discord`);
    return record.id;
  }

  localClientNotifications(): LocalClientNotification[] {
    return this.#localClient?.notifications() ?? [];
  }

  localClientOpened(): LocalClientOpened[] {
    return this.#localClient?.opened() ?? [];
  }

  channelMessages(channelId: string): EmulatorChannelMessage[] {
    return new GuildAdmin(this.#ctx.store, this.#ctx.guilds).messages(channelId);
  }

  browserAs(user: string, options: BrowserOptions = {}): (url: string) => Promise<void> {
    const record = this.#ctx.store.findUser(user);
    if (!record || record.bot) throw new RangeError(`browserAs: no user "${user}"`);
    return createBrowserOpener(
      { id: record.id, username: record.username },
      this.#ctx.options.autoConsent,
      options,
    );
  }
}

/** The {@link EmulatorVoice} face of the voice server. */
function voiceApi(server: VoiceServer, calls: VoiceCalls): EmulatorVoice {
  return {
    get endpoint() {
      return server.endpoint;
    },
    get udpPort() {
      return server.udpPort;
    },
    calls: () => server.callsInfo(),
    kick: (lobbyId, userId) => calls.leave(lobbyId, userId, 'kicked'),
    dropConnections: (userId, lobbyId) => server.dropConnections(userId, lobbyId),
    setImpairment: (impairment) => {
      server.setImpairment(impairment);
    },
    impairmentStats: () => server.impairmentStats(),
    blockForwarding: (userId, blocked, lobbyId) => server.blockForwarding(userId, blocked, lobbyId),
    udpCounters: () => server.relayTotals(),
  };
}

/**
 * The voice gateway's TLS certificate from the local authority kept in `dir` (the authority is made there
 * the first time, the certificate kept until it nears its end); null when TLS is off.
 */
async function voiceCertificate(
  dir: string | null,
  host: string,
): Promise<{ tls: { cert: string; key: string }; caFile: string } | null> {
  if (dir === null) return null;
  const ca = await loadLocalCa(dir);
  const ips = ['127.0.0.1', ...(isIPv4(host) && host !== '0.0.0.0' && host !== '127.0.0.1' ? [host] : [])];
  const tls = await ca.serverCertificate({ ips, dns: ['localhost'] });
  return { tls, caFile: ca.certFile };
}

/** The emulated desktop client, signed in as the chosen user (the first seeded one by default). */
async function startLocalClient(ctx: EmulatorParts): Promise<LocalClientServer | null> {
  const choice = ctx.options.rpcUser;
  if (choice === null) return null;
  const user = choice === '' ? ctx.store.fullUsers()[0] : ctx.store.findUser(choice);
  if (!user) {
    if (choice === '') return null;
    throw new RangeError(`EmulatorOptions.rpc.user: no user "${choice}"`);
  }
  return LocalClientServer.start(ctx, user, ctx.options.rpcSocketDir);
}

/**
 * Starts a local platform emulator: HTTP API, OAuth2 with a consent page, provisional accounts and the
 * gateway, on one loopback port. Resolves once it accepts connections.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const resolved = resolveOptions(options);
  const log = new EmulatorLog(resolved.log);
  const clock = systemClock;
  // The emulator's wall clock: real time plus what advanceTime() added. Records, ids and expiry read it;
  // timers (heartbeats, resume windows) keep real time.
  const wallClock: WallClock = { offsetMs: 0 };
  const now = (): number => clock.now() + wallClock.offsetMs;
  const ids = new SnowflakeGenerator(now);
  // Before anything listens: a saved state that does not load must not leave a port open.
  const restored = restoredState(resolved, now());

  // Explicit, so a peer that opens a connection and dribbles (or never finishes) its request is cut off
  // rather than holding a socket: Node checks the header and request deadlines every checking interval.
  const server = createServer({
    headersTimeout: resolved.httpTimeouts.headersMs,
    requestTimeout: resolved.httpTimeouts.requestMs,
    keepAliveTimeout: resolved.httpTimeouts.keepAliveMs,
    connectionsCheckingInterval: Math.min(1000, resolved.httpTimeouts.headersMs),
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // Malformed HTTP (bad headers, oversized headers, garbage): answer 400 if still possible, then hang up;
    // a request that missed its deadline gets 408.
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    if (timedOut) log.line('http', 'connection closed: request not received in time (408)');
    if (socket.writable) {
      const status = timedOut ? '408 Request Timeout' : '400 Bad Request';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy();
  });
  await listen(server, resolved.port, resolved.host);
  server.on('error', (error) => {
    log.line('emulator', `server error: ${error.message}`);
  });
  const urls = urlsFor(server.address() as AddressInfo);

  const store = new EmulatorStore(restored ?? initialState(resolved, ids), ids, now);
  // An endpoint given at start replaces the one a saved state kept; without one, the saved one stays.
  if (restored && resolved.interactionsEndpointUrl !== null) {
    store.state.application.interactionsEndpointUrl = resolved.interactionsEndpointUrl;
  }
  // A restored world already has its bot, users and guild; seeding is for a new one.
  if (!restored) {
    store.createBotUser();
    for (let i = 0; i < resolved.users; i += 1) store.createFullUser();
  }
  const signer = new IdTokenSigner(store.state.signingKey);
  const hub = new GatewayHub({
    store,
    clock,
    log,
    gatewayUrl: urls.gateway,
    heartbeatIntervalMs: resolved.heartbeatIntervalMs,
    resumeWindowMs: resolved.resumeWindowMs,
    rateLimit: resolved.gatewayRateLimit,
    identifyTimeoutMs: resolved.identifyTimeoutMs,
    maxOutboundBufferBytes: resolved.maxOutboundBufferBytes,
    replayBufferBytes: resolved.replayBufferBytes,
    botSessionLimit: resolved.botSessionLimit,
    botMaxConcurrency: resolved.botMaxConcurrency,
    botIdentifyWindowMs: resolved.botIdentifyWindowMs,
    childApplication: (id) => resolved.publisherApplications.find((a) => a.child && a.id === id),
  });
  const accounts = new Accounts({
    store,
    sessions: hub,
    signer,
    issuer: urls.http,
    accessTokenTtlSeconds: resolved.accessTokenTtlSeconds,
    log,
    oidc: new OidcVerifier(resolved.oidcProviders, { allowLoopback: resolved.allowLoopbackOidcIssuers }, log),
    // The services below exist by the time a merge can happen (an HTTP request after start-up).
    migrateMergedUser: (sourceId, destinationId) => {
      ctx.relationships.migrate(sourceId, destinationId);
      ctx.messages.migrate(sourceId, destinationId);
      ctx.lobbies.migrateMember(sourceId, destinationId);
      log.line('accounts', `friends, lobbies and messages of ${sourceId} moved to ${destinationId}`);
    },
    deauthorized: (user) => {
      removeUserInstall(store.state.application, user.id);
      webhooks.emit('APPLICATION_DEAUTHORIZED', { user: wireUser(user) });
    },
  });
  const webhooks = new WebhookEvents(
    {
      applicationId: () => store.state.application.id,
      key: store.state.application.signatureKey,
      now: () => clock.now(),
      log,
    },
    resolved.webhookEventsUrl,
  );
  const presence = new PresenceService(() => clock.now());
  const relationships = new Relationships(store);
  const guilds = new Guilds(store, log);
  const calls = new VoiceCalls(() => clock.now());
  const guildVoice = new GuildVoiceJoins({ guilds, calls, log });
  const bot = wireBotGateway({ hub, guilds, store, http: urls.http });
  wireResourceGateway({ bot, guilds, store });
  // The application record holds the URL, so that Edit Current Application and a saved state keep it.
  const interactionsEndpoint = {
    get url(): string | null {
      return store.state.application.interactionsEndpointUrl;
    },
    set url(url: string | null) {
      store.state.application.interactionsEndpointUrl = url;
    },
  };
  const premium = new Premium(store, log);
  const interactions = new Interactions({ now: () => store.now(), nextId: () => store.nextId(), log });
  const flow = new InteractionFlow({
    store,
    guilds,
    bot,
    interactions,
    webhooks,
    log,
    http: urls.http,
    endpointUrl: () => interactionsEndpoint.url,
    skuAvailable: (id) => premium.available(id),
    // ctx exists by the time an interaction is answered.
    launchActivity: (userId, channelId) => {
      const { instance, url } = launchFor(ctx, userId, channelId);
      return { instanceId: instance.id, url };
    },
  });
  const ctx: EmulatorParts = {
    options: resolved,
    urls,
    store,
    accounts,
    hub,
    presence,
    relationships,
    invites: new Invites(presence, relationships, store.state.application.id),
    messages: new DirectMessages(store, hub),
    guilds,
    guildVoice,
    bot,
    commands: new Commands(store, log),
    interactions,
    flow,
    interactionsEndpoint,
    premium,
    activityProxy: new ActivityProxy(
      store.state.application.id,
      resolved.activityUrlMappings,
      log,
      resolved.activityContentSecurityPolicy ? urls.http : null,
    ),
    activities: new ActivityInstances({ nextId: () => store.nextId(), now: () => store.now() }),
    activityShares: new ActivityShares(),
    lobbies: new Lobbies({ store, hub, log, channel: (id) => guilds.channel(id) }),
    signer,
    webhooks,
    log,
    csrfKey: randomBytes(32),
  };

  // After the seeded users: the guild needs its owner and members.
  if (resolved.seedGuild && !restored) seedGuild(ctx.guilds, store.fullUsers(), store.botUser());
  wireSocialGateway(ctx);
  wireBotRequests({ hub, guilds, store, log });
  const stopLobbyTimer = wireLobbyGateway(ctx);
  // Subscriptions renew and end as real time passes too, not only by advanceTime.
  const premiumTimer = setInterval(() => {
    ctx.premium.tick();
  }, 1000);
  premiumTimer.unref();
  const stopLobbySweep = (): void => {
    stopLobbyTimer();
    clearInterval(premiumTimer);
  };
  wireLobbyRelay(ctx);
  wireDisclosures(ctx);
  wireMessageWebhookEvents(ctx);
  wirePremiumEvents({ premium: ctx.premium, bot, webhooks, applicationId: store.state.application.id });
  const voiceEngine = createMediaEngine({ prefer: resolved.voiceMediaEngine });
  const voiceTls = await voiceCertificate(resolved.voiceCertificateDir, resolved.host).catch(
    (error: unknown) => {
      stopLobbySweep();
      server.close();
      throw error;
    },
  );
  const voiceServer = await VoiceServer.start({
    tls: voiceTls?.tls ?? null,
    calls,
    log,
    clock,
    engine: voiceEngine,
    settings: { ...resolved.voice, host: resolved.host },
    daveFactory: ({ channelId, log: daveLog }) => new DaveCoordinator({ channelId, clock, log: daveLog }),
  }).catch((error: unknown) => {
    stopLobbySweep();
    server.close();
    throw error;
  });
  wireVoiceStates({
    hub,
    lobbies: ctx.lobbies,
    calls,
    log,
    endpoint: () => voiceServer.endpoint,
    guildVoice,
  });

  const router = new Router(log);
  router.add(allRoutes(ctx));
  router.delayApiReplies(resolved.httpLatencyMs);
  try {
    router.limitWith(new HttpRateLimits(resolved.rateLimits, store));
  } catch (error) {
    stopLobbySweep();
    await voiceServer.close();
    server.close();
    throw error;
  }
  // The API answers from here on; the dashboard joins once the emulator object it shows exists.
  const started: { emulator?: RunningEmulator } = {};
  server.on('request', (req, res) => {
    if (started.emulator) started.emulator.serve(req, res);
    else void router.handle(req, res);
  });
  const gatewayServer = new GatewayServer(hub, log);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Until the emulator object exists only the gateway takes upgrades.
    if (started.emulator) started.emulator.upgrade(req, socket, head);
    else gatewayServer.upgrade(req, socket, head);
  });
  const localClient = await startLocalClient(ctx).catch(async (error: unknown) => {
    stopLobbySweep();
    await voiceServer.close();
    server.close();
    throw error;
  });
  const emulator = new RunningEmulator(
    ctx,
    server,
    router,
    gatewayServer,
    localClient,
    wallClock,
    stopLobbySweep,
    {
      server: voiceServer,
      calls,
      caFile: voiceTls?.caFile ?? null,
      engine: voiceEngine,
    },
  );
  started.emulator = emulator;
  log.line('emulator', `listening on ${urls.http} (application ${store.state.application.id})`);
  return emulator;
}
