import { describe, expect, it } from 'vitest';

import { GameBackend } from '../../packages/sdkpp/src/backend/index.js';
import {
  AuthenticationExternalAuthType,
  AuthorizationTokenType,
  ClientStatus,
  RelationshipType,
  type Client,
} from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { allSecrets, clientFor, emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

const steam = (ticket: string) => ({
  externalAuthType: AuthenticationExternalAuthType.SteamSessionTicket,
  externalAuthToken: ticket,
});

/** The full account's tokens for the provisional identity `ticket`, through the consent page as `username`. */
async function mergeAs(emulator: Emulator, username: string, ticket: string): Promise<string> {
  const client = clientFor(emulator, { openUrl: emulator.browserAs(username) });
  const pkce = client.createAuthorizationCodeVerifier();
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  allSecrets.add(code);
  const tokens = await client.getTokenFromProvisionalMerge({
    code,
    codeVerifier: pkce.verifier,
    redirectUri,
    ...steam(ticket),
  });
  allSecrets.add(tokens.accessToken);
  allSecrets.add(tokens.refreshToken);
  return tokens.accessToken;
}

async function provisionalPlayer(emulator: Emulator, ticket: string): Promise<Client> {
  const client = clientFor(emulator);
  const tokens = await client.getProvisionalToken(steam(ticket));
  allSecrets.add(tokens.accessToken);
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  await client.connect();
  return client;
}

describe('merging a provisional account', () => {
  it('keeps its game friends, lobbies (with their additional names) and messages, and completes a guild join that waited for it', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = userAt(emulator, 1);
    const pat = await provisionalPlayer(emulator, 'pat-ticket');
    const patId = pat.getCurrentUser()?.id ?? '';
    expect(pat.getCurrentUser()?.isProvisional).toBe(true);

    emulator.befriend(patId, alice.user.id, { game: true });
    const lobbyId = await pat.createOrJoinLobby('merge-lobby', { map: 'harbour' });
    await alice.client.createOrJoinLobby('merge-lobby');
    const backend = new GameBackend({ botToken: emulator.botToken, apiBase: emulator.api });
    await backend.updateLobbyMember(lobbyId, patId, {
      additionalName: 'Pat the Bold',
      metadata: { class: 'mage' },
    });
    const general = emulator.guilds()[0]?.channels.find((c) => c.name === 'general');
    await backend.linkChannel(lobbyId, general?.id ?? null);
    await eventually(() => pat.getLobbyHandle(lobbyId)?.linkedChannel !== null, 5000, 'the link at Pat');
    await pat.sendUserMessage(alice.user.id, 'hi from pat');

    const aliceLobbyEvents: string[] = [];
    alice.client.on('lobbyMemberAdded', (_lobby, member) => aliceLobbyEvents.push(`added:${member}`));
    alice.client.on('lobbyMemberRemoved', (_lobby, member) => aliceLobbyEvents.push(`removed:${member}`));

    // A provisional account cannot join a guild: the game merges it first, then the join goes on as Bob.
    const inviteUrl = pat.joinLinkedLobbyGuild(lobbyId, {
      onProvisionalUserMergeRequired: () => {
        void (async () => {
          const merged = await mergeAs(emulator, bob.username, 'pat-ticket');
          await eventually(
            () => pat.getStatus() === ClientStatus.Disconnected,
            5000,
            'the old session to end',
          );
          await pat.updateToken(AuthorizationTokenType.Bearer, merged);
          await pat.connect();
          pat.provisionalUserMergeCompleted(true);
        })();
      },
    });
    await expect(inviteUrl).resolves.toMatch(/\/invite\/[A-Za-z0-9_-]+$/);
    expect(pat.getCurrentUser()?.id).toBe(bob.id);

    // The lobby membership moved, with its metadata and additional name, and the others were told.
    const member = pat.getLobbyHandle(lobbyId)?.getLobbyMemberHandle(bob.id);
    expect(member?.additionalName).toBe('Pat the Bold');
    expect(member?.metadata).toEqual({ class: 'mage' });
    await eventually(() => aliceLobbyEvents.length === 2, 5000, 'the member swap at Alice');
    expect(aliceLobbyEvents).toEqual([`added:${bob.id}`, `removed:${patId}`]);
    expect(alice.client.getLobbyHandle(lobbyId)?.lobbyMemberIds.sort()).toEqual(
      [alice.user.id, bob.id].sort(),
    );

    // The game friendship moved on both sides.
    expect(pat.getRelationshipHandle(alice.user.id).gameRelationshipType).toBe(RelationshipType.Friend);
    await eventually(
      () => alice.client.getRelationshipHandle(bob.id).gameRelationshipType === RelationshipType.Friend,
      5000,
      'the friendship at Alice',
    );
    expect(alice.client.getRelationshipHandle(patId).gameRelationshipType).toBe(RelationshipType.None);

    // The conversation is the full account's now.
    const history = await pat.getUserMessagesWithLimit(alice.user.id, 10);
    expect(history.map((m) => [m.content, m.authorId])).toEqual([['hi from pat', bob.id]]);
  });
});
