import { checkMappings, type UrlMapping } from './activities/ActivityProxy.js';
import type { ContextOptions } from './context.js';
import { resolveRateLimits, type RateLimitConfig } from './http/rateLimits.js';
import { privilegedIntentBits } from './platform/intents.js';
import { resolveOidcProviders, type OidcProvider } from './oauth/oidcIssuer.js';
import { resolvePublisherApplications } from './oauth/publisherApplications.js';
import { isSnowflake } from './snowflake.js';
import type { EmulatorOptions, EmulatorSavedState } from './types.js';
import { Impairment } from './voice/impairment.js';
import type { VoiceServerSettings } from './voice/serverDeps.js';
import { defaultCaDir } from './tls/localCa.js';

/** {@link EmulatorOptions} with every default applied and every value checked. */
export interface ResolvedOptions extends ContextOptions {
  port: number;
  host: string;
  users: number;
  applicationId: string | undefined;
  applicationName: string;
  botToken: string | undefined;
  clientSecret: string | undefined;
  /** {@link EmulatorOptions.webhookEventsUrl}, checked: an http(s) URL, or null. */
  webhookEventsUrl: string | null;
  /** {@link EmulatorOptions.interactionsEndpointUrl}, checked: an http(s) URL, or null. */
  interactionsEndpointUrl: string | null;
  customSchemes: string[];
  /** {@link EmulatorOptions.privilegedIntents} as intent bits. */
  privilegedIntents: number;
  /** {@link EmulatorOptions.channelObfuscation}. */
  channelObfuscation: boolean;
  /** {@link EmulatorOptions.activityUrlMappings}, checked. */
  activityUrlMappings: UrlMapping[];
  /** {@link EmulatorOptions.activityContentSecurityPolicy}. */
  activityContentSecurityPolicy: boolean;
  heartbeatIntervalMs: number;
  resumeWindowMs: number;
  gatewayRateLimit: { count: number; windowMs: number };
  /** {@link EmulatorOptions.httpTimeouts}, with defaults. */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** {@link EmulatorOptions.identifyTimeoutMs}. */
  identifyTimeoutMs: number;
  /** {@link EmulatorOptions.botSessionLimit}. */
  botSessionLimit: number;
  /** {@link EmulatorOptions.botMaxConcurrency}. */
  botMaxConcurrency: number;
  /** {@link EmulatorOptions.botIdentifyWindowMs}. */
  botIdentifyWindowMs: number;
  /** {@link EmulatorOptions.replayBufferBytes}. */
  replayBufferBytes: number;
  /** HTTP rate limits, resolved from {@link EmulatorOptions.rateLimits}. */
  rateLimits: RateLimitConfig;
  /** {@link EmulatorOptions.httpLatencyMs}. */
  httpLatencyMs: number;
  log: ((line: string) => void) | undefined;
  /** The desktop client's user (username or id), or null when it is off. */
  rpcUser: string | null;
  rpcSocketDir: string | undefined;
  launchRegistryDir: string | undefined;
  /** Whether the contract's guild is seeded. */
  seedGuild: boolean;
  /** The voice server's settings (host is the emulator's). */
  voice: Omit<VoiceServerSettings, 'host'>;
  /** The media engine of the voice forwarding unit. */
  voiceMediaEngine: 'auto' | 'native' | 'js';
  /** Where the local certificate authority for the voice gateway's `wss://` is kept; null: no TLS. */
  voiceCertificateDir: string | null;
  /** {@link EmulatorOptions.oidcProviders}, checked against the issuer hostname rules. */
  oidcProviders: OidcProvider[];
  /** {@link EmulatorOptions.allowLoopbackOidcIssuers}. */
  allowLoopbackOidcIssuers: boolean;
  /** {@link EmulatorOptions.state}, checked when the store is built from it. */
  state: EmulatorSavedState | undefined;
}

/** The most users `users` may seed; more is certainly a typo and would only slow start-up. */
export const MAX_SEED_USERS = 10_000;

// RFC 3986 scheme syntax. Web schemes are refused: a redirect there would not be a custom-scheme hand-off.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const WEB_SCHEMES = /^(https?|file|javascript|data|ws|wss)$/i;

function positiveInt(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`EmulatorOptions.${name} must be an integer ≥ ${min}, got ${String(value)}`);
  }
  return value;
}

function nonEmpty(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || /\s/.test(value)) {
    throw new RangeError(`EmulatorOptions.${name} must be a non-empty string without spaces`);
  }
  return value;
}

/** `''` stands for "the first seeded user", resolved once users exist. */
function rpcUserOption(rpc: EmulatorOptions['rpc']): string | null {
  if (rpc === false) return null;
  if (rpc === undefined || rpc === true) return '';
  if (rpc.user !== undefined && (typeof rpc.user !== 'string' || rpc.user.length === 0)) {
    throw new RangeError('EmulatorOptions.rpc.user must be a username or user id');
  }
  return rpc.user ?? '';
}

/** Applies defaults and throws a `RangeError` naming the first bad option. */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(`EmulatorOptions.port must be 0–65535, got ${String(options.port)}`);
  }
  const users = options.users ?? 2;
  if (!Number.isInteger(users) || users < 0 || users > MAX_SEED_USERS) {
    throw new RangeError(`EmulatorOptions.users must be 0–${MAX_SEED_USERS}, got ${String(options.users)}`);
  }
  if (options.applicationId !== undefined && !isSnowflake(options.applicationId)) {
    throw new RangeError('EmulatorOptions.applicationId must be a snowflake (decimal digits)');
  }
  const applicationName = options.applicationName ?? 'sdkpp Demo Game';
  if (applicationName.length === 0 || applicationName.length > 100) {
    throw new RangeError('EmulatorOptions.applicationName must be 1–100 characters');
  }
  const customSchemes = options.customSchemes ?? [];
  for (const scheme of customSchemes) {
    if (!SCHEME.test(scheme) || WEB_SCHEMES.test(scheme)) {
      throw new RangeError(`EmulatorOptions.customSchemes: "${scheme}" is not a custom URI scheme`);
    }
  }
  const rate = options.gatewayRateLimit ?? { count: 120, windowMs: 60_000 };
  return {
    port,
    host: options.host ?? '127.0.0.1',
    users,
    autoConsent: options.autoConsent ?? false,
    applicationId: options.applicationId,
    applicationName,
    botToken: nonEmpty('botToken', options.botToken),
    clientSecret: nonEmpty('clientSecret', options.clientSecret),
    webhookEventsUrl: webhookUrl(options.webhookEventsUrl),
    interactionsEndpointUrl: webhookUrl(options.interactionsEndpointUrl, 'interactionsEndpointUrl'),
    customSchemes: [...customSchemes],
    publisherApplications: resolvePublisherApplications(options.publisherApplications, options.applicationId),
    oidcProviders: resolveOidcProviders(options.oidcProviders, {
      allowLoopback: options.allowLoopbackOidcIssuers ?? false,
    }),
    allowLoopbackOidcIssuers: options.allowLoopbackOidcIssuers ?? false,
    privilegedIntents: privilegedIntentBits(options.privilegedIntents ?? []),
    channelObfuscation: options.channelObfuscation ?? false,
    activityUrlMappings: checkMappings(options.activityUrlMappings ?? []),
    activityContentSecurityPolicy: options.activityContentSecurityPolicy ?? true,
    heartbeatIntervalMs: positiveInt('heartbeatIntervalMs', options.heartbeatIntervalMs, 41_250),
    codeTtlMs: positiveInt('codeTtlMs', options.codeTtlMs, 100_000),
    accessTokenTtlSeconds: positiveInt('accessTokenTtlSeconds', options.accessTokenTtlSeconds, 604_800),
    deviceCodeIntervalSeconds: positiveInt('deviceCodeIntervalSeconds', options.deviceCodeIntervalSeconds, 5),
    deviceCodeTtlSeconds: positiveInt('deviceCodeTtlSeconds', options.deviceCodeTtlSeconds, 300),
    resumeWindowMs: positiveInt('resumeWindowMs', options.resumeWindowMs, 180_000),
    gatewayRateLimit: {
      count: positiveInt('gatewayRateLimit.count', rate.count, 120),
      windowMs: positiveInt('gatewayRateLimit.windowMs', rate.windowMs, 60_000),
    },
    httpTimeouts: httpTimeouts(options.httpTimeouts),
    identifyTimeoutMs: positiveInt('identifyTimeoutMs', options.identifyTimeoutMs, 20_000),
    botSessionLimit: positiveInt('botSessionLimit', options.botSessionLimit, 1000, 0),
    botMaxConcurrency: positiveInt('botMaxConcurrency', options.botMaxConcurrency, 1),
    botIdentifyWindowMs: positiveInt('botIdentifyWindowMs', options.botIdentifyWindowMs, 5000),
    maxOutboundBufferBytes: positiveInt(
      'maxOutboundBufferBytes',
      options.maxOutboundBufferBytes,
      4 * 1024 * 1024,
      4096,
    ),
    replayBufferBytes: positiveInt('replayBufferBytes', options.replayBufferBytes, 4 * 1024 * 1024, 4096),
    rateLimits: resolveRateLimits(options.rateLimits),
    httpLatencyMs: latencyOption(options.httpLatencyMs),
    log: options.log,
    rpcUser: rpcUserOption(options.rpc),
    rpcSocketDir: options.rpcSocketDir,
    rpcHandshakeTimeoutMs: positiveInt(
      'rpc.handshakeTimeoutMs',
      typeof options.rpc === 'object' ? options.rpc.handshakeTimeoutMs : undefined,
      10_000,
    ),
    launchRegistryDir: options.launchRegistryDir,
    seedGuild: options.seedGuild ?? true,
    voice: resolveVoiceOptions(
      options.voice,
      positiveInt('identifyTimeoutMs', options.identifyTimeoutMs, 20_000),
    ),
    voiceMediaEngine: voiceMediaEngine(options.voice?.mediaEngine),
    voiceCertificateDir: certificateDir(options.voice?.certificateDir),
    state: options.state,
  };
}

function certificateDir(value: unknown): string | null {
  if (value === false) return null;
  if (value === undefined) return defaultCaDir();
  if (typeof value !== 'string' || value.length === 0) {
    throw new RangeError('EmulatorOptions.voice.certificateDir must be a folder path or false');
  }
  return value;
}

function voiceMediaEngine(value: unknown): 'auto' | 'native' | 'js' {
  if (value === undefined) return 'auto';
  if (value !== 'auto' && value !== 'native' && value !== 'js') {
    throw new RangeError(`EmulatorOptions.voice.mediaEngine must be 'auto', 'native' or 'js'`);
  }
  return value;
}

function resolveVoiceOptions(
  voice: EmulatorOptions['voice'],
  identifyTimeoutMs: number,
): Omit<VoiceServerSettings, 'host'> {
  const v = voice ?? {};
  for (const name of ['port', 'udpPort'] as const) {
    const port = v[name];
    if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65_535)) {
      throw new RangeError(`EmulatorOptions.voice.${name} must be 0–65535, got ${String(port)}`);
    }
  }
  if (v.impairment !== undefined) new Impairment(v.impairment); // throws a RangeError for a bad value
  return {
    port: v.port ?? 0,
    udpPort: v.udpPort ?? 0,
    allowNonDave: v.allowNonDave ?? false,
    heartbeatIntervalMs: positiveInt('voice.heartbeatIntervalMs', v.heartbeatIntervalMs, 13_750),
    resumeWindowMs: positiveInt('voice.resumeWindowMs', v.resumeWindowMs, 30_000),
    identifyTimeoutMs,
    impairment: v.impairment ? { ...v.impairment } : null,
  };
}

function httpTimeouts(value: EmulatorOptions['httpTimeouts']): ResolvedOptions['httpTimeouts'] {
  const headersMs = positiveInt('httpTimeouts.headersMs', value?.headersMs, 10_000);
  const requestMs = positiveInt('httpTimeouts.requestMs', value?.requestMs, 30_000);
  const keepAliveMs = positiveInt('httpTimeouts.keepAliveMs', value?.keepAliveMs, 5000);
  // Node refuses a header deadline later than the request deadline.
  if (headersMs > requestMs) {
    throw new RangeError('EmulatorOptions.httpTimeouts.headersMs must not exceed requestMs');
  }
  return { headersMs, requestMs, keepAliveMs };
}

/** The HTTP reply latency: an integer from 0 to 10 s, so a typo cannot stall every request for minutes. */
function latencyOption(value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isInteger(value) || value < 0 || value > 10_000) {
    throw new RangeError('httpLatencyMs must be an integer from 0 to 10000');
  }
  return value;
}

/** An http(s) URL for webhook events, or null when none is given. */
export function webhookUrl(value: unknown, name = 'webhookEventsUrl'): string | null {
  if (value === undefined || value === null) return null;
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new TypeError(`${name} must be an http: or https: URL`);
  }
  return url.href;
}
