import {
  RelationshipType,
  StatusType,
  statusToString,
  type Client,
  type LobbyHandle,
  type MessageHandle,
  type RelationshipHandle,
  type UserHandle,
} from 'sdkpp';

import type {
  AudioDevicesView,
  AudioDeviceView,
  EngineView,
  FriendRelation,
  FriendView,
  LobbyView,
  MessageView,
  Presence,
  SessionView,
  UserView,
} from '../shared/api.js';

// SDK handles are live objects with getters; the renderer gets plain snapshots it can clone and keep.

const PRESENCE: Record<StatusType, Presence> = {
  [StatusType.Online]: 'online',
  [StatusType.Offline]: 'offline',
  [StatusType.Blocked]: 'offline',
  [StatusType.Idle]: 'idle',
  [StatusType.Dnd]: 'dnd',
  [StatusType.Invisible]: 'offline',
  [StatusType.Streaming]: 'streaming',
  [StatusType.Unknown]: 'unknown',
};

const RELATION: Partial<Record<RelationshipType, FriendRelation>> = {
  [RelationshipType.Friend]: 'friend',
  [RelationshipType.PendingIncoming]: 'incoming',
  [RelationshipType.PendingOutgoing]: 'outgoing',
};

/** A user as the UI shows them. */
export function userView(user: UserHandle): UserView {
  return { id: user.id, username: user.username, displayName: user.displayName };
}

/** Status, player and media engine. */
export function sessionView(client: Client): SessionView {
  const user = client.getCurrentUser();
  const info = client.getMediaEngineInfo();
  const engine: EngineView = {
    engine: info.engine,
    version: info.version,
    crypto: info.crypto.version.startsWith(info.crypto.backend)
      ? info.crypto.version
      : `${info.crypto.backend} (${info.crypto.version})`,
    codec: info.codec.name,
    fallbackReason: info.fallbackReason ?? null,
  };
  return { status: statusToString(client.getStatus()), user: user ? userView(user) : null, engine };
}

function friendView(relationship: RelationshipHandle, relation: FriendRelation): FriendView | undefined {
  const user = relationship.user;
  if (!user) return undefined;
  const activity = user.gameActivity;
  const playing = activity ? [activity.name, activity.details].filter(Boolean).join(': ') : '';
  return { ...userView(user), relation, presence: PRESENCE[user.status], activity: playing || null };
}

/**
 * The friends panel: friends in the SDK's order (playing this game, online elsewhere, offline), then
 * requests waiting for the player, then requests the player sent.
 */
export function friendsView(client: Client): FriendView[] {
  const friends = client.getFriendsList().flatMap((r) => friendView(r, 'friend') ?? []);
  const pending = client.getRelationships().flatMap((r) => {
    const relation = RELATION[r.discordRelationshipType] ?? RELATION[r.gameRelationshipType];
    if (relation === undefined || relation === 'friend') return [];
    return friendView(r, relation) ?? [];
  });
  const order: FriendRelation[] = ['incoming', 'outgoing'];
  return [...friends, ...pending.sort((a, b) => order.indexOf(a.relation) - order.indexOf(b.relation))];
}

/**
 * A message. For a direct message the conversation is keyed by the other user, whoever wrote it: the SDK's
 * `channelId` is the other user's id.
 */
export function messageView(message: MessageHandle): MessageView {
  const lobbyId = message.lobbyId;
  return {
    id: message.id,
    authorId: message.authorId,
    authorName: message.additionalName ?? message.author?.displayName ?? message.authorId,
    content: message.content,
    sentAt: message.sentTimestamp,
    conversation: lobbyId ? { kind: 'lobby', lobbyId } : { kind: 'dm', userId: message.channelId },
  };
}

/** A lobby and its members. */
export function lobbyView(lobby: LobbyHandle): LobbyView {
  return {
    id: lobby.id,
    members: lobby.lobbyMembers.map((member) => ({
      id: member.id,
      username: member.user?.username ?? member.id,
      displayName: member.additionalName ?? member.user?.displayName ?? member.id,
      connected: member.connected,
    })),
  };
}

/** The SDK's virtual devices (files, a simulated room) are for tests: the page is offered none of them. */
const VIRTUAL = /^(wav-in|wav-out|room):/u;

function deviceViews(devices: readonly AudioDeviceView[]): AudioDeviceView[] {
  return devices
    .filter((d) => !VIRTUAL.test(d.id))
    .map(({ id, name, isDefault }) => ({ id, name, isDefault }));
}

/** The devices the page may choose from, and the call's current ones. */
export async function audioDevicesView(client: Client): Promise<AudioDevicesView> {
  const [inputs, outputs, input, output] = await Promise.all([
    client.getInputDevices(),
    client.getOutputDevices(),
    client.getCurrentInputDevice(),
    client.getCurrentOutputDevice(),
  ]);
  return { inputs: deviceViews(inputs), outputs: deviceViews(outputs), input: input.id, output: output.id };
}
