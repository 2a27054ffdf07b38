import { AbortedError, AuthorizationError, HttpError, ValidationError } from '@sdkpp/protocol';
import type { Clock } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import type { DeviceCodes, ExternalAuth, OAuth2Api } from './OAuth2Api.js';
import { DEFAULT_COMMUNICATION_SCOPES } from './scopes.js';
import type { TokenExchangeResult } from './tokenTypes.js';

/** Arguments of {@link Client.getTokenFromDevice}: every field of the C++ SDK's `DeviceAuthorizationArgs`. */
export interface DeviceAuthorizationArgs {
  /** The application id (a snowflake). @defaultValue the client's `applicationId` */
  clientId?: string;
  /** Space-separated OAuth2 scopes. @defaultValue `'openid sdk.social_layer'` */
  scopes?: string;
}

/** What the player needs to approve a device sign-in; {@link GetTokenFromDeviceOptions.onUserCode} gets it. */
export interface DeviceUserCode {
  /** The code to show the player, e.g. `BCDF-GHJK`. */
  userCode: string;
  /** Where the player enters it (the platform's is discord.com/activate). */
  verificationUri: string;
  /** The same address with the code filled in: put it in a QR code. */
  verificationUriComplete: string;
  /** Seconds until the code expires. */
  expiresIn: number;
}

/** Options of {@link Client.getTokenFromDevice}. */
export interface GetTokenFromDeviceOptions {
  /** Aborts the flow: the promise rejects with an `AbortedError` and polling stops. */
  signal?: AbortSignal;
  /**
   * Called once with the code to show the player, before polling starts. The game draws it (and may turn
   * `verificationUriComplete` into a QR code). A callback that throws is logged; the flow goes on.
   */
  onUserCode?: (code: DeviceUserCode) => void;
  /**
   * Also show the code on the desktop client's own device authorization screen (through RPC), and close it
   * when the flow ends. Fails with an `RPCError` when no desktop client runs. @defaultValue true when no
   * `onUserCode` is given (the code must be shown somewhere), false otherwise
   */
  showScreen?: boolean;
}

/** What {@link runDeviceFlow} needs. */
export interface DeviceFlowDeps {
  api: OAuth2Api;
  clock: Clock;
  log: LogWriter;
  /** Shows the code on the desktop client's screen (when asked) and returns how to close it. */
  openScreen: (clientId: string, userCode: string) => Promise<() => Promise<void>>;
}

/** A device sign-in to run, its arguments resolved. */
export interface DeviceFlowRequest {
  clientId: string;
  scopes: string;
  options: GetTokenFromDeviceOptions;
  merge?: ExternalAuth;
}

/** RFC 8628 §3.5: a `slow_down` adds 5 seconds to the interval. */
const SLOW_DOWN_STEP_S = 5;
/** The longest interval followed, whatever the platform says: a wait between polls stays bounded. */
const MAX_INTERVAL_S = 60;
/** The longest lifetime followed: the flow ends by then even if the platform never says `expired_token`. */
const MAX_EXPIRES_IN_S = 1_800;

const SNOWFLAKE = /^[0-9]{1,20}$/;
const SCOPE = /^[A-Za-z0-9._:-]+$/;

/** Checks device arguments and fills in defaults; throws {@link ValidationError} before any I/O. */
export function resolveDeviceArgs(
  args: DeviceAuthorizationArgs,
  applicationId: string | undefined,
): { clientId: string; scopes: string } {
  const clientId = args.clientId ?? applicationId;
  if (clientId === undefined || !SNOWFLAKE.test(clientId)) {
    throw new ValidationError('clientId must be a snowflake: pass one or call setApplicationId()');
  }
  const scopes = (args.scopes ?? DEFAULT_COMMUNICATION_SCOPES).split(' ').filter((s) => s !== '');
  if (scopes.length === 0 || scopes.some((s) => !SCOPE.test(s)) || scopes.join(' ').length > 1024) {
    throw new ValidationError('scopes must be space-separated OAuth2 scope names');
  }
  return { clientId, scopes: scopes.join(' ') };
}

/** Waits `ms` on `clock`, or rejects as soon as `signal` aborts. */
function wait(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason;
  return new AbortedError('device sign-in was aborted', reason === undefined ? {} : { cause: reason });
}

/**
 * The device authorization grant from the device's side (RFC 8628 §3.1–3.5): asks for the codes, hands the
 * user code to the game (and, if asked, to the desktop client's screen), then polls the token endpoint at the
 * interval, 5 s slower after each `slow_down`, until the player approves (tokens), denies
 * (`AuthorizationError` `access_denied`), the code expires (`AuthorizationError` `expired_token`) or `signal`
 * aborts. Every wait is bounded by the code's lifetime.
 */
export async function runDeviceFlow(
  deps: DeviceFlowDeps,
  request: DeviceFlowRequest,
  signal: AbortSignal,
): Promise<TokenExchangeResult> {
  const { api, clock, log } = deps;
  const { options } = request;
  const codes = await api.deviceAuthorize(
    { applicationId: request.clientId, scopes: request.scopes },
    signal,
  );
  const deadline = clock.now() + Math.min(codes.expiresIn, MAX_EXPIRES_IN_S) * 1000;
  let intervalS = Math.min(codes.interval, MAX_INTERVAL_S);
  log.info(
    `device sign-in: waiting for the player (code valid ${codes.expiresIn} s, polling every ${intervalS} s)`,
  );
  const showScreen = options.showScreen ?? options.onUserCode === undefined;
  const closeScreen = showScreen ? await deps.openScreen(request.clientId, codes.userCode) : undefined;
  try {
    deliverCode(options, codes, log);
    for (;;) {
      const remainingMs = deadline - clock.now();
      if (remainingMs <= 0) throw expired();
      await wait(clock, Math.min(intervalS * 1000, remainingMs), signal);
      try {
        const tokens = await api.pollDeviceToken(
          {
            applicationId: request.clientId,
            deviceCode: codes.deviceCode,
            ...(request.merge ? { merge: request.merge } : {}),
          },
          signal,
        );
        log.info(
          `device sign-in: the player approved${request.merge ? ' (provisional account merged)' : ''}`,
        );
        return tokens;
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        switch (error.code) {
          case 'authorization_pending':
            continue;
          case 'slow_down':
            intervalS = Math.min(intervalS + SLOW_DOWN_STEP_S, MAX_INTERVAL_S);
            log.warn(`device sign-in: the platform asked to slow down; polling every ${intervalS} s`);
            continue;
          case 'expired_token':
            throw expired();
          case 'access_denied':
            log.warn('device sign-in: the player denied the request');
            throw new AuthorizationError('The player denied the device sign-in', {
              code: 'access_denied',
              cause: error,
            });
          default:
            throw error;
        }
      }
    }
  } finally {
    await closeScreen?.().catch((error: unknown) => {
      log.warn(`device sign-in: could not close the device screen: ${(error as Error).message}`);
    });
  }

  function expired(): AuthorizationError {
    log.warn('device sign-in: the code expired before the player approved it');
    return new AuthorizationError('The device code expired before the player approved it; start again', {
      code: 'expired_token',
    });
  }
}

function deliverCode(options: GetTokenFromDeviceOptions, codes: DeviceCodes, log: LogWriter): void {
  if (!options.onUserCode) return;
  try {
    options.onUserCode({
      userCode: codes.userCode,
      verificationUri: codes.verificationUri,
      verificationUriComplete: codes.verificationUriComplete,
      expiresIn: codes.expiresIn,
    });
  } catch (error) {
    log.error(`device sign-in: the onUserCode callback threw: ${(error as Error).message}`);
  }
}
