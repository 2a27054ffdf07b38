import { describe, expect, it } from 'vitest';

import {
  Activity,
  ActivityActionTypes,
  ActivityAssets,
  ActivityButton,
  ActivityParty,
  ActivityPartyPrivacy,
  ActivitySecrets,
  ActivityTimestamps,
  ActivityTypes,
  AvatarType,
  RelationshipGroupType,
  RelationshipType,
  ResetCallbacks,
  StatusDisplayTypes,
  StatusType,
  type ActivityInvite,
  type Client,
} from '../../packages/sdkpp/bindings/index.js';
import { emulatorFor } from './helpers.js';
import { aliceAndBob, pumpUntil, readyClient, succeeds } from './bindingsHelpers.js';

/** A rich presence with every field the bindings carry. */
function fullActivity(partyId: string, secret: string): Activity {
  const activity = new Activity();
  activity.SetType(ActivityTypes.Playing);
  activity.SetDetails('Ranked match');
  activity.SetDetailsUrl('https://example.com/match');
  activity.SetState('In a group');
  activity.SetStateUrl('https://example.com/group');
  activity.SetStatusDisplayType(StatusDisplayTypes.Details);
  const assets = new ActivityAssets();
  assets.SetLargeImage('map-harbour');
  assets.SetLargeText('Harbour');
  assets.SetLargeUrl('https://example.com/harbour');
  assets.SetSmallImage('rank-gold');
  assets.SetSmallText('Gold');
  assets.SetSmallUrl('https://example.com/gold');
  assets.SetInviteCoverImage('cover-harbour');
  activity.SetAssets(assets);
  const timestamps = new ActivityTimestamps();
  timestamps.SetStart(1_700_000_000_000);
  activity.SetTimestamps(timestamps);
  const party = new ActivityParty();
  party.SetId(partyId);
  party.SetCurrentSize(1);
  party.SetMaxSize(4);
  party.SetPrivacy(ActivityPartyPrivacy.Public);
  activity.SetParty(party);
  const secrets = new ActivitySecrets();
  secrets.SetJoin(secret);
  activity.SetSecrets(secrets);
  const button = new ActivityButton();
  button.SetLabel('Watch');
  button.SetUrl('https://example.com/watch');
  activity.AddButton(button);
  return activity;
}

describe('bindings coverage: friends, presence and join requests', () => {
  it('game and platform friend requests: send, reject, cancel, accept, remove, block, unblock', async () => {
    const { alice, bob, aliceId, bobId } = await aliceAndBob();
    const deletedForBob: Array<[bigint, boolean]> = [];
    bob.SetRelationshipDeletedCallback((userId, isDiscord) => deletedForBob.push([userId, isDiscord]));
    const game = (client: Client, other: bigint): RelationshipType =>
      client.GetRelationshipHandle(other).GameRelationshipType();
    const platform = (client: Client, other: bigint): RelationshipType =>
      client.GetRelationshipHandle(other).DiscordRelationshipType();

    // Game friends: rejected, cancelled, then accepted by sending back, then removed.
    await succeeds((cb) => alice.SendGameFriendRequest('bob', cb));
    await pumpUntil(() => game(bob, aliceId) === RelationshipType.PendingIncoming);
    await succeeds((cb) => bob.RejectGameFriendRequest(aliceId, cb));
    await pumpUntil(() => game(alice, bobId) === RelationshipType.None);
    await succeeds((cb) => alice.SendGameFriendRequestById(bobId, cb));
    await pumpUntil(() => game(bob, aliceId) === RelationshipType.PendingIncoming);
    await succeeds((cb) => alice.CancelGameFriendRequest(bobId, cb));
    await pumpUntil(() => deletedForBob.some(([id, isDiscord]) => id === aliceId && !isDiscord));
    expect(game(bob, aliceId)).toBe(RelationshipType.None);
    await succeeds((cb) => alice.SendGameFriendRequestById(bobId, cb));
    await pumpUntil(() => game(bob, aliceId) === RelationshipType.PendingIncoming);
    await succeeds((cb) => bob.SendGameFriendRequestById(aliceId, cb)); // sending back accepts
    await pumpUntil(() => game(alice, bobId) === RelationshipType.Friend);
    await succeeds((cb) => alice.RemoveGameFriend(bobId, cb));
    await pumpUntil(() => game(bob, aliceId) === RelationshipType.None);

    // Platform friends: rejected, cancelled, accepted, then removed.
    await succeeds((cb) => alice.SendDiscordFriendRequestById(bobId, cb));
    await pumpUntil(() => platform(bob, aliceId) === RelationshipType.PendingIncoming);
    expect(bob.GetRelationshipHandle(aliceId).IsSpamRequest()).toBe(false);
    await succeeds((cb) => bob.RejectDiscordFriendRequest(aliceId, cb));
    await pumpUntil(() => platform(alice, bobId) === RelationshipType.None);
    await succeeds((cb) => alice.SendDiscordFriendRequest('bob', cb));
    await pumpUntil(() => platform(bob, aliceId) === RelationshipType.PendingIncoming);
    await succeeds((cb) => alice.CancelDiscordFriendRequest(bobId, cb));
    await pumpUntil(() => platform(bob, aliceId) === RelationshipType.None);
    await succeeds((cb) => alice.SendDiscordFriendRequestById(bobId, cb));
    await pumpUntil(() => platform(bob, aliceId) === RelationshipType.PendingIncoming);
    await succeeds((cb) => bob.AcceptDiscordFriendRequest(aliceId, cb));
    await pumpUntil(() => platform(alice, bobId) === RelationshipType.Friend);
    expect(alice.SearchFriendsByUsername('bo').map((u) => u.Username())).toEqual(['bob']);
    await succeeds((cb) => alice.RemoveDiscordAndGameFriend(bobId, cb));
    await pumpUntil(() => platform(bob, aliceId) === RelationshipType.None);
    expect(alice.SearchFriendsByUsername('bo')).toEqual([]);

    // Block and unblock.
    await succeeds((cb) => alice.BlockUser(bobId, cb));
    await pumpUntil(() => platform(alice, bobId) === RelationshipType.Blocked);
    expect(alice.GetUser(bobId)?.Status()).toBe(StatusType.Blocked);
    await succeeds((cb) => alice.UnblockUser(bobId, cb));
    await pumpUntil(() => platform(alice, bobId) === RelationshipType.None);

    alice.Disconnect();
    bob.Disconnect();
    await alice.core.destroy();
    await bob.core.destroy();
  });

  it('presence: every Activity field, groups, online status, user updates, clearing', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true });
    emulator.befriend('alice', 'bob');
    const alice = await readyClient(emulator, 'alice');
    const bob = await readyClient(emulator, 'bob');
    const bobId = BigInt(emulator.users[1]?.id ?? '0');
    const updatedUsers: bigint[] = [];
    const regrouped: bigint[] = [];
    alice.SetUserUpdatedCallback((userId) => updatedUsers.push(userId));
    alice.SetRelationshipGroupsUpdatedCallback((userId) => regrouped.push(userId));

    const bobAsSeen = alice.GetUser(bobId);
    expect(bobAsSeen?.GlobalName()).toBe('Bob');
    expect(bobAsSeen?.IsProvisional()).toBe(false);
    expect(bobAsSeen?.Avatar()).toBeUndefined();
    expect(bobAsSeen?.AvatarUrl(AvatarType.Gif, AvatarType.Png)).toMatch(/\/embed\/avatars\/\d\.png$/);

    const sent = fullActivity('party-full', 'secret-full');
    await succeeds((cb) => bob.UpdateRichPresence(sent, cb));
    await pumpUntil(() => bobAsSeen?.GameActivity()?.Details() === 'Ranked match');
    const seen = bobAsSeen?.GameActivity();
    expect(seen?.State()).toBe('In a group');
    expect([seen?.DetailsUrl(), seen?.StateUrl()]).toEqual([
      'https://example.com/match',
      'https://example.com/group',
    ]);
    expect(seen?.StatusDisplayType()).toBe(StatusDisplayTypes.Details);
    const assets = seen?.Assets();
    expect([assets?.LargeImage(), assets?.LargeText(), assets?.SmallImage(), assets?.SmallText()]).toEqual([
      'map-harbour',
      'Harbour',
      'rank-gold',
      'Gold',
    ]);
    expect([assets?.LargeUrl(), assets?.SmallUrl(), assets?.InviteCoverImage()]).toEqual([
      'https://example.com/harbour',
      'https://example.com/gold',
      'cover-harbour',
    ]);
    expect(seen?.Timestamps()?.Start()).toBe(1_700_000_000_000n);
    expect(seen?.Timestamps()?.End()).toBe(0n);
    const party = seen?.Party();
    expect([party?.CurrentSize(), party?.MaxSize(), party?.Privacy()]).toEqual([
      1,
      4,
      ActivityPartyPrivacy.Public,
    ]);
    // Others never receive the join secret.
    expect(seen?.Secrets()).toBeUndefined();
    expect(sent.GetButtons().map((b) => [b.Label(), b.Url()])).toEqual([
      ['Watch', 'https://example.com/watch'],
    ]);
    expect(updatedUsers).toContain(bobId);
    await pumpUntil(() => regrouped.includes(bobId));
    expect(alice.GetRelationshipsByGroup(RelationshipGroupType.OnlinePlayingGame).map((r) => r.Id())).toEqual(
      [bobId],
    );

    await succeeds((cb) => bob.SetOnlineStatus(StatusType.Idle, cb));
    await pumpUntil(() => bobAsSeen?.Status() === StatusType.Idle);
    bob.ClearRichPresence();
    await pumpUntil(() => bobAsSeen?.GameActivity() === undefined);
    expect(alice.GetRelationshipsByGroup(RelationshipGroupType.OnlinePlayingGame)).toEqual([]);
    expect(alice.GetRelationshipsByGroup(RelationshipGroupType.OnlineElsewhere).map((r) => r.Id())).toEqual([
      bobId,
    ]);

    alice.Disconnect();
    bob.Disconnect();
    await alice.core.destroy();
    await bob.core.destroy();
  });

  it('join request → reply → accept, and the invite turns invalid when the party changes', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true });
    emulator.befriend('alice', 'bob');
    const alice = await readyClient(emulator, 'alice');
    const bob = await readyClient(emulator, 'bob');
    const aliceId = BigInt(emulator.users[0]?.id ?? '0');
    const bobId = BigInt(emulator.users[1]?.id ?? '0');
    const toAlice: ActivityInvite[] = [];
    const toBob: ActivityInvite[] = [];
    const updatesForBob: ActivityInvite[] = [];
    alice.SetActivityInviteCreatedCallback((invite) => toAlice.push(invite));
    bob.SetActivityInviteCreatedCallback((invite) => toBob.push(invite));
    bob.SetActivityInviteUpdatedCallback((invite) => updatesForBob.push(invite));

    await succeeds((cb) => alice.UpdateRichPresence(fullActivity('party-b', 'secret-b'), cb));
    await pumpUntil(() => bob.GetUser(aliceId)?.GameActivity()?.Party()?.Id() === 'party-b');
    await succeeds((cb) => bob.SendActivityJoinRequest(aliceId, cb));
    await pumpUntil(() => toAlice.length === 1);
    const request = toAlice[0];
    if (!request) throw new Error('no join request');
    expect([request.Type(), request.SenderId(), request.PartyId()]).toEqual([
      ActivityActionTypes.JoinRequest,
      bobId,
      'party-b',
    ]);
    expect(request.MessageId()).not.toBe(0n);
    expect(request.SessionId()).not.toBe('');

    await succeeds((cb) => alice.SendActivityJoinRequestReply(request, cb));
    await pumpUntil(() => toBob.length === 1);
    const invite = toBob[0];
    if (!invite) throw new Error('no invite');
    expect(invite.Type()).toBe(ActivityActionTypes.Join);
    let secret: string | undefined;
    bob.AcceptActivityInvite(invite, (result, joinSecret) => {
      expect(result.Successful()).toBe(true);
      secret = joinSecret;
    });
    await pumpUntil(() => secret !== undefined);
    expect(secret).toBe('secret-b');

    await succeeds((cb) => alice.UpdateRichPresence(fullActivity('party-c', 'secret-c'), cb));
    await pumpUntil(() => updatesForBob.some((u) => !u.IsValid()));

    alice.Disconnect();
    bob.Disconnect();
    await alice.core.destroy();
    await bob.core.destroy();
  });
});
