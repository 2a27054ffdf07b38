import { describe, expect, it } from 'vitest';

import {
  Activity,
  ActivityActionTypes,
  ActivityGamePlatforms,
  ActivityParty,
  ActivitySecrets,
  ActivityTypes,
  ClientResult,
  ClientStatus,
  ErrorType,
  RelationshipType,
  StatusType,
  type ActivityInvite,
} from '../../packages/sdkpp/bindings/index.js';
import { aliceAndBob, pumpUntil } from './bindingsHelpers.js';

describe('bindings: friends, presence and invites', () => {
  it('befriend, see presence, invite and accept, all through callbacks', async () => {
    const { alice, bob, aliceId, bobId } = await aliceAndBob();

    const created: bigint[] = [];
    bob.SetRelationshipCreatedCallback((userId, isDiscord) => {
      expect(isDiscord).toBe(true);
      created.push(userId);
    });
    let sent: ClientResult | undefined;
    alice.SendDiscordFriendRequest('bob', (result) => (sent = result));
    await pumpUntil(() => sent !== undefined && created.length === 1);
    expect(sent?.Successful()).toBe(true);
    expect(created).toEqual([aliceId]);
    expect(bob.GetRelationshipHandle(aliceId).DiscordRelationshipType()).toBe(
      RelationshipType.PendingIncoming,
    );

    let accepted: ClientResult | undefined;
    bob.AcceptDiscordFriendRequest(aliceId, (result) => (accepted = result));
    await pumpUntil(
      () => accepted !== undefined && alice.GetRelationships().some((r) => r.DiscordRelationshipType() === 1),
    );
    const friend = alice.GetRelationshipHandle(bobId);
    expect(friend.User()?.Username()).toBe('bob');
    await pumpUntil(() => alice.GetUser(bobId)?.Status() === StatusType.Online);

    // Bob hosts a joinable party.
    const activity = new Activity();
    activity.SetType(ActivityTypes.Playing);
    activity.SetDetails('Capture the flag');
    const party = new ActivityParty();
    party.SetId('bindings-party');
    party.SetCurrentSize(1);
    party.SetMaxSize(4);
    activity.SetParty(party);
    const secrets = new ActivitySecrets();
    secrets.SetJoin('bindings-secret');
    activity.SetSecrets(secrets);
    activity.SetSupportedPlatforms(ActivityGamePlatforms.Desktop | ActivityGamePlatforms.Android);
    let presence: ClientResult | undefined;
    bob.UpdateRichPresence(activity, (result) => (presence = result));
    await pumpUntil(
      () => presence !== undefined && alice.GetUser(bobId)?.GameActivity()?.Details() === 'Capture the flag',
    );
    expect(alice.GetUser(bobId)?.GameActivity()?.Party()?.Id()).toBe('bindings-party');
    expect(alice.GetUser(bobId)?.GameActivity()?.SupportedPlatforms()).toBe(
      ActivityGamePlatforms.Desktop | ActivityGamePlatforms.Android,
    );
    expect(alice.GetUser(bobId)?.GameActivity()?.ApplicationId()).toBe(bob.GetApplicationId());
    expect(alice.GetUser(bobId)?.GameActivity()?.ParentApplicationId()).toBeUndefined();

    // Bob invites Alice; she accepts and gets the secret.
    let invite: ActivityInvite | undefined;
    alice.SetActivityInviteCreatedCallback((received) => (invite = received));
    bob.SendActivityInvite(aliceId, 'come play', (result) => {
      expect(result.Successful()).toBe(true);
    });
    await pumpUntil(() => invite !== undefined);
    expect(invite?.Type()).toBe(ActivityActionTypes.Join);
    expect(invite?.SenderId()).toBe(bobId);
    expect(invite?.PartyId()).toBe('bindings-party');
    let joinSecret: string | undefined;
    if (invite)
      alice.AcceptActivityInvite(invite, (result, secret) => {
        expect(result.Successful()).toBe(true);
        joinSecret = secret;
      });
    await pumpUntil(() => joinSecret !== undefined);
    expect(joinSecret).toBe('bindings-secret');

    // A validation failure arrives as a ClientResult, not a throw.
    let failed: ClientResult | undefined;
    alice.AcceptGameFriendRequest(bobId, (result) => (failed = result));
    await pumpUntil(() => failed !== undefined);
    expect(failed?.Type()).toBe(ErrorType.ValidationError);

    alice.Disconnect();
    bob.Disconnect();
    await pumpUntil(
      () => alice.GetStatus() === ClientStatus.Disconnected && bob.GetStatus() === ClientStatus.Disconnected,
    );
  });
});
