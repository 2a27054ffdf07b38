import {
  ActivityPartyPrivacy,
  ActivityTypes,
  RelationshipType,
  type Activity,
  type Client,
  type ClientEvents,
  type UserHandle,
} from 'sdkpp';

import { say } from './print.js';

/** A signed-in player of the demo. */
export interface Player {
  name: string;
  client: Client;
}

/** The signed-in player's user id. */
export function idOf(player: Player): string {
  const id = player.client.getCurrentUser()?.id;
  if (id === undefined) throw new Error(`${player.name} is not signed in`);
  return id;
}

/** Resolves on the first `event` of `client` whose arguments satisfy `match`. */
export function next<E extends keyof ClientEvents>(
  client: Client,
  event: E,
  match: (...args: ClientEvents[E]) => boolean = () => true,
): Promise<ClientEvents[E]> {
  return new Promise((resolve) => {
    const listener = (...args: ClientEvents[E]): void => {
      if (!match(...args)) return;
      client.off(event, listener);
      resolve(args);
    };
    client.on(event, listener);
  });
}

/** One line about a friend, as a friends list would show it. */
export function describeFriend(user: UserHandle): string {
  const activity = user.gameActivity;
  const status = ['online', 'offline', 'blocked', 'idle', 'dnd', 'invisible', 'streaming', 'unknown'][
    user.status
  ];
  if (!activity) return `${user.displayName} (${status ?? '?'})`;
  const party = activity.party ? ` [party ${activity.party.currentSize}/${activity.party.maxSize}]` : '';
  return `${user.displayName} (${status ?? '?'}) — playing ${activity.name ?? '?'}: ${activity.details ?? ''}${party}`;
}

/** The first player sends a friend request by username; the second accepts it when it arrives. */
export async function befriend(asker: Player, answerer: Player): Promise<void> {
  const askerId = idOf(asker);
  const incoming = next(answerer.client, 'relationshipCreated', (id) => id === askerId);
  await asker.client.sendDiscordFriendRequest(answerer.client.getCurrentUser()?.username ?? '');
  say(asker.name, `sent a friend request to @${answerer.client.getCurrentUser()?.username ?? '?'}`);
  await incoming;
  const type = answerer.client.getRelationshipHandle(askerId).discordRelationshipType;
  say(answerer.name, `friend request from ${asker.name} (${RelationshipType[type]}); accepting`);
  const friends = next(asker.client, 'relationshipCreated', (id) => id === idOf(answerer));
  await answerer.client.acceptDiscordFriendRequest(askerId);
  await friends;
  for (const player of [asker, answerer]) {
    const list = player.client.getFriendsList().flatMap((r) => (r.user ? [describeFriend(r.user)] : []));
    say(player.name, `friends: ${list.join('; ')}`);
  }
}

/** The host sets a joinable rich presence (its join secret is the party's lobby secret) and the friend sees it. */
export async function hostParty(host: Player, friend: Player, joinSecret: string): Promise<Activity> {
  const hostId = idOf(host);
  const seen = next(
    friend.client,
    'userUpdated',
    (id) => id === hostId && friend.client.getUser(id)?.gameActivity !== null,
  );
  const activity: Activity = {
    type: ActivityTypes.Playing,
    details: 'Ranked match',
    state: 'In a party',
    party: { id: `party-${hostId}`, currentSize: 1, maxSize: 4, privacy: ActivityPartyPrivacy.Public },
    // Whoever accepts an invite receives the join secret: here, the secret of the party's lobby.
    secrets: { join: joinSecret },
    timestamps: { start: Date.now() },
  };
  await host.client.updateRichPresence(activity);
  say(host.name, 'set rich presence: Ranked match, party 1/4 (through the gateway)');
  await seen;
  const user = friend.client.getUser(hostId);
  if (user) say(friend.name, `sees ${describeFriend(user)}`);
  return activity;
}

/** The host invites the friend, who accepts and receives the join secret; resolves with it. */
export async function inviteAndJoin(host: Player, friend: Player): Promise<string> {
  const arrived = next(friend.client, 'activityInviteCreated');
  await host.client.sendActivityInvite(idOf(friend), 'Join my party!');
  say(host.name, `invited ${friend.name} to the party`);
  const [invite] = await arrived;
  say(friend.name, `invite from ${host.name} to party ${invite.partyId}; accepting`);
  const secret = await friend.client.acceptActivityInvite(invite);
  // The secret is the game's to use; the demo only shows that it arrived.
  say(friend.name, `got the join secret (${secret.length} characters): joining the party`);
  return secret;
}

/** The players exchange direct messages; the second reads the conversation back. */
export async function chat(first: Player, second: Player): Promise<void> {
  const firstId = idOf(first);
  const arrived = next(
    second.client,
    'messageCreated',
    (id) => second.client.getMessageHandle(id)?.authorId === firstId,
  );
  await first.client.sendUserMessage(idOf(second), 'gg! same time tomorrow?');
  const [messageId] = await arrived;
  const message = second.client.getMessageHandle(messageId);
  say(second.name, `DM from ${message?.author?.displayName ?? '?'}: "${message?.content ?? ''}"`);
  const replied = next(
    first.client,
    'messageCreated',
    (id) => first.client.getMessageHandle(id)?.authorId === idOf(second),
  );
  await second.client.sendUserMessage(firstId, 'sure, send me an invite');
  const [replyId] = await replied;
  say(
    first.name,
    `DM from ${second.client.getCurrentUser()?.displayName ?? '?'}: "${first.client.getMessageHandle(replyId)?.content ?? ''}"`,
  );
  const history = await second.client.getUserMessagesWithLimit(firstId, 50);
  say(
    second.name,
    `conversation with ${first.name}: ${history.length} messages (invites included), newest last`,
  );
}
