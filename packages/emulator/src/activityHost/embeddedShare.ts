import type { EmulatorContext } from '../context.js';
import { fail } from '../localClient/commands.js';
import { RpcErrorCode } from '../localClient/protocol.js';
import { ChannelKind } from '../social/Guilds.js';
import type { EmbeddedScope, ShareChoice } from './embeddedScope.js';

/** The longest `message` SHARE_LINK takes (the SDK's own schema says the same). */
const MAX_SHARE_MESSAGE = 1000;
/** The longest `custom_id` and `link_id` (the SDK's schema). */
export const MAX_CUSTOM_ID = 64;

/**
 * The Activity link of the application carrying `customId`: `<http>/activities/<application_id>?custom_id=…`,
 * as the platform's links name the application and carry the game's id for whoever opens them.
 */
export function activityLink(ctx: EmulatorContext, customId: string | null): string {
  const url = new URL(`/activities/${ctx.store.state.application.id}`, ctx.urls.http);
  if (customId !== null) url.searchParams.set('custom_id', customId);
  return url.href;
}

/**
 * The `custom_id` of an Activity link of this application (null when it has none); throws a RangeError for a
 * URL that is not one.
 */
export function customIdOfLink(ctx: EmulatorContext, link: string): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new RangeError(`"${link.slice(0, 100)}" is not an Activity link`);
  }
  const own = new URL(activityLink(ctx, null));
  if (url.origin !== own.origin || url.pathname !== own.pathname)
    throw new RangeError("not a link to this application's Activity");
  const customId = url.searchParams.get('custom_id');
  if (customId !== null && customId.length > MAX_CUSTOM_ID)
    throw new RangeError(`custom_id is longer than ${MAX_CUSTOM_ID} characters`);
  return customId;
}

/** An optional string argument of at most `max` characters; 4000 otherwise. */
function optionalId(args: Record<string, unknown>, name: string): string | null {
  const value = args[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_CUSTOM_ID)
    fail(RpcErrorCode.InvalidPayload, `"${name}" must be a string of at most ${MAX_CUSTOM_ID} characters`);
  return value;
}

/** Where a "send" of the share goes: the instance's channel if it takes messages, else its guild's first one. */
function sendChannel(scope: EmbeddedScope): { id: string; name: string } | null {
  const { ctx, instance, user } = scope;
  if (instance.guildId === null) return null;
  const candidates = ctx.guilds
    .channelsOf(instance.guildId)
    .filter((c) => c.type === ChannelKind.TEXT && ctx.guilds.maySend(user.id, c.id));
  const own = candidates.find((c) => c.id === instance.channelId);
  const channel = own ?? candidates[0];
  return channel ? { id: channel.id, name: channel.name } : null;
}

/**
 * SHARE_LINK (`shareLink`): the client's share modal, in the host page, with the game's message and the
 * Activity link carrying `custom_id`. The player copies the link or sends it (with the message) in a channel;
 * the share is kept (Emulator.activityShares). `referrer_id`, removed from the platform, is ignored silently,
 * as the document says. The reply is the SDK's: success, didCopyLink, didSendMessage.
 */
export async function shareLink(scope: EmbeddedScope, args: Record<string, unknown>): Promise<unknown> {
  const { ctx } = scope;
  if (typeof args.message !== 'string' || args.message.length > MAX_SHARE_MESSAGE)
    fail(
      RpcErrorCode.InvalidPayload,
      `"message" must be a string of at most ${MAX_SHARE_MESSAGE} characters`,
    );
  const message = args.message;
  const customId = optionalId(args, 'custom_id');
  const linkId = optionalId(args, 'link_id');
  const url = activityLink(ctx, customId);
  const channel = sendChannel(scope);
  const choice: ShareChoice = ctx.options.autoConsent
    ? channel
      ? 'send'
      : 'copy'
    : await scope.share({ message, url, channel });
  if (choice === null) return { success: false, didCopyLink: false, didSendMessage: false };
  let sent: { channelId: string; messageId: string } | null = null;
  if (choice === 'send') {
    if (!channel) fail(RpcErrorCode.InvalidChannel, 'there is no channel to send the link in');
    const content = message === '' ? url : `${message}\n${url}`;
    try {
      sent = { channelId: channel.id, messageId: ctx.guilds.post(channel.id, scope.user.id, content).id };
    } catch (error) {
      fail(RpcErrorCode.InvalidChannel, (error as Error).message);
    }
  }
  ctx.activityShares.add({
    id: ctx.store.nextId(),
    userId: scope.user.id,
    url,
    customId,
    linkId,
    message,
    via: choice,
    channelId: sent?.channelId ?? null,
    messageId: sent?.messageId ?? null,
    sharedAt: ctx.store.now(),
  });
  ctx.log.line('activity', `${scope.user.username} shared the Activity link (${choice})`);
  return { success: true, didCopyLink: choice === 'copy', didSendMessage: choice === 'send' };
}
