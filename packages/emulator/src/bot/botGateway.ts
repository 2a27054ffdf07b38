import { wireUser } from '../accounts/userObject.js';
import type { GatewayHub } from '../gateway/GatewayHub.js';
import type { GatewaySession } from '../gateway/GatewaySession.js';
import { CAPABILITY_CHANNEL_OBFUSCATION, Intent } from '../platform/intents.js';
import type { Guilds } from '../social/Guilds.js';
import type { EmulatorStore } from '../store/Store.js';
import type { ChannelMessageRecord, GuildChannelRecord, GuildRecord } from '../store/types.js';
import { wireChannel, obfuscatedChannel, wireGuild, wireMember, wireRole } from './guildWire.js';
import { wireMessage } from './messageWire.js';
import { wireScheduledEvent, wireSound } from './resourceWire.js';
import { wireGuildVoiceState } from './voiceWire.js';

/** The guild size above which GUILD_CREATE leaves offline members out (Identify's `large_threshold` default). */
const DEFAULT_LARGE_THRESHOLD = 50;

/** What other bot features (messages, members requests) need from the bot gateway. */
export interface BotGateway {
  /** The application's bot sessions, connected or resumable. */
  sessions(): GatewaySession[];
  /** Whether the session sees channels it cannot view obfuscated (capability bit or the portal toggle). */
  obfuscates(session: GatewaySession): boolean;
  /**
   * Dispatches to every bot session holding all of `intents` (0: every session) whose shard carries
   * `guildId` (null: shard 0, as DMs).
   */
  dispatch(
    event: string,
    intents: number,
    guildId: string | null,
    data: (session: GatewaySession) => unknown,
  ): void;
  /** A channel as this session may see it: full, or obfuscated when it cannot view it and obfuscation is on. */
  channelFor(session: GatewaySession, channel: GuildChannelRecord): Record<string, unknown>;
}

/**
 * Connects guilds to the bot's gateway sessions. READY lists the bot's guilds as unavailable, then each
 * arrives as GUILD_CREATE (GUILDS intent); role, channel and member changes follow as GUILD_ROLE_*, CHANNEL_*
 * (GUILDS), GUILD_MEMBER_* (the privileged GUILD_MEMBERS) and GUILD_BAN_* (GUILD_MODERATION). With channel obfuscation on, a channel the
 * bot cannot view is sent obfuscated, and when the bot gains or loses VIEW_CHANNEL on one (a role, member or
 * overwrite change) the session gets a CHANNEL_UPDATE with the data it may now see.
 */
export function wireBotGateway(deps: {
  hub: GatewayHub;
  guilds: Guilds;
  store: EmulatorStore;
  /** The emulator's HTTP origin, for attachment URLs. */
  http: string;
}): BotGateway {
  const { hub, guilds, store } = deps;
  const botId = store.state.application.id;
  /** Channels the bot may view, per guild it is in: what a change of permissions is compared against. */
  const visible = new Map<string, Set<string>>();

  const sessions = (): GatewaySession[] => hub.sessionsOf(botId).filter((s) => s.kind === 'bot');
  const obfuscates = (session: GatewaySession): boolean =>
    (session.capabilities & CAPABILITY_CHANNEL_OBFUSCATION) !== 0 ||
    store.state.application.channelObfuscation;
  const channelFor = (session: GatewaySession, channel: GuildChannelRecord): Record<string, unknown> =>
    obfuscates(session) && !guilds.mayView(botId, channel.id)
      ? obfuscatedChannel(channel)
      : wireChannel(channel, lastMessageId(channel.id));
  const dispatch = (
    event: string,
    intents: number,
    guildId: string | null,
    data: (session: GatewaySession) => unknown,
  ): void => {
    for (const session of sessions()) {
      if ((session.intents & intents) === intents && session.carries(guildId)) {
        hub.dispatchTo(session, event, data(session));
      }
    }
  };
  const lastMessageId = (channelId: string): string | null => guilds.messages.lastId(channelId);

  const viewable = (guildId: string): Set<string> =>
    new Set(
      guilds
        .channelsOf(guildId)
        .filter((c) => guilds.mayView(botId, c.id))
        .map((c) => c.id),
    );

  const guildCreate = (session: GatewaySession, guild: GuildRecord): Record<string, unknown> => {
    const memberIds = Object.keys(guild.members);
    const large = memberIds.length > DEFAULT_LARGE_THRESHOLD;
    // Without GUILD_MEMBERS only the bot itself is listed; with it, every member of a guild that is not large.
    const listed =
      (session.intents & Intent.GUILD_MEMBERS) !== 0 && !large
        ? memberIds
        : memberIds.filter((id) => id === botId);
    const botMember = guilds.member(guild.id, botId);
    return {
      ...wireGuild(guild, guilds),
      joined_at: new Date(botMember?.joinedAt ?? guild.createdAt).toISOString(),
      large,
      unavailable: false,
      member_count: memberIds.length,
      voice_states: guilds.voice.statesOf(guild.id).map((v) => wireGuildVoiceState(v, undefined)),
      members: listed.flatMap((id) => {
        const member = guilds.member(guild.id, id);
        return member ? [wireMember(member, store.user(id))] : [];
      }),
      channels: guilds.channelsOf(guild.id).map((c) => channelFor(session, c)),
      threads: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: guilds.resources
        .list(guild.id, 'scheduledEvents')
        .map((e) => wireScheduledEvent(e, guild.id, store.user(e.creatorId))),
      soundboard_sounds: guilds.resources
        .list(guild.id, 'soundboardSounds')
        .map((s) => wireSound(s, guild.id, store.user(s.userId))),
    };
  };

  /** After a change of the bot's permissions in a guild: tells obfuscating sessions about each flipped channel. */
  const recheckVisibility = (guildId: string, skip?: string): void => {
    if (!guilds.isMember(guildId, botId)) return;
    const before = visible.get(guildId) ?? new Set<string>();
    const after = viewable(guildId);
    visible.set(guildId, after);
    for (const channel of guilds.channelsOf(guildId)) {
      if (channel.id === skip || before.has(channel.id) === after.has(channel.id)) continue;
      for (const session of sessions()) {
        if (obfuscates(session) && (session.intents & Intent.GUILDS) !== 0 && session.carries(guildId)) {
          hub.dispatchTo(session, 'CHANNEL_UPDATE', channelFor(session, channel));
        }
      }
    }
  };

  hub.addReadyContributor((session) =>
    session.kind === 'bot'
      ? {
          guilds: guilds
            .guildsOf(botId)
            .filter((g) => session.carries(g.id))
            .map((g) => ({ id: g.id, unavailable: true })),
        }
      : {},
  );
  hub.on('sessionStarted', (session) => {
    if (session.kind !== 'bot' || (session.intents & Intent.GUILDS) === 0) return;
    for (const guild of guilds.guildsOf(botId)) {
      if (session.carries(guild.id)) hub.dispatchTo(session, 'GUILD_CREATE', guildCreate(session, guild));
    }
  });

  guilds.on('guildUpdated', (guild) => {
    if (!guilds.isMember(guild.id, botId)) return;
    dispatch('GUILD_UPDATE', Intent.GUILDS, guild.id, () => wireGuild(guild, guilds));
  });
  guilds.on('memberAdded', (guildId, userId) => {
    const guild = guilds.guild(guildId);
    const member = guilds.member(guildId, userId);
    if (!guild || !member) return;
    if (userId === botId) {
      visible.set(guildId, viewable(guildId));
      dispatch('GUILD_CREATE', Intent.GUILDS, guild.id, (s) => guildCreate(s, guild));
      return;
    }
    if (!guilds.isMember(guildId, botId)) return;
    dispatch('GUILD_MEMBER_ADD', Intent.GUILD_MEMBERS, guildId, () =>
      wireMember(member, store.user(userId), { guildId }),
    );
  });
  guilds.on('memberUpdated', (guildId, userId) => {
    const member = guilds.member(guildId, userId);
    const user = store.user(userId);
    if (!member || !user || !guilds.isMember(guildId, botId)) return;
    dispatch('GUILD_MEMBER_UPDATE', Intent.GUILD_MEMBERS, guildId, () =>
      wireMember(member, user, { guildId }),
    );
    if (userId === botId) recheckVisibility(guildId);
  });
  guilds.on('memberRemoved', (guildId, userId) => {
    const user = store.user(userId);
    if (userId === botId) {
      visible.delete(guildId);
      dispatch('GUILD_DELETE', Intent.GUILDS, guildId, () => ({ id: guildId }));
      return;
    }
    if (!user || !guilds.isMember(guildId, botId)) return;
    dispatch('GUILD_MEMBER_REMOVE', Intent.GUILD_MEMBERS, guildId, () => ({
      guild_id: guildId,
      user: wireUser(user),
    }));
  });

  // The platform sends the ban events under GUILD_MODERATION, apart from the member events a ban also causes.
  const banEvent =
    (event: 'GUILD_BAN_ADD' | 'GUILD_BAN_REMOVE') =>
    (guildId: string, userId: string): void => {
      const user = store.user(userId);
      if (!user || !guilds.isMember(guildId, botId)) return;
      dispatch(event, Intent.GUILD_MODERATION, guildId, () => ({ guild_id: guildId, user: wireUser(user) }));
    };
  guilds.on('banAdded', banEvent('GUILD_BAN_ADD'));
  guilds.on('banRemoved', banEvent('GUILD_BAN_REMOVE'));

  const roleEvent =
    (event: 'GUILD_ROLE_CREATE' | 'GUILD_ROLE_UPDATE') =>
    (guildId: string, role: Parameters<typeof wireRole>[0]): void => {
      if (!guilds.isMember(guildId, botId)) return;
      dispatch(event, Intent.GUILDS, guildId, () => ({ guild_id: guildId, role: wireRole(role) }));
      recheckVisibility(guildId);
    };
  guilds.on('roleCreated', roleEvent('GUILD_ROLE_CREATE'));
  guilds.on('roleUpdated', roleEvent('GUILD_ROLE_UPDATE'));
  guilds.on('roleDeleted', (guildId, role) => {
    if (!guilds.isMember(guildId, botId)) return;
    dispatch('GUILD_ROLE_DELETE', Intent.GUILDS, guildId, () => ({ guild_id: guildId, role_id: role.id }));
    recheckVisibility(guildId);
  });

  guilds.on('channelCreated', (channel) => {
    if (!guilds.isMember(channel.guildId, botId)) return;
    if (guilds.mayView(botId, channel.id)) visible.get(channel.guildId)?.add(channel.id);
    dispatch('CHANNEL_CREATE', Intent.GUILDS, channel.guildId, (s) => channelFor(s, channel));
  });
  guilds.on('channelUpdated', (channel) => {
    if (!guilds.isMember(channel.guildId, botId)) return;
    dispatch('CHANNEL_UPDATE', Intent.GUILDS, channel.guildId, (s) => channelFor(s, channel));
    // The channel itself was just sent as it now is; only its own visibility is settled here.
    recheckVisibility(channel.guildId, channel.id);
  });
  guilds.on('channelDeleted', (channel) => {
    if (!guilds.isMember(channel.guildId, botId)) return;
    const wasVisible = visible.get(channel.guildId)?.delete(channel.id) === true;
    dispatch('CHANNEL_DELETE', Intent.GUILDS, channel.guildId, (s) =>
      obfuscates(s) && !wasVisible ? obfuscatedChannel(channel) : wireChannel(channel, null),
    );
  });

  const messageFor = (
    session: GatewaySession,
    record: ChannelMessageRecord,
    guildId: string,
    withMember: boolean,
  ) => {
    // MESSAGE_CONTENT (asked for, and enabled for the app, or Identify was refused) shows the content; without
    // it a bot still reads its own messages and those that mention it.
    const content =
      (session.intents & Intent.MESSAGE_CONTENT) !== 0 ||
      record.authorId === botId ||
      (record.mentions ?? []).includes(botId);
    const member = withMember ? guilds.member(guildId, record.authorId) : undefined;
    return wireMessage(record, store, {
      http: deps.http,
      guildId,
      content,
      ...(member ? { extra: { member: wireMember(member, undefined, { withUser: false }) } } : {}),
    });
  };
  const messageEvent = (event: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE') => (record: ChannelMessageRecord) => {
    const channel = guilds.channel(record.channelId);
    if (!channel || !guilds.mayView(botId, channel.id)) return;
    dispatch(event, Intent.GUILD_MESSAGES, channel.guildId, (s) =>
      messageFor(s, record, channel.guildId, true),
    );
  };
  guilds.messages.on('messageCreated', messageEvent('MESSAGE_CREATE'));
  guilds.messages.on('messageUpdated', messageEvent('MESSAGE_UPDATE'));
  guilds.messages.on('messageDeleted', (record) => {
    const channel = guilds.channel(record.channelId);
    if (!channel || !guilds.mayView(botId, channel.id)) return;
    dispatch('MESSAGE_DELETE', Intent.GUILD_MESSAGES, channel.guildId, () => ({
      id: record.id,
      channel_id: channel.id,
      guild_id: channel.guildId,
    }));
  });

  guilds.voice.on('voiceState', (state) => {
    if (!guilds.isMember(state.guildId, botId)) return;
    const member = guilds.member(state.guildId, state.userId);
    dispatch('VOICE_STATE_UPDATE', Intent.GUILD_VOICE_STATES, state.guildId, () =>
      wireGuildVoiceState(state, member ? wireMember(member, store.user(state.userId)) : undefined),
    );
  });
  // The document leaves these two events' names open; these are the platform's.
  guilds.voice.on('status', (guildId, channelId, status) => {
    if (!guilds.isMember(guildId, botId)) return;
    dispatch('VOICE_CHANNEL_STATUS_UPDATE', Intent.GUILDS, guildId, () => ({
      id: channelId,
      guild_id: guildId,
      status,
    }));
  });
  guilds.voice.on('startTime', (guildId, channelId, voiceStartTime) => {
    if (!guilds.isMember(guildId, botId)) return;
    dispatch('VOICE_CHANNEL_START_TIME_UPDATE', Intent.GUILDS, guildId, () => ({
      id: channelId,
      guild_id: guildId,
      voice_start_time: voiceStartTime,
    }));
  });

  for (const guild of guilds.guildsOf(botId)) visible.set(guild.id, viewable(guild.id));
  return { sessions, obfuscates, dispatch, channelFor };
}
