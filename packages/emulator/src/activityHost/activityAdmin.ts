import type { ActivityInstance } from '../activities/ActivityInstances.js';
import { activityOrigin } from '../activities/ActivityProxy.js';
import type { EmulatorContext } from '../context.js';
import type { EmulatorActivityInstance, EmulatorActivityLaunch, LaunchActivityOptions } from '../types.js';
import type { ActivityHost } from './ActivityHost.js';
import { customIdOfLink } from './embeddedShare.js';
import { HOST_PREFIX } from './hostPage.js';

/** The host page of a launch: on the proxy host, so the game's frame and its client share one origin. */
export function launchUrl(ctx: EmulatorContext, ticket: string): string {
  return `${activityOrigin(ctx.urls.http, ctx.store.state.application.id)}${HOST_PREFIX}?ticket=${ticket}`;
}

/** Launches (or joins) the instance of a place for a user; see Emulator.launchActivity. */
export function launchFor(
  ctx: EmulatorContext,
  userId: string,
  channelId: string | null,
  customId: string | null = null,
): { instance: ActivityInstance; url: string } {
  const channel = channelId === null ? null : ctx.guilds.channel(channelId);
  if (channelId !== null && !channel) throw new RangeError(`no channel "${channelId}"`);
  if (channel && !ctx.guilds.mayView(userId, channel.id)) {
    throw new RangeError('the player cannot see that channel');
  }
  const { instance, ticket } = ctx.activities.launch(
    userId,
    { guildId: channel?.guildId ?? null, channelId: channel?.id ?? null },
    customId,
  );
  const user = ctx.store.user(userId);
  ctx.log.line('activity', `${user?.username ?? userId} launched the Activity (instance ${instance.id})`);
  return { instance, url: launchUrl(ctx, ticket) };
}

/** See Emulator.launchActivity. */
export function launchActivity(ctx: EmulatorContext, options: LaunchActivityOptions): EmulatorActivityLaunch {
  const user = ctx.store.findUser(options.user);
  if (!user || user.bot) throw new RangeError(`launchActivity: no user "${options.user}"`);
  const customId = options.link === undefined ? null : customIdOfLink(ctx, options.link);
  const { instance, url } = launchFor(ctx, user.id, options.channel ?? null, customId);
  return {
    instanceId: instance.id,
    locationId: instance.locationId,
    guildId: instance.guildId,
    channelId: instance.channelId,
    url,
  };
}

/** See Emulator.activityInstances. */
export function activityInstances(ctx: EmulatorContext, host: ActivityHost): EmulatorActivityInstance[] {
  return ctx.activities.list().map((i) => ({
    id: i.id,
    locationId: i.locationId,
    guildId: i.guildId,
    channelId: i.channelId,
    launchedBy: i.launchedBy,
    participants: [...i.participants.keys()],
    console: host.consoleOf(i.id),
  }));
}
