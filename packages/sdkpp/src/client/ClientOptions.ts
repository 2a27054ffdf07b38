import type { UrlOpener } from '../auth/openUrl.js';
import type { GatewaySocketFactory } from '../gateway/GatewaySocket.js';
import type { LogCallback, LoggingSeverity } from '../logging/index.js';
import type { MediaEnginePreference, MediaEngine } from '../media/index.js';
import type { LocalClientOptions } from '../rpc/LocalClientLink.js';
import type { Clock } from '@sdkpp/protocol';
import type { DaveSessionFactory } from '../media/index.js';
import type { VoiceSocketFactory } from '../voice/gateway/VoiceGatewayClient.js';

/** Options of a {@link Client}. All are optional. */
export interface ClientOptions {
  /** The HTTP API base. @defaultValue `'https://discord.com/api/v10'` */
  apiBase?: string;
  /** The web base that serves the authorize page. @defaultValue the origin of `apiBase` */
  webBase?: string;
  /** The gateway URL; skips `GET /gateway`. @defaultValue asked from the API */
  gatewayUrl?: string;
  /** The application id (snowflake), the default `clientId` of every call. */
  applicationId?: string;
  /** HTTP request timeout in ms. @defaultValue 30000 */
  httpRequestTimeoutMs?: number;
  /**
   * The longest the SDK waits out one HTTP rate limit before the call fails with a retryable `HttpError`
   * carrying `retryAfter`, in ms. Shorter waits happen by themselves, shown as {@link ClientStatus.HttpWait}.
   * @defaultValue 60000
   */
  maxRateLimitWaitMs?: number;
  /** A log callback to add at once, with {@link ClientOptions.logSeverity}. */
  logCallback?: LogCallback;
  /** Minimum severity for {@link ClientOptions.logCallback}. @defaultValue `LoggingSeverity.Info` */
  logSeverity?: LoggingSeverity;
  /** Debug mode also logs Info and Verbose. @defaultValue `false`, or true when `SDKPP_DEBUG=1` */
  debug?: boolean;
  /** Opens the authorize page. @defaultValue the system browser */
  openUrl?: UrlOpener;
  /** How long before token expiry `tokenExpiring` fires, in ms. @defaultValue 300000 */
  tokenExpiryWarningMs?: number;
  /** Test seam: the clock for timers. @defaultValue the system clock */
  clock?: Clock;
  /** Test seam: the fetch implementation. @defaultValue `globalThis.fetch` */
  fetch?: typeof fetch;
  /** Test seam: opens gateway sockets. @defaultValue a `ws` WebSocket */
  gatewaySocketFactory?: GatewaySocketFactory;
  /** Delay before reconnect attempt `n`. @defaultValue exponential 1–30 s with jitter */
  reconnectDelayMs?: (attempt: number) => number;
  /** Delay before a fresh Identify after Invalid Session. @defaultValue 1–5 s */
  invalidSessionDelayMs?: () => number;
  /**
   * The media engine for voice: `'auto'` takes the native addon when it loads and the JS engine otherwise
   * (saying so once), `'native'` insists on the addon, `'js'` never loads it; or an engine instance.
   * @defaultValue `'auto'`
   */
  mediaEngine?: MediaEnginePreference | MediaEngine;
  /**
   * Creates the DAVE (end-to-end encryption) session of each voice connection. `false` offers DAVE version 0
   * (no end-to-end encryption), which voice servers that require it refuse (close 4017, `CallError.Forbidden`).
   * @defaultValue the SDK's own DAVE session, `DaveProtocolSession` (MLS on the patched ts-mls)
   */
  daveSessionFactory?: DaveSessionFactory | false;
  /** Test seam: opens voice gateway sockets. @defaultValue a `ws` WebSocket */
  voiceSocketFactory?: VoiceSocketFactory;
  /**
   * How long a call waits for its voice server (the server update after joining) before it ends with
   * `CallError.JoinTimeout`. @defaultValue `15_000`
   */
  callJoinTimeoutMs?: number;
  /**
   * The local desktop client over RPC, used for rich presence without a connection; `false` turns it off.
   * @defaultValue the platform's standard socket paths
   */
  localClient?: LocalClientOptions | false;
  /**
   * Where {@link Client.registerLaunchCommand} writes the `discord-<id>` URL handler: a directory of XDG
   * desktop entries. @defaultValue the platform's place (`$XDG_DATA_HOME/applications`, the Windows registry)
   */
  launchRegistryDir?: string;
}
