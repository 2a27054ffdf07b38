/**
 * User application profiles: the identities players signed in with from external providers, from the
 * emulator's provisional accounts to READY's `user_application_profiles` over the real gateway, and on to
 * the SDK's current user, the users of the unified friends list, and the bindings' handles.
 */
import { describe, expect, it } from 'vitest';

import {
  Client as BindingsClient,
  ClientStatus as BindingsStatus,
  ExternalIdentityProviderType as BindingsProviderType,
  ResetCallbacks,
} from '../../packages/sdkpp/bindings/index.js';
import { GameBackend } from '../../packages/sdkpp/src/backend/index.js';
import {
  AuthenticationExternalAuthType,
  AuthorizationTokenType,
  ExternalIdentityProviderType,
} from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { pumpUntil } from './bindingsHelpers.js';
import { allLogLines, allSecrets, clientFor, emulatorFor } from './helpers.js';

const STEAM_TICKET = 'steam-session-ticket-of-borin';
allSecrets.add(STEAM_TICKET);

/** Aria from the game's backend (bot endpoint), Borin from a Steam ticket, Cass from the backend too. */
async function players(
  emulator: Emulator,
): Promise<{ aria: string; borin: string; cass: string; ariaId: string; borinId: string }> {
  const backend = new GameBackend({
    botToken: emulator.botToken,
    apiBase: emulator.api,
    logCallback: (l) => allLogLines.push(l),
  });
  try {
    const aria = (await backend.getProvisionalToken('acct-1001', 'Aria')).accessToken;
    const cass = (await backend.getProvisionalToken('acct-1003', 'Cass')).accessToken;
    const borin = (
      await clientFor(emulator).getProvisionalToken({
        externalAuthType: AuthenticationExternalAuthType.SteamSessionTicket,
        externalAuthToken: STEAM_TICKET,
      })
    ).accessToken;
    for (const token of [aria, borin, cass]) allSecrets.add(token);
    const probe = clientFor(emulator);
    const ariaId = (await probe.fetchCurrentUser(aria)).id;
    const borinId = (await probe.fetchCurrentUser(borin)).id;
    return { aria, borin, cass, ariaId, borinId };
  } finally {
    await backend.close();
  }
}

describe('user application profiles (READY user_application_profiles)', () => {
  it("gives the signed-in user's profile and a friend's profile in the unified friends list", async () => {
    const emulator = await emulatorFor();
    const { aria, ariaId, borinId } = await players(emulator);
    emulator.befriend(ariaId, borinId, { game: true });
    const client = clientFor(emulator);
    await client.updateToken(AuthorizationTokenType.Bearer, aria);
    await client.connect();

    expect(client.getUserApplicationProfiles()).toEqual([
      {
        avatarHash: '',
        metadata: '',
        providerId: emulator.applicationId,
        providerIssuedUserId: 'acct-1001',
        providerType: ExternalIdentityProviderType.DiscordBot,
        username: 'Aria',
      },
    ]);
    const friends = client.getFriendsList();
    expect(friends.map((f) => f.id)).toEqual([borinId]);
    const [borinProfile, ...more] = friends[0]?.user?.userApplicationProfiles ?? [];
    expect(more).toEqual([]);
    expect(borinProfile?.providerType).toBe(ExternalIdentityProviderType.Steam);
    expect(borinProfile?.providerId).toBeNull();
    // A Steam ticket is opaque: the emulator names the identity by a hash of it, never the ticket itself.
    expect(borinProfile?.providerIssuedUserId).toMatch(/^opaque-[A-Za-z0-9_-]{43}$/);
    expect(borinProfile?.providerIssuedUserId).not.toContain(STEAM_TICKET);
  });

  it('carries no profiles of users outside the friends list', async () => {
    const emulator = await emulatorFor();
    const { cass, ariaId } = await players(emulator);
    const client = clientFor(emulator);
    await client.updateToken(AuthorizationTokenType.Bearer, cass);
    await client.connect();
    expect(client.getUserApplicationProfiles().map((p) => p.providerIssuedUserId)).toEqual(['acct-1003']);
    expect(client.getUser(ariaId)?.userApplicationProfiles ?? []).toEqual([]);
    expect(client.getFriendsList()).toEqual([]);
  });

  it('the bindings: Client.GetUserApplicationProfiles(NoLock) and UserHandle.UserApplicationProfiles()', async () => {
    const emulator = await emulatorFor();
    const { aria, ariaId, borinId } = await players(emulator);
    emulator.befriend(ariaId, borinId, { game: true });
    const client = new BindingsClient({ apiBase: emulator.api, webBase: emulator.http, localClient: false });
    try {
      expect(client.GetUserApplicationProfiles()).toEqual([]);
      client.UpdateToken(AuthorizationTokenType.Bearer, aria, () => client.Connect());
      await pumpUntil(() => client.GetStatus() === BindingsStatus.Ready);
      const [mine] = client.GetUserApplicationProfiles();
      expect([
        mine?.ProviderType(),
        mine?.ProviderId(),
        mine?.ProviderIssuedUserId(),
        mine?.Username(),
        mine?.AvatarHash(),
        mine?.Metadata(),
      ]).toEqual([BindingsProviderType.DiscordBot, emulator.applicationId, 'acct-1001', 'Aria', '', '']);
      expect(client.GetUserApplicationProfilesNoLock().map((p) => p.ProviderIssuedUserId())).toEqual([
        'acct-1001',
      ]);
      const friend = client.GetUser(BigInt(borinId));
      const [steam] = friend?.UserApplicationProfiles() ?? [];
      expect(steam?.ProviderType()).toBe(BindingsProviderType.Steam);
      expect(steam?.ProviderId()).toBeUndefined();
    } finally {
      await client.core.destroy();
      ResetCallbacks();
    }
  });
});
