import { integerValue, UsageError, type Flag } from './flags.js';
import { MAX_SEED_USERS } from '../options.js';
import type { EmulatorOptions } from '../types.js';

/**
 * Where `sdkpp emulator` listens when no `--port` is given: fixed, so a game or a browser tab finds it again
 * after a restart. Below the Linux ephemeral range (32768+), where an outgoing connection could hold it, and
 * clear of the ports dev servers usually take (3000, 5173, 8080, 8787, …).
 */
export const DEFAULT_EMULATOR_PORT = 24_680;

/** What the flags of `sdkpp emulator` (and `sdkpp emulator exec`) set. */
export interface EmulatorCommandLine {
  /** The options for `startEmulator`. */
  options: EmulatorOptions;
  /** `--json`: one JSON line instead of the summary. */
  json: boolean;
  /** `--verbose`: a log line per request and event on stderr. */
  verbose: boolean;
  /** `--state FILE`: where the state is loaded from and saved to. */
  statePath: string | undefined;
}

/** A fresh command line with the command's defaults (the fixed port above all). */
export function emulatorCommandLine(): EmulatorCommandLine {
  return { options: { port: DEFAULT_EMULATOR_PORT }, json: false, verbose: false, statePath: undefined };
}

function voice(line: EmulatorCommandLine): NonNullable<EmulatorOptions['voice']> {
  line.options.voice ??= {};
  return line.options.voice;
}

const IMPAIRMENT_KEYS = {
  loss: 'lossPercent',
  delay: 'delayMs',
  jitter: 'jitterMs',
  reorder: 'reorderPercent',
  seed: 'seed',
} as const;

/** `loss=5,delay=40,…` as an impairment object; throws {@link UsageError} naming the format. */
function impairment(spec: string): Record<string, number> {
  const result: Record<string, number> = {};
  for (const part of spec.split(',')) {
    const [name, value] = part.split('=');
    const key =
      name !== undefined && Object.hasOwn(IMPAIRMENT_KEYS, name)
        ? IMPAIRMENT_KEYS[name as keyof typeof IMPAIRMENT_KEYS]
        : undefined;
    if (key === undefined || value === undefined || !/^[0-9]+(\.[0-9]+)?$/.test(value)) {
      throw new UsageError('--voice-impairment takes loss=N,delay=N,jitter=N,reorder=N,seed=N');
    }
    result[key] = Number(value);
  }
  return result;
}

/** The flags of `sdkpp emulator`, in the order `--help` lists them. A new flag is one more entry here. */
export const EMULATOR_FLAGS: readonly Flag<EmulatorCommandLine>[] = [
  {
    name: 'port',
    value: 'N',
    default: String(DEFAULT_EMULATOR_PORT),
    help: 'TCP port of HTTP, the dashboard and the gateway; 0: any free port',
    apply: (line, value) => {
      line.options.port = integerValue('port', value, 0, 65_535);
    },
  },
  {
    name: 'host',
    value: 'H',
    default: '127.0.0.1',
    help: 'interface to listen on',
    apply: (line, value) => {
      line.options.host = value;
    },
  },
  {
    name: 'users',
    value: 'N',
    default: '2: alice, bob',
    help: `number of seeded test users (0-${MAX_SEED_USERS}); not with a loaded --state`,
    apply: (line, value) => {
      line.options.users = integerValue('users', value, 0, MAX_SEED_USERS);
    },
  },
  {
    name: 'state',
    value: 'FILE',
    default: 'none: nothing is kept',
    help:
      'load users, friends, lobbies, messages and tokens from FILE if it exists,\nand save them there on exit ' +
      '(the voice certificate authority is kept beside it, in FILE.ca)',
    apply: (line, value) => {
      if (value.length === 0) throw new UsageError('--state needs a file name');
      line.statePath = value;
      voice(line).certificateDir ??= `${value}.ca`;
    },
  },
  {
    name: 'auto-consent',
    default: 'show the consent page',
    help: 'approve authorize requests at once, as the login_hint user',
    apply: (line) => {
      line.options.autoConsent = true;
    },
  },
  {
    name: 'app-id',
    value: 'ID',
    default: 'generated',
    help: 'application id (a snowflake)',
    apply: (line, value) => {
      line.options.applicationId = value;
    },
  },
  {
    name: 'bot-token',
    value: 'T',
    default: 'random',
    help: 'bot token',
    apply: (line, value) => {
      line.options.botToken = value;
    },
  },
  {
    name: 'no-rpc',
    help: 'do not run the emulated desktop client (IPC socket)',
    apply: (line) => {
      line.options.rpc = false;
    },
  },
  {
    name: 'rpc-user',
    value: 'NAME',
    default: 'the first user',
    help: 'the user signed in to the emulated desktop client',
    apply: (line, value) => {
      if (line.options.rpc !== false) line.options.rpc = { user: value };
    },
  },
  {
    name: 'no-activity-csp',
    help: "serve the Activity's documents without the platform's Content Security Policy\n(debugging only: production blocks what it would block)",
    apply: (line) => {
      line.options.activityContentSecurityPolicy = false;
    },
  },
  {
    name: 'no-seed-guild',
    help: 'do not seed the "Emulator Guild" (guilds and channels for lobby linking)',
    apply: (line) => {
      line.options.seedGuild = false;
    },
  },
  {
    name: 'rate-limits',
    value: 'P',
    default: 'default',
    help: "HTTP rate limits: default (generous), development (the platform's\npre-approval limits) or off",
    apply: (line, value) => {
      if (value !== 'default' && value !== 'development' && value !== 'off') {
        throw new UsageError('--rate-limits must be default, development or off');
      }
      line.options.rateLimits = value;
    },
  },
  {
    name: 'webhook-events-url',
    value: 'URL',
    default: 'none',
    help: "the application's webhook events URL: signed events (APPLICATION_AUTHORIZED,\nAPPLICATION_DEAUTHORIZED, lobby and game DM messages) are POSTed there",
    apply: (line, value) => {
      line.options.webhookEventsUrl = value;
    },
  },
  {
    name: 'interactions-url',
    value: 'URL',
    default: 'none: over the gateway',
    help: "the application's interactions endpoint URL: interactions are POSTed there,\nsigned, and its answer is the response",
    apply: (line, value) => {
      line.options.interactionsEndpointUrl = value;
    },
  },
  {
    name: 'privileged-intents',
    value: 'LIST',
    default: 'none',
    help: 'privileged intents enabled for the bot: members, presences, message_content\n(comma-separated), as the developer portal toggles them',
    apply: (line, value) => {
      const names = value
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      const known = ['members', 'presences', 'message_content'] as const;
      const unknown = names.find((n) => !(known as readonly string[]).includes(n));
      if (unknown !== undefined)
        throw new UsageError(`--privileged-intents: unknown intent "${unknown}" (${known.join(', ')})`);
      line.options.privilegedIntents = names as (typeof known)[number][];
    },
  },
  {
    name: 'activity-url-mapping',
    value: 'PREFIX=URL',
    default: 'none',
    help: "an Activity URL mapping, e.g. /=http://127.0.0.1:5173 (the game's dev server)\nor /api=http://127.0.0.1:3001; repeat it for more",
    apply: (line, value) => {
      const at = value.indexOf('=');
      if (at <= 0)
        throw new UsageError('--activity-url-mapping takes PREFIX=URL, e.g. /=http://127.0.0.1:5173');
      const mappings = (line.options.activityUrlMappings ??= []);
      mappings.push({ prefix: value.slice(0, at), target: value.slice(at + 1) });
    },
  },
  {
    name: 'child-app',
    value: 'ID[=SCOPES]',
    default: 'none',
    help:
      'a child application of this (publisher) application, for publisher-level linking\n' +
      '(POST /partner-sdk/child-token); SCOPES, comma separated, are what it accepts; repeat it for more',
    apply: (line, value) => {
      const at = value.indexOf('=');
      const id = at < 0 ? value : value.slice(0, at);
      if (!/^\d{1,20}$/.test(id))
        throw new UsageError('--child-app takes ID[=SCOPES], e.g. 1234567890=openid,identify');
      const scopes =
        at < 0
          ? undefined
          : value
              .slice(at + 1)
              .split(',')
              .filter((s) => s.length > 0);
      (line.options.publisherApplications ??= []).push({ id, ...(scopes ? { scopes } : {}) });
    },
  },
  {
    name: 'oidc-issuer',
    value: 'URL[=AUDIENCE]',
    default: 'none: OIDC tokens are decoded, not verified',
    help:
      'an OpenID Connect identity provider: OIDC ID tokens must be signed by it (discovery and\n' +
      'JWKS fetched without redirects; https and a DNS host name only); repeat it for more',
    apply: (line, value) => {
      const at = value.indexOf('=');
      const issuer = at < 0 ? value : value.slice(0, at);
      const audience = at < 0 ? undefined : value.slice(at + 1);
      (line.options.oidcProviders ??= []).push({ issuer, ...(audience ? { audience } : {}) });
    },
  },
  {
    name: 'allow-loopback-oidc-issuers',
    help: 'allow OIDC issuers on 127.0.0.1, [::1] and localhost (over http too), for a local identity server',
    apply: (line) => {
      line.options.allowLoopbackOidcIssuers = true;
    },
  },
  {
    name: 'channel-obfuscation',
    help: 'obfuscate the channels the bot cannot view for every bot session (the portal toggle)',
    apply: (line) => {
      line.options.channelObfuscation = true;
    },
  },
  {
    name: 'bot-session-limit',
    value: 'N',
    default: '1000',
    help: 'bot Identifies allowed per 24 h; past it an Identify gets op 9',
    apply: (line, value) => {
      line.options.botSessionLimit = integerValue('bot-session-limit', value, 0, 1_000_000);
    },
  },
  {
    name: 'bot-max-concurrency',
    value: 'N',
    default: '1',
    help: 'bot Identify rate-limit keys: one Identify per key per 5 s',
    apply: (line, value) => {
      line.options.botMaxConcurrency = integerValue('bot-max-concurrency', value, 1, 1024);
    },
  },
  {
    name: 'http-latency',
    value: 'MS',
    default: '0',
    help: 'hold each API reply back MS milliseconds (0-10000) while the gateway\nstays fast, to meet replies that arrive after the events they caused',
    apply: (line, value) => {
      line.options.httpLatencyMs = integerValue('http-latency', value, 0, 10_000);
    },
  },
  {
    name: 'voice-port',
    value: 'N',
    default: '0: any free port',
    help: 'TCP port of the voice gateway',
    apply: (line, value) => {
      voice(line).port = integerValue('voice-port', value, 0, 65_535);
    },
  },
  {
    name: 'voice-udp-port',
    value: 'N',
    default: '0: any free port',
    help: 'UDP port of the voice forwarding unit',
    apply: (line, value) => {
      voice(line).udpPort = integerValue('voice-udp-port', value, 0, 65_535);
    },
  },
  {
    name: 'voice-ca',
    value: 'DIR|none',
    default: 'beside --state, else $XDG_STATE_HOME/sdkpp-emulator',
    help: "where the local certificate authority behind the voice gateway's wss:// is kept\n(made there once); none: ws:// only",
    apply: (line, value) => {
      if (value.length === 0) throw new UsageError('--voice-ca needs a folder, or none');
      voice(line).certificateDir = value === 'none' ? false : value;
    },
  },
  {
    name: 'allow-non-dave',
    default: 'refused with 4017',
    help: 'let voice clients without DAVE in (the call then runs without E2EE)',
    apply: (line) => {
      voice(line).allowNonDave = true;
    },
  },
  {
    name: 'voice-impairment',
    value: 'SPEC',
    default: 'none',
    help: 'impair forwarded voice packets: loss=5,delay=40,jitter=10,reorder=2,seed=7\n(percent, ms, ms, percent, PRNG seed)',
    apply: (line, value) => {
      voice(line).impairment = impairment(value);
    },
  },
  {
    name: 'json',
    default: 'a summary',
    help: 'print one JSON line with the addresses once ready',
    apply: (line) => {
      line.json = true;
    },
  },
  {
    name: 'verbose',
    help: 'print a log line per request and gateway event to stderr',
    apply: (line) => {
      line.verbose = true;
    },
  },
];
