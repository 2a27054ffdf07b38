import {
  authenticateToken,
  fail,
  issueCode,
  readAuthorize,
  storedActivity,
} from '../localClient/commands.js';
import { RpcErrorCode, type RpcCommand } from '../localClient/protocol.js';
import { wireEntitlement } from '../premium/premiumWire.js';
import type { EntitlementRecord, SkuRecord } from '../store/types.js';
import { embeddedRelationships } from './embeddedRelationships.js';
import type { EmbeddedScope } from './embeddedScope.js';
import { getChannel, openInviteDialog } from './embeddedChannel.js';
import { initiateImageUpload, openShareMomentDialog } from './embeddedMedia.js';
import { shareLink } from './embeddedShare.js';
import { subscribeArgs } from './embeddedVoice.js';
import { participantsOf, wireParticipant } from './embeddedUsers.js';

/** Events an Activity may subscribe to in the emulated desktop client. */
export const EMBEDDED_EVENTS: ReadonlySet<string> = new Set([
  'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
  'CURRENT_USER_UPDATE',
  'ENTITLEMENT_CREATE',
  'RELATIONSHIP_UPDATE',
  'VOICE_STATE_UPDATE',
  'SPEAKING_START',
  'SPEAKING_STOP',
  'CURRENT_GUILD_MEMBER_UPDATE',
  // Sent when the dashboard (or Emulator.setActivityLayout) changes the player's layout or orientation.
  'ACTIVITY_LAYOUT_MODE_UPDATE',
  'ORIENTATION_UPDATE',
  // Accepted, never sent: the emulated desktop client has one thermal state.
  'THERMAL_STATE_UPDATE',
]);

/** The scope SET_ACTIVITY needs (the Embedded App SDK's "Required scopes"). */
export const SET_ACTIVITY_SCOPE = 'rpc.activities.write';

/** The scope GET_RELATIONSHIPS and RELATIONSHIP_UPDATE need (open to Activities; the document's note). */
export const RELATIONSHIPS_SCOPE = 'relationships.read';

/** How long one console line of the game is kept. */
const CONSOLE_LINE_CHARS = 2000;

/** The console levels the SDK forwards; the stored level is one of these constants, never the game's text. */
const CONSOLE_LEVELS = ['log', 'warn', 'debug', 'info', 'error'] as const;

export type { ConsoleLine, EmbeddedScope } from './embeddedScope.js';

/** A SKU as GET_SKUS_EMBEDDED sends it: with its price (free ones cost 0) and no release date. */
export function embeddedSku(sku: SkuRecord, applicationId: string): Record<string, unknown> {
  return {
    id: sku.id,
    name: sku.name,
    type: sku.type,
    price: sku.price ? { ...sku.price } : { amount: 0, currency: 'usd' },
    application_id: applicationId,
    flags: sku.flags,
    release_date: null,
  };
}

/** An entitlement as the Embedded App SDK reads it (the API's, with `gift_code_flags`). */
export function embeddedEntitlement(e: EntitlementRecord, applicationId: string): Record<string, unknown> {
  return { ...wireEntitlement(e, applicationId), gift_code_flags: 0 };
}

async function startPurchase(scope: EmbeddedScope, args: Record<string, unknown>): Promise<unknown> {
  const { ctx } = scope;
  const sku = typeof args.sku_id === 'string' ? ctx.premium.sku(args.sku_id) : undefined;
  if (!sku) fail(RpcErrorCode.InvalidPayload, 'Unknown SKU');
  // What the player cannot buy (unavailable, a durable owned, a live subscription) is refused before the modal.
  const problem = ctx.premium.purchaseProblem(scope.user.id, sku.id);
  if (problem !== undefined) fail(RpcErrorCode.InvalidPayload, problem);
  // The client shows its purchase modal; a player who closes it buys nothing, and the SDK gets null.
  if (!(await scope.confirmPurchase(sku))) return null;
  let bought: EntitlementRecord;
  try {
    bought = ctx.premium.purchase(scope.user.id, sku.id).entitlement;
  } catch (error) {
    return fail(RpcErrorCode.InvalidPayload, (error as Error).message);
  }
  ctx.log.line('activity', `${scope.user.username} bought ${sku.name} in an Activity`);
  return [embeddedEntitlement(bought, ctx.store.state.application.id)];
}

async function authorize(scope: EmbeddedScope, args: Record<string, unknown>): Promise<unknown> {
  const { ctx } = scope;
  // An Activity's game server exchanges the code with the client secret, so a challenge is optional.
  const request = readAuthorize(ctx, args, 'optional');
  const approved = ctx.options.autoConsent || (await scope.consent(request));
  if (!approved) fail(RpcErrorCode.OAuth2Error, 'OAuth2 Error: the user did not authorize the application');
  ctx.log.line('activity', `${scope.user.username} authorized ${request.scopes.join(' ')} in an Activity`);
  return issueCode(ctx, scope.user, request);
}

function authenticate(scope: EmbeddedScope, args: Record<string, unknown>): unknown {
  const { scopes, reply } = authenticateToken(scope.ctx, scope.user, args);
  scope.authenticated = scopes;
  // The SDK's reply carries the token back, and the user's public flags.
  const user = reply.user as Record<string, unknown>;
  return { access_token: args.access_token, ...reply, user: { ...user, public_flags: user.flags } };
}

/** Throws 4006 unless AUTHENTICATE accepted a token with `needed`. */
function requireScope(scope: EmbeddedScope, needed: string, what: string): void {
  if (!scope.authenticated?.includes(needed)) {
    fail(RpcErrorCode.InvalidPermissions, `${what} needs an AUTHENTICATE with ${needed}`);
  }
}

function getUser(scope: EmbeddedScope, args: Record<string, unknown>): unknown {
  if (typeof args.id !== 'string' || args.id.length === 0 || args.id.length > 64) {
    fail(RpcErrorCode.InvalidPayload, '"id" must be a user id');
  }
  const user = scope.ctx.store.user(args.id);
  // Bots and unknown ids read as no one.
  return user && !user.bot ? wireParticipant(user) : null;
}

function setActivity(scope: EmbeddedScope, args: Record<string, unknown>): unknown {
  const { ctx } = scope;
  requireScope(scope, SET_ACTIVITY_SCOPE, 'SET_ACTIVITY');
  if (args.activity === null || args.activity === undefined) {
    ctx.presence.set(scope.user.id, scope.source, { activities: [], surface: 'desktop' });
    return null;
  }
  const activity = storedActivity(ctx, args.activity);
  ctx.presence.set(scope.user.id, scope.source, { activities: [activity], surface: 'desktop' });
  ctx.log.line('activity', `${scope.user.username} set an activity from the Activity`);
  return activity;
}

function subscription(scope: EmbeddedScope, command: RpcCommand): unknown {
  const evt = command.evt;
  if (evt === undefined || !EMBEDDED_EVENTS.has(evt)) {
    fail(RpcErrorCode.InvalidEvent, `Invalid event: ${evt ?? '(none)'}`);
  }
  if (evt === 'RELATIONSHIP_UPDATE' && command.cmd === 'SUBSCRIBE')
    requireScope(scope, RELATIONSHIPS_SCOPE, evt);
  if (command.cmd === 'SUBSCRIBE') {
    scope.subscriptionArgs.set(evt, subscribeArgs(scope, command));
    scope.subscriptions.add(evt);
  } else {
    scope.subscriptions.delete(evt);
    scope.subscriptionArgs.delete(evt);
  }
  return { evt };
}

/**
 * A copy of the first `max` characters of `text` that shares no memory with it. A plain slice may keep the
 * whole original alive in the engine (a 2000-character line held a 250 KB message), and a console keeps
 * hundreds of lines.
 */
function detachedPrefix(text: string, max: number): string {
  return Buffer.from(text.slice(0, max), 'utf8').toString('utf8');
}

function captureLog(scope: EmbeddedScope, args: Record<string, unknown>): unknown {
  const level = CONSOLE_LEVELS.find((l) => l === args.level) ?? 'log';
  const message = typeof args.message === 'string' ? detachedPrefix(args.message, CONSOLE_LINE_CHARS) : '';
  scope.captureLog({ userId: scope.user.id, level, message });
  return null;
}

function openExternalLink(scope: EmbeddedScope, args: Record<string, unknown>): unknown {
  let url: URL | undefined;
  try {
    url = typeof args.url === 'string' && args.url.length <= 2048 ? new URL(args.url) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    fail(RpcErrorCode.InvalidPayload, '"url" must be an http(s) URL');
  }
  scope.openLink(url.href);
  return { opened: true };
}

/**
 * Runs one command of the Embedded App SDK and returns its reply data; rejects with an RpcCommandError for an
 * ERROR reply. The commands an Activity on the desktop client answers: authorization, rich presence,
 * subscriptions, participants, console capture and the client's settings.
 */
export async function runEmbeddedCommand(scope: EmbeddedScope, command: RpcCommand): Promise<unknown> {
  const { args } = command;
  switch (command.cmd) {
    case 'AUTHORIZE':
      return authorize(scope, args);
    case 'AUTHENTICATE':
      return authenticate(scope, args);
    case 'SET_ACTIVITY':
      return setActivity(scope, args);
    case 'SUBSCRIBE':
    case 'UNSUBSCRIBE':
      return subscription(scope, command);
    case 'GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS':
      return { participants: participantsOf(scope.ctx, scope.instance) };
    case 'CAPTURE_LOG':
      return captureLog(scope, args);
    case 'GET_SKUS_EMBEDDED':
      return {
        skus: scope.ctx.premium
          .skus()
          .filter((s) => scope.ctx.premium.available(s.id))
          .map((s) => embeddedSku(s, scope.ctx.store.state.application.id)),
      };
    case 'GET_ENTITLEMENTS_EMBEDDED':
      return {
        entitlements: scope.ctx.premium
          .entitlements()
          .filter((e) => e.userId === scope.user.id && !e.deleted)
          .map((e) => embeddedEntitlement(e, scope.ctx.store.state.application.id)),
      };
    case 'START_PURCHASE':
      return startPurchase(scope, args);
    case 'SHARE_LINK':
      return shareLink(scope, args);
    case 'GET_CHANNEL':
      return getChannel(scope, args);
    case 'OPEN_INVITE_DIALOG':
      return openInviteDialog(scope);
    case 'OPEN_SHARE_MOMENT_DIALOG':
      return openShareMomentDialog(scope, args);
    case 'INITIATE_IMAGE_UPLOAD':
      return initiateImageUpload(scope);
    case 'OPEN_EXTERNAL_LINK':
      return openExternalLink(scope, args);
    case 'GET_RELATIONSHIPS':
      requireScope(scope, RELATIONSHIPS_SCOPE, 'GET_RELATIONSHIPS');
      return { relationships: embeddedRelationships(scope.ctx, scope.user.id) };
    case 'GET_USER':
      return getUser(scope, args);
    case 'USER_SETTINGS_GET_LOCALE':
      // The emulated client speaks one language.
      return { locale: 'en-US' };
    case 'GET_PLATFORM_BEHAVIORS':
      return { iosKeyboardResizesView: false };
    case 'ENCOURAGE_HW_ACCELERATION':
      return { enabled: true };
    case 'SET_CONFIG':
      return { use_interactive_pip: args.use_interactive_pip === true };
    case 'SET_ORIENTATION_LOCK_STATE':
      return null;
    default:
      return fail(RpcErrorCode.InvalidCommand, `Invalid command: ${command.cmd}`);
  }
}
