import { shortId } from '../log.js';
import type { UserRecord } from '../store/types.js';
import type { Emulator, EmulatorVoiceCall } from '../types.js';
import type {
  DashboardActivity,
  DashboardBot,
  DashboardCall,
  DashboardState,
  DashboardUser,
} from './pageData.js';

/**
 * Why the dashboard shows no privacy code: the code is derived from the MLS epoch authenticator, a secret of
 * the group's members. The emulator's DAVE coordinator is only the group's external sender; computing the code
 * would need the group's secrets and break the end-to-end property.
 */
export const PRIVACY_CODE_NOTE =
  'Known only to the call members: the privacy code comes from the MLS epoch authenticator, which the ' +
  'server (an external sender, not a group member) never learns. Compare it in the clients.';

/** How many of the latest interactions and webhook deliveries the dashboard shows. */
export const BOT_ITEMS_SHOWN = 20;

/** How many of the desktop client's latest notifications and openings the dashboard shows. */
export const DESKTOP_ITEMS_SHOWN = 20;

/** How many of a lobby's latest messages the dashboard shows. */
export const LOBBY_MESSAGES_SHOWN = 20;

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The shown part of a stored activity; `secrets` and anything unknown are left out on purpose. */
function visibleActivity(activity: Record<string, unknown>): DashboardActivity {
  const party = activity.party;
  let shownParty: DashboardActivity['party'] = null;
  if (typeof party === 'object' && party !== null) {
    const size = (party as { size?: unknown }).size;
    shownParty = Array.isArray(size)
      ? { size: count(size[0]), max: count(size[1]) }
      : { size: null, max: null };
  }
  return {
    type: count(activity.type),
    name: text(activity.name),
    details: text(activity.details),
    state: text(activity.state),
    party: shownParty,
  };
}

function idsOf(list: { id: string; type: number }[], type: number): string[] {
  return list.filter((r) => r.type === type).map((r) => r.id);
}

function userView(emulator: Emulator, user: UserRecord, connected: Map<string, number>): DashboardUser {
  const presence = emulator.presenceOf(user.id);
  const { discord, game } = emulator.relationshipsOf(user.id);
  return {
    id: user.id,
    username: user.username,
    globalName: user.globalName,
    provisional: user.provisional,
    banned: user.banned,
    status: presence.status,
    activities: presence.activities.map(visibleActivity),
    connectedSessions: connected.get(user.id) ?? 0,
    friends: idsOf(discord, 1),
    incoming: idsOf(discord, 3),
    outgoing: idsOf(discord, 4),
    blocked: idsOf(discord, 2),
    gameFriends: idsOf(game, 1),
    gameIncoming: idsOf(game, 3),
    gameOutgoing: idsOf(game, 4),
  };
}

function callView(call: EmulatorVoiceCall): DashboardCall {
  return {
    channelId: call.channelId,
    guildId: call.guildId,
    daveProtocolVersion: call.daveProtocolVersion,
    daveEpoch: call.daveEpoch === null ? null : call.daveEpoch.toString(),
    privacyCode: null,
    privacyCodeNote: PRIVACY_CODE_NOTE,
    participants: call.participants.map((p) => ({
      userId: p.userId,
      selfMute: p.selfMute,
      selfDeaf: p.selfDeaf,
      connected: p.voice?.connected ?? false,
      ssrc: p.voice?.ssrc ?? null,
      speaking: p.voice?.speaking ?? 0,
      mode: p.voice?.mode ?? null,
      packetsFromClient: p.voice?.packetsFromClient ?? 0,
      packetsToClient: p.voice?.packetsToClient ?? 0,
    })),
    packetsIn: call.counters.packetsIn,
    packetsForwarded: call.counters.packetsForwarded,
  };
}

function botView(emulator: Emulator): DashboardBot {
  return {
    guilds: emulator.guilds().map((g) => ({
      id: g.id,
      name: g.name,
      botIn: Object.hasOwn(g.members, emulator.applicationId),
      channels: g.channels.map((c) => ({ id: c.id, name: c.name, type: c.type, botCanView: c.botCanView })),
    })),
    commands: emulator.commands(),
    interactions: emulator
      .interactions()
      .slice(-BOT_ITEMS_SHOWN)
      .reverse()
      .map((i) => ({
        id: i.id,
        type: i.type,
        name: i.name,
        userId: i.userId,
        delivery: i.delivery,
        responseType: i.responseType,
        modalOpen: i.modal !== null,
      })),
    deliveries: emulator
      .webhookDeliveries()
      .slice(-BOT_ITEMS_SHOWN)
      .reverse()
      .map((d) => ({
        id: d.id,
        eventType: d.eventType,
        state: d.state,
        attempts: d.attempts,
        status: d.status,
        error: d.error,
      })),
  };
}

/**
 * The dashboard's view of a running emulator, built from its public test API. Each field is chosen, never
 * copied wholesale, so a secret added to a record later cannot leak into the page.
 */
export function dashboardState(emulator: Emulator, users: readonly UserRecord[]): DashboardState {
  const sessions = emulator.gatewaySessions();
  const connected = new Map<string, number>();
  for (const s of sessions) if (s.connected) connected.set(s.userId, (connected.get(s.userId) ?? 0) + 1);
  return {
    emulator: {
      http: emulator.http,
      gateway: emulator.gateway,
      voice: emulator.voice.endpoint,
      applicationId: emulator.applicationId,
    },
    users: users.map((user) => userView(emulator, user, connected)),
    lobbies: emulator.lobbies().map((lobby) => ({
      id: lobby.id,
      createdBy: lobby.createdBy,
      metadata: lobby.metadata,
      linkedChannelId: lobby.linkedChannelId,
      members: lobby.members.map((m) => ({
        id: m.id,
        metadata: m.metadata,
        connected: m.connected,
        additionalName: m.additionalName,
      })),
      messages: emulator
        .lobbyMessages(lobby.id)
        .slice(0, LOBBY_MESSAGES_SHOWN)
        .reverse()
        .map((m) => ({
          id: m.id,
          authorId: m.authorId,
          content: m.content,
          additionalName: m.additionalName,
          time: m.timestamp,
        })),
    })),
    calls: emulator.voice.calls().map(callView),
    sessions: sessions.map((s) => ({
      id: shortId(s.sessionId),
      userId: s.userId,
      seq: s.seq,
      connected: s.connected,
    })),
    bot: botView(emulator),
    activity: {
      url: emulator.activityUrl,
      mappings: emulator.activityUrlMappings(),
      instances: emulator.activityInstances().map((i) => ({
        id: i.id,
        channelId: i.channelId,
        participants: i.participants,
        consoleLines: i.console.length,
      })),
    },
    desktopClient: {
      notifications: emulator
        .localClientNotifications()
        .slice(-DESKTOP_ITEMS_SHOWN)
        .map((n) => ({ at: n.at, authorId: n.authorId, body: n.body, shown: n.shown })),
      opened: emulator
        .localClientOpened()
        .slice(-DESKTOP_ITEMS_SHOWN)
        .map((o) => ({ at: o.at, kind: o.kind, messageId: o.messageId })),
    },
  };
}
