import { describe, expect, it } from 'vitest';

import {
  ActivityPartyPrivacy,
  ActivityTypes,
  AuthorizationTokenType,
  AvatarType,
  ClientNotReadyError,
  HttpError,
  RelationshipGroupType,
  RelationshipType,
  StatusType,
  ValidationError,
} from '../../packages/sdkpp/src/index.js';
import { clientFor, emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

describe('friends and presence', () => {
  it('befriends by username, sees the friend’s status and game activity, and removes the friend', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const created: string[] = [];
    bob.client.on('relationshipCreated', (userId, isDiscord) =>
      created.push(`${userId}:${String(isDiscord)}`),
    );

    await alice.client.sendDiscordFriendRequest('Bob');
    await eventually(
      () =>
        bob.client.getRelationshipHandle(alice.user.id).discordRelationshipType ===
        RelationshipType.PendingIncoming,
      5000,
      'the incoming request',
    );
    expect(created).toEqual([`${alice.user.id}:true`]);
    expect(alice.client.getRelationshipHandle(bob.user.id).discordRelationshipType).toBe(
      RelationshipType.PendingOutgoing,
    );
    expect(bob.client.getRelationshipHandle(alice.user.id).user?.username).toBe('alice');

    await bob.client.acceptDiscordFriendRequest(alice.user.id);
    await eventually(() => alice.client.getFriendsList().length === 1, 5000, 'the friendship');
    const friend = alice.client.getFriendsList()[0];
    expect(friend?.id).toBe(bob.user.id);
    expect(friend?.user?.displayName).toBe('Bob');
    await eventually(() => friend?.user?.status === StatusType.Online, 5000, 'Bob online');
    expect(
      alice.client.getRelationshipsByGroup(RelationshipGroupType.OnlineElsewhere).map((r) => r.id),
    ).toEqual([bob.user.id]);

    // Bob starts playing: Alice sees his game activity (without the secret) and he moves group.
    await bob.client.updateRichPresence({
      type: ActivityTypes.Playing,
      details: 'Ranked',
      state: 'In a party',
      party: { id: 'party-1', currentSize: 1, maxSize: 4, privacy: ActivityPartyPrivacy.Public },
      secrets: { join: 'join-secret-1' },
    });
    await eventually(() => alice.client.getUser(bob.user.id)?.gameActivity !== null, 5000, 'Bob’s activity');
    const activity = alice.client.getUser(bob.user.id)?.gameActivity;
    expect(activity).toMatchObject({
      type: ActivityTypes.Playing,
      details: 'Ranked',
      name: 'sdkpp Demo Game',
      party: { id: 'party-1', currentSize: 1, maxSize: 4, privacy: ActivityPartyPrivacy.Public },
    });
    expect(activity?.secrets).toBeUndefined();
    expect(alice.client.getRelationshipsByGroup(RelationshipGroupType.OnlinePlayingGame)).toHaveLength(1);

    // Party privacy changes propagate.
    await bob.client.updateRichPresence({
      type: ActivityTypes.Playing,
      party: { id: 'party-1', currentSize: 2, maxSize: 4, privacy: ActivityPartyPrivacy.Private },
    });
    await eventually(
      () => alice.client.getUser(bob.user.id)?.gameActivity?.party?.privacy === ActivityPartyPrivacy.Private,
      5000,
      'the private party',
    );

    // Invisible shows as offline.
    await bob.client.setOnlineStatus(StatusType.Invisible);
    await eventually(
      () => alice.client.getUser(bob.user.id)?.status === StatusType.Offline,
      5000,
      'Bob invisible',
    );
    expect(alice.client.getRelationshipsByGroup(RelationshipGroupType.Offline)).toHaveLength(1);

    const deleted: boolean[] = [];
    bob.client.on('relationshipDeleted', (_id, isDiscord) => deleted.push(isDiscord));
    await alice.client.removeDiscordAndGameFriend(bob.user.id);
    await eventually(() => deleted.length === 1, 5000, 'the removal');
    expect(alice.client.getFriendsList()).toEqual([]);
    expect(emulator.relationshipsOf(bob.user.id).discord).toEqual([]);
  });

  it('keeps game friends apart, sorts the unified list, searches, blocks and unblocks', async () => {
    const emulator = await emulatorFor({ autoConsent: true, users: 4 });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const carol = userAt(emulator, 2);
    const dave = userAt(emulator, 3);
    emulator.befriend('alice', 'dave');
    emulator.befriend('alice', 'carol', { game: true });

    await alice.client.sendGameFriendRequestById(bob.user.id);
    await eventually(
      () =>
        bob.client.getRelationshipHandle(alice.user.id).gameRelationshipType ===
        RelationshipType.PendingIncoming,
      5000,
      'the game request',
    );
    expect(bob.client.getRelationshipHandle(alice.user.id).discordRelationshipType).toBe(
      RelationshipType.None,
    );
    await bob.client.sendGameFriendRequest('alice'); // asking back accepts
    await eventually(() => alice.client.getFriendsList().length === 3, 5000, 'three friends');

    // Bob is online, Carol and Dave are offline: online first, then by name.
    expect(alice.client.getFriendsList().map((r) => r.user?.username)).toEqual(['bob', 'carol', 'dave']);
    expect(alice.client.searchFriendsByUsername('AR').map((u) => u.username)).toEqual(['carol']);
    expect(alice.client.getRelationshipHandle(carol.id).gameRelationshipType).toBe(RelationshipType.Friend);
    expect(alice.client.getRelationshipHandle(dave.id).discordRelationshipType).toBe(RelationshipType.Friend);

    await alice.client.removeGameFriend(carol.id);
    await eventually(() => alice.client.getFriendsList().length === 2, 5000, 'Carol removed');

    await alice.client.blockUser(bob.user.id);
    await eventually(
      () => alice.client.getUser(bob.user.id)?.status === StatusType.Blocked,
      5000,
      'Bob blocked',
    );
    expect(alice.client.getRelationshipHandle(bob.user.id).gameRelationshipType).toBe(RelationshipType.None);
    await expect(bob.client.sendDiscordFriendRequestById(alice.user.id)).rejects.toMatchObject({
      constructor: HttpError,
      code: 80001,
    });
    await alice.client.unblockUser(bob.user.id);
    await eventually(
      () => alice.client.getRelationshipHandle(bob.user.id).discordRelationshipType === RelationshipType.None,
      5000,
      'Bob unblocked',
    );
  });

  it('validates locally before any request, and needs Ready', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const offline = clientFor(emulator);
    await expect(offline.acceptDiscordFriendRequest('1')).rejects.toBeInstanceOf(ClientNotReadyError);
    await expect(offline.setOnlineStatus(StatusType.Idle)).rejects.toBeInstanceOf(ClientNotReadyError);

    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = userAt(emulator, 1);
    const before = emulator.requestCount('PUT', '/users/@me/relationships/:user_id');
    await expect(alice.client.acceptDiscordFriendRequest(bob.id)).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.cancelGameFriendRequest(bob.id)).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.unblockUser(bob.id)).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.sendDiscordFriendRequestById('not-an-id')).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(alice.client.sendDiscordFriendRequest('x')).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.sendDiscordFriendRequestById(alice.user.id)).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(alice.client.setOnlineStatus(StatusType.Streaming)).rejects.toBeInstanceOf(ValidationError);
    expect(emulator.requestCount('PUT', '/users/@me/relationships/:user_id')).toBe(before);
    await expect(alice.client.sendDiscordFriendRequest('nobody_by_that_name')).rejects.toMatchObject({
      code: 80004,
    });
  });
});

describe('user handles', () => {
  it('carry avatar URLs, the guild tag and provisional flag; premium_type needs identify.premium', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = userAt(emulator, 1);
    emulator.befriend('alice', 'bob');
    await eventually(() => alice.client.getUser(bob.id) !== undefined, 5000, 'Bob known');
    const handle = alice.client.getUser(bob.id);
    expect(handle?.avatarUrl()).toMatch(/^https:\/\/cdn\.discordapp\.com\/embed\/avatars\/[0-5]\.png$/);
    expect(handle?.primaryGuildTag).toBeNull();
    expect(handle?.isProvisional).toBe(false);

    const hash = 'a_0123456789abcdef0123456789abcdef';
    const updated: string[] = [];
    alice.client.on('userUpdated', (id) => updated.push(id));
    emulator.updateUser(bob.id, { avatar: hash, primaryGuildTag: 'GG', premiumType: 2 });
    await eventually(() => handle?.primaryGuildTag === 'GG', 5000, 'the tag');
    expect(updated).toContain(bob.id);
    expect(handle?.avatarUrl()).toBe(`https://cdn.discordapp.com/avatars/${bob.id}/${hash}.gif`);
    expect(handle?.avatarUrl(AvatarType.Webp, AvatarType.Jpeg)).toMatch(/\.webp$/);
    expect(handle?.premiumType).toBe(0); // nobody sees another user's tier
    expect(() => {
      emulator.updateUser(bob.id, { primaryGuildTag: 'TOOLONG' });
    }).toThrow(RangeError);

    // Bob's own tier shows only with the partner scope.
    const plain = await linkAndConnect(emulator, bob);
    expect(plain.client.getCurrentUser()?.premiumType).toBe(0);
    const premium = clientFor(emulator, { openUrl: emulator.browserAs('bob') });
    const pkce = premium.createAuthorizationCodeVerifier();
    const grant = await premium.authorize({
      codeChallenge: pkce.challenge,
      scopes: 'openid sdk.social_layer identify.premium',
    });
    const tokens = await premium.getToken({
      code: grant.code,
      codeVerifier: pkce.verifier,
      redirectUri: grant.redirectUri,
    });
    await premium.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    await premium.connect();
    expect(premium.getCurrentUser()?.premiumType).toBe(2);
  });
});
