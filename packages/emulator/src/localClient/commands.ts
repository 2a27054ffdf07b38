import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import { deviceScreenOf } from '../oauth/deviceScreen.js';
import { expandScopes, isKnownScope, parseScopeParam } from '../store/scopes.js';
import type { UserRecord } from '../store/types.js';
import { readActivity } from './activity.js';
import { runChatCommand, type ChatCommandScope } from './chatCommands.js';
import { guildStatusSubscription } from './guildStatus.js';
import { RpcCommandError, RpcErrorCode, SUBSCRIBABLE_EVENTS, type RpcCommand } from './protocol.js';

/** What a command handler may touch: the emulator, the bound user and its own connection. */
export interface CommandScope extends ChatCommandScope {
  ctx: EmulatorContext;
  user: UserRecord;
  /** The presence source of this connection. */
  source: string;
  subscriptions: Set<string>;
  /** The guilds this connection watches through GUILD_STATUS. */
  guildStatus: Set<string>;
  /** Records a command the admin API reports (invite replies and the like). */
  record(cmd: string, args: Record<string, unknown>): void;
  /** Whether the player approves an AUTHORIZE shown in the desktop client. */
  consent(): boolean;
}

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Throws the ERROR reply `code` with `message`. */
export function fail(code: number, message: string): never {
  throw new RpcCommandError(code, message);
}

/**
 * The activity a SET_ACTIVITY stores, after the desktop client's checks: only the fields the platform keeps,
 * type Playing by default, the application's name unless the game gives one, its application id and the
 * time. The reply echoes it, so nothing else a game sent comes back either. Throws
 * {@link RpcCommandError} 4000 naming the problem.
 */
export function storedActivity(ctx: EmulatorContext, raw: unknown): Record<string, unknown> {
  const read = readActivity(raw);
  if ('problem' in read) fail(RpcErrorCode.InvalidPayload, `child "activity" fails because ${read.problem}`);
  const app = ctx.store.state.application;
  return {
    ...read.activity,
    name: read.activity.name ?? app.name,
    application_id: app.id,
    created_at: ctx.store.now(),
  };
}

function setActivity(scope: CommandScope, args: Record<string, unknown>): unknown {
  const { ctx } = scope;
  // Over IPC the desktop client ties the activity to the game's process, so the pid is required.
  if (typeof args.pid !== 'number' || !Number.isSafeInteger(args.pid) || args.pid <= 0) {
    fail(RpcErrorCode.InvalidPayload, 'child "pid" fails because ["pid" must be a positive integer]');
  }
  if (args.activity === null || args.activity === undefined) {
    ctx.presence.set(scope.user.id, scope.source, { activities: [], surface: 'desktop' });
    return null;
  }
  const activity = storedActivity(ctx, args.activity);
  ctx.presence.set(scope.user.id, scope.source, { activities: [activity], surface: 'desktop' });
  ctx.log.line('rpc', `${scope.user.username} set an activity through the local client`);
  return activity;
}

/** What an AUTHORIZE asks for, read from its arguments. */
export interface AuthorizeRequest {
  scopes: string[];
  /** The PKCE S256 challenge, or null when none was sent. */
  codeChallenge: string | null;
  nonce: string | null;
}

/**
 * Reads AUTHORIZE arguments: the application's client id, known scopes (`scopes`, or the Embedded App SDK's
 * `scope`, as a list or a space-separated string) and, when `pkce` is `required`, an S256 challenge. A
 * challenge that is sent must be well formed either way. Throws {@link RpcCommandError} 4000.
 */
export function readAuthorize(
  ctx: EmulatorContext,
  args: Record<string, unknown>,
  pkce: 'required' | 'optional',
): AuthorizeRequest {
  // A missing or foreign client id is a bad payload, like a missing challenge.
  if (typeof args.client_id !== 'string' || args.client_id === '')
    fail(RpcErrorCode.InvalidPayload, 'client_id is required');
  if (args.client_id !== ctx.store.state.application.id)
    fail(RpcErrorCode.InvalidPayload, 'Invalid client_id');
  const requested = args.scopes ?? args.scope;
  const scopes = Array.isArray(requested)
    ? requested.filter((s): s is string => typeof s === 'string')
    : parseScopeParam(typeof requested === 'string' ? requested : '');
  if (scopes.length === 0 || scopes.some((s) => !isKnownScope(s))) {
    fail(RpcErrorCode.InvalidPayload, 'scopes must name known OAuth2 scopes');
  }
  const sent = args.code_challenge !== undefined || args.code_challenge_method !== undefined;
  if (
    (pkce === 'required' || sent) &&
    (args.code_challenge_method !== 'S256' ||
      typeof args.code_challenge !== 'string' ||
      !CHALLENGE.test(args.code_challenge))
  ) {
    fail(RpcErrorCode.InvalidPayload, 'a PKCE S256 code_challenge is required');
  }
  return {
    scopes,
    codeChallenge: typeof args.code_challenge === 'string' ? args.code_challenge : null,
    nonce: typeof args.nonce === 'string' ? args.nonce : null,
  };
}

/** Issues the authorization code of an approved AUTHORIZE (no redirect URI: it is exchanged as is). */
export function issueCode(
  ctx: EmulatorContext,
  user: UserRecord,
  request: AuthorizeRequest,
): { code: string } {
  const code = ctx.store.createCode({
    userId: user.id,
    redirectUri: '',
    scope: request.scopes.join(' '),
    scopes: expandScopes(request.scopes),
    codeChallenge: request.codeChallenge,
    nonce: request.nonce,
    expiresAt: ctx.store.now() + ctx.options.codeTtlMs,
  });
  return { code: code.code };
}

function authorize(scope: CommandScope, args: Record<string, unknown>): unknown {
  const { ctx } = scope;
  const request = readAuthorize(ctx, args, 'required');
  if (!scope.consent())
    fail(RpcErrorCode.OAuth2Error, 'OAuth2 Error: the user did not authorize the application');
  const code = issueCode(ctx, scope.user, request);
  ctx.log.line('rpc', `${scope.user.username} authorized ${request.scopes.join(' ')} in the local client`);
  return code;
}

/**
 * Checks an AUTHENTICATE token: a live access token of `user`. Returns the token's record and the reply's
 * user, scopes, expiry and application. Throws {@link RpcCommandError} 4009.
 */
export function authenticateToken(
  ctx: EmulatorContext,
  user: UserRecord,
  args: Record<string, unknown>,
): { scopes: string[]; reply: Record<string, unknown> } {
  const token = typeof args.access_token === 'string' ? ctx.store.accessToken(args.access_token) : undefined;
  if (!token || token.userId !== user.id) fail(RpcErrorCode.InvalidToken, 'Invalid token');
  const app = ctx.store.state.application;
  const scopes = token.scope.split(' ');
  return {
    scopes,
    reply: {
      user: wireUser(user),
      scopes,
      expires: new Date(token.expiresAt).toISOString(),
      application: { id: app.id, name: app.name, icon: null, description: '', rpc_origins: [] },
    },
  };
}

function authenticate(scope: CommandScope, args: Record<string, unknown>): unknown {
  return authenticateToken(scope.ctx, scope.user, args).reply;
}

function subscription(scope: CommandScope, command: RpcCommand): unknown {
  const evt = command.evt;
  if (evt === undefined || !SUBSCRIBABLE_EVENTS.has(evt)) {
    fail(RpcErrorCode.InvalidEvent, `Invalid event: ${evt ?? '(none)'}`);
  }
  if (evt === 'GUILD_STATUS') {
    return guildStatusSubscription(
      scope.ctx.guilds,
      scope.user,
      command,
      scope.guildStatus,
      scope.subscriptions,
    );
  }
  if (command.cmd === 'SUBSCRIBE') scope.subscriptions.add(evt);
  else scope.subscriptions.delete(evt);
  return { evt };
}

function userCommand(scope: CommandScope, command: RpcCommand): unknown {
  const userId = command.args.user_id;
  if (typeof userId !== 'string' || !scope.ctx.store.user(userId))
    fail(RpcErrorCode.InvalidUser, 'Invalid user');
  scope.record(command.cmd, command.args);
  return null;
}

/**
 * OPEN_AUTHORIZE_DEVICE_SCREEN `{client_id, user_code}` shows the code on the desktop client's device
 * authorization screen; CLOSE_AUTHORIZE_DEVICE_SCREEN hides it. Neither needs a signed-in game: a device flow
 * runs before the game has a token.
 */
function deviceScreenCommand(scope: CommandScope, command: RpcCommand): unknown {
  const { ctx } = scope;
  const screen = deviceScreenOf(ctx, () => ctx.store.now());
  if (command.cmd === 'CLOSE_AUTHORIZE_DEVICE_SCREEN') {
    screen.close('closed');
    return null;
  }
  const problem = screen.open(ctx.store.state.application.id, command.args);
  if (problem !== null) fail(RpcErrorCode.InvalidPayload, problem);
  ctx.log.line('rpc', `${scope.user.username}'s desktop client shows a device authorization code`);
  return null;
}

/** Runs one command and returns its reply data; throws {@link RpcCommandError} for an ERROR reply. */
export function runCommand(scope: CommandScope, command: RpcCommand): unknown {
  switch (command.cmd) {
    case 'SET_ACTIVITY':
      return setActivity(scope, command.args);
    case 'AUTHORIZE':
      return authorize(scope, command.args);
    case 'AUTHENTICATE':
      return authenticate(scope, command.args);
    case 'SUBSCRIBE':
    case 'UNSUBSCRIBE':
      return subscription(scope, command);
    case 'SEND_ACTIVITY_JOIN_INVITE':
    case 'CLOSE_ACTIVITY_JOIN_REQUEST':
    case 'CLOSE_ACTIVITY_REQUEST':
      return userCommand(scope, command);
    case 'OPEN_AUTHORIZE_DEVICE_SCREEN':
    case 'CLOSE_AUTHORIZE_DEVICE_SCREEN':
      return deviceScreenCommand(scope, command);
    default: {
      const chat = runChatCommand(scope, command.cmd, command.args);
      return chat ? chat.reply : fail(RpcErrorCode.InvalidCommand, `Invalid command: ${command.cmd}`);
    }
  }
}
