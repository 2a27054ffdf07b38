import { describe, expect, it } from 'vitest';

import {
  ActivityActionTypes,
  ActivityGamePlatforms,
  ActivityPartyPrivacy,
  ActivityTypes,
  HttpError,
  ValidationError,
  type Activity,
  type ActivityInvite,
  type Client,
} from '../../packages/sdkpp/src/index.js';
import { emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

function party(id: string, secret: string): Activity {
  return {
    type: ActivityTypes.Playing,
    details: 'Co-op',
    party: { id, currentSize: 1, maxSize: 4, privacy: ActivityPartyPrivacy.Private },
    secrets: { join: secret },
  };
}

function collect(client: Client, event: 'activityInviteCreated' | 'activityInviteUpdated'): ActivityInvite[] {
  const seen: ActivityInvite[] = [];
  client.on(event, (invite) => seen.push(invite));
  return seen;
}

describe('activity invites', () => {
  it('reaches every session of the recipient; accepting yields the host’s join secret', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bobPc = await linkAndConnect(emulator, userAt(emulator, 1));
    const bobLaptop = await linkAndConnect(emulator, userAt(emulator, 1));
    emulator.befriend('alice', 'bob');
    const onPc = collect(bobPc.client, 'activityInviteCreated');
    const onLaptop = collect(bobLaptop.client, 'activityInviteCreated');

    await alice.client.updateRichPresence(party('party-a', 'secret-a'));
    await eventually(() => emulator.presenceOf('alice').activities.length === 1, 5000, 'Alice’s party');
    await alice.client.sendActivityInvite(bobPc.user.id, 'Join us');
    await eventually(() => onPc.length === 1 && onLaptop.length === 1, 5000, 'the invite on both devices');
    const invite = onPc[0];
    expect(invite).toMatchObject({
      senderId: alice.user.id,
      type: ActivityActionTypes.Join,
      partyId: 'party-a',
      applicationId: emulator.applicationId,
      isValid: true,
    });
    expect(onLaptop[0]?.messageId).toBe(invite?.messageId);
    if (!invite) throw new Error('no invite');
    expect(await bobLaptop.client.acceptActivityInvite(invite)).toBe('secret-a');
    // The other device can accept the same invite too; the party is still the same.
    expect(await bobPc.client.acceptActivityInvite(invite)).toBe('secret-a');
  });

  it('join request → reply → accept; invites go invalid when the party changes', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    emulator.befriend('alice', 'bob');
    const toAlice = collect(alice.client, 'activityInviteCreated');
    const toBob = collect(bob.client, 'activityInviteCreated');
    const updatesForBob = collect(bob.client, 'activityInviteUpdated');

    await alice.client.updateRichPresence(party('party-b', 'secret-b'));
    await eventually(
      () => bob.client.getUser(alice.user.id)?.gameActivity?.party?.id === 'party-b',
      5000,
      'party',
    );
    await bob.client.sendActivityJoinRequest(alice.user.id);
    await eventually(() => toAlice.length === 1, 5000, 'the join request');
    const request = toAlice[0];
    expect(request).toMatchObject({
      senderId: bob.user.id,
      type: ActivityActionTypes.JoinRequest,
      partyId: 'party-b',
    });
    if (!request) throw new Error('no request');
    await expect(alice.client.acceptActivityInvite(request)).rejects.toBeInstanceOf(ValidationError);

    await alice.client.sendActivityJoinRequestReply(request);
    await eventually(() => toBob.length === 1, 5000, 'the reply');
    const invite = toBob[0];
    if (!invite) throw new Error('no invite');
    expect(invite.type).toBe(ActivityActionTypes.Join);
    expect(await bob.client.acceptActivityInvite(invite)).toBe('secret-b');

    // Alice moves to a new party: the old invite is no longer valid.
    await alice.client.updateRichPresence(party('party-c', 'secret-c'));
    await eventually(() => updatesForBob.some((u) => !u.isValid), 5000, 'the invalidation');
    await expect(
      bob.client.acceptActivityInvite(updatesForBob.find((u) => !u.isValid) ?? invite),
    ).rejects.toBeInstanceOf(ValidationError);
    // A stale copy that still says valid is refused by the platform.
    await expect(bob.client.acceptActivityInvite(invite)).rejects.toMatchObject({
      constructor: HttpError,
      code: 50036,
    });
  });

  it('refuses invites without a joinable party, to blocked users, and before Ready', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const before = emulator.requestCount('POST', '/users/:user_id/messages');
    await expect(alice.client.sendActivityInvite(bob.user.id)).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.sendActivityJoinRequest(bob.user.id)).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.sendActivityInvite('nope')).rejects.toBeInstanceOf(ValidationError);
    expect(emulator.requestCount('POST', '/users/:user_id/messages')).toBe(before);

    await alice.client.updateRichPresence(party('party-d', 'secret-d'));
    await eventually(() => emulator.presenceOf('alice').activities.length === 1, 5000, 'the party');
    await bob.client.blockUser(alice.user.id);
    await expect(alice.client.sendActivityInvite(bob.user.id)).rejects.toMatchObject({
      constructor: HttpError,
      code: 50007,
    });
  });

  it('carries where an activity can be joined; an SDK game cannot accept an invite to a console-only one', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    emulator.befriend('alice', 'bob');
    const toBob = collect(bob.client, 'activityInviteCreated');

    // Bad flags and another application's id are refused before any I/O.
    const sets = emulator.requestCount('POST', '/users/:user_id/messages');
    await expect(
      alice.client.updateRichPresence({ ...party('party-p', 'secret-p'), supportedPlatforms: 256 }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      alice.client.updateRichPresence({
        ...party('party-p', 'secret-p'),
        applicationId: '123456789012345678',
      }),
    ).rejects.toThrow(/not this client's application/);
    expect(emulator.requestCount('POST', '/users/:user_id/messages')).toBe(sets);

    await alice.client.updateRichPresence({
      ...party('party-e', 'secret-e'),
      applicationId: emulator.applicationId,
      supportedPlatforms: ActivityGamePlatforms.Desktop | ActivityGamePlatforms.IOS,
    });
    await eventually(
      () => bob.client.getUser(alice.user.id)?.gameActivity?.party?.id === 'party-e',
      5000,
      'the party',
    );
    const seen = bob.client.getUser(alice.user.id)?.gameActivity;
    expect(seen?.supportedPlatforms).toBe(ActivityGamePlatforms.Desktop | ActivityGamePlatforms.IOS);
    expect(seen?.applicationId).toBe(emulator.applicationId);
    expect(emulator.presenceOf('alice').activities[0]).toMatchObject({
      supported_platforms: ['desktop', 'ios'],
    });
    await alice.client.sendActivityInvite(bob.user.id);
    await eventually(() => toBob.length === 1, 5000, 'the first invite');
    expect(await bob.client.acceptActivityInvite(toBob[0] as ActivityInvite)).toBe('secret-e');

    // The same party, joinable on consoles only: the invite stays, but a desktop game cannot take it.
    await alice.client.updateRichPresence({
      ...party('party-e', 'secret-e'),
      supportedPlatforms: ActivityGamePlatforms.Xbox | ActivityGamePlatforms.PS5,
    });
    await eventually(
      () =>
        bob.client.getUser(alice.user.id)?.gameActivity?.supportedPlatforms ===
        (ActivityGamePlatforms.Xbox | ActivityGamePlatforms.PS5),
      5000,
      'the console-only party',
    );
    await expect(bob.client.acceptActivityInvite(toBob[0] as ActivityInvite)).rejects.toMatchObject({
      constructor: HttpError,
      message: expect.stringContaining('cannot be joined on this platform') as unknown,
    });
  });
});
