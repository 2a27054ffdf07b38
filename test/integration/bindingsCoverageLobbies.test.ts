import { describe, expect, it } from 'vitest';

import {
  AuthenticationExternalAuthType,
  AuthorizationTokenType,
  Client,
  ClientResult,
  ClientStatus,
  ErrorType,
  ResetCallbacks,
} from '../../packages/sdkpp/bindings/index.js';
import { GameBackend } from '../../packages/sdkpp/src/backend/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { allSecrets, emulatorFor } from './helpers.js';
import { pumpUntil, readyClient } from './bindingsHelpers.js';

function backendFor(emulator: Emulator): GameBackend {
  return new GameBackend({ botToken: emulator.botToken, apiBase: emulator.api });
}

/** Pumps until an operation that answers with a result and one value has answered; returns both. */
async function answer<T>(call: (callback: (result: ClientResult, value: T) => void) => void): Promise<T> {
  let done: { result: ClientResult; value: T } | undefined;
  call((result, value) => {
    done = { result, value };
  });
  await pumpUntil(() => done !== undefined);
  expect(done?.result.ToString()).toBe('');
  return (done as { value: T }).value;
}

/** The id of the emulator guild's #general channel, as the player sees it through the bindings. */
async function generalChannel(client: Client): Promise<bigint> {
  const [guild] = await answer<Array<{ Id(): bigint }>>((cb) => {
    client.GetUserGuilds(cb);
  });
  const channels = await answer<Array<{ Id(): bigint; Name(): string }>>((cb) => {
    client.GetGuildChannels(guild?.Id() ?? 0n, cb);
  });
  const general = channels.find((c) => c.Name() === 'general');
  if (!general) throw new Error('no #general');
  return general.Id();
}

describe('bindings coverage: lobbies, lobby chat and linked channels', () => {
  it('lobby and member updates, additional names, moderation metadata, leaving', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await readyClient(emulator, 'alice');
    const bob = await readyClient(emulator, 'bob');
    const bobId = BigInt(emulator.users[1]?.id ?? '0');
    const lobbyUpdates: bigint[] = [];
    const memberUpdates: Array<[bigint, bigint]> = [];
    const deletedForBob: bigint[] = [];
    const messagesForAlice: bigint[] = [];
    const editedForAlice: bigint[] = [];
    alice.SetLobbyUpdatedCallback((lobbyId) => lobbyUpdates.push(lobbyId));
    alice.SetLobbyMemberUpdatedCallback((lobbyId, memberId) => memberUpdates.push([lobbyId, memberId]));
    bob.SetLobbyDeletedCallback((lobbyId) => deletedForBob.push(lobbyId));
    alice.SetMessageCreatedCallback((id) => messagesForAlice.push(id));
    alice.SetMessageUpdatedCallback((id) => editedForAlice.push(id));

    const lobbyId = await answer<bigint>((cb) => {
      alice.CreateOrJoinLobbyWithMetadata('coverage-lobby', { map: 'harbour' }, { role: 'host' }, cb);
    });
    expect(await answer<bigint>((cb) => bob.CreateOrJoinLobby('coverage-lobby', cb))).toBe(lobbyId);
    await pumpUntil(() => alice.GetLobbyHandle(lobbyId)?.LobbyMembers().length === 2);

    // Joining again with metadata replaces the lobby's and the member's.
    await answer<bigint>((cb) => {
      bob.CreateOrJoinLobbyWithMetadata(
        'coverage-lobby',
        new Map([['map', 'desert']]),
        { role: 'guest' },
        cb,
      );
    });
    await pumpUntil(() => lobbyUpdates.includes(lobbyId) && memberUpdates.some(([, m]) => m === bobId));
    const lobby = alice.GetLobbyHandle(lobbyId);
    expect(lobby?.Metadata().get('map')).toBe('desert');
    const bobMember = lobby?.LobbyMembers().find((m) => m.Id() === bobId);
    expect(bobMember?.Metadata().get('role')).toBe('guest');

    // The game backend names Bob in this lobby; his lobby messages carry the name.
    await backendFor(emulator).updateLobbyMember(lobbyId.toString(), bobId.toString(), {
      additionalName: 'Sir Robin',
    });
    await pumpUntil(() => bobMember?.AdditionalName() === 'Sir Robin');
    const sentId = await answer<bigint>((cb) => bob.SendLobbyMessage(lobbyId, 'ready?', cb));
    await pumpUntil(() => messagesForAlice.includes(sentId));
    const message = alice.GetMessageHandle(sentId);
    expect([message?.Content(), message?.RawContent(), message?.AdditionalName()]).toEqual([
      'ready?',
      'ready?',
      'Sir Robin',
    ]);
    expect(message?.Lobby()?.Id()).toBe(lobbyId);

    // Moderation metadata set by the backend arrives as an update of the same live handle.
    await backendFor(emulator).setLobbyMessageModerationMetadata(lobbyId.toString(), sentId.toString(), {
      verdict: 'clean',
    });
    await pumpUntil(() => editedForAlice.includes(sentId));
    expect(message?.ModerationMetadata().get('verdict')).toBe('clean');

    // A direct message names its recipient.
    const dmId = await answer<bigint>((cb) => alice.SendUserMessage(bobId, 'gg', cb));
    expect(alice.GetMessageHandle(dmId)?.Recipient()?.Username()).toBe('bob');

    await answer<undefined>((cb) => {
      bob.LeaveLobby(lobbyId, (result) => {
        cb(result, undefined);
      });
    });
    await pumpUntil(() => deletedForBob.includes(lobbyId));
    expect(bob.GetLobbyIds()).not.toContain(lobbyId);

    alice.Disconnect();
    bob.Disconnect();
    await alice.core.destroy();
    await bob.core.destroy();
  });

  it('LinkChannelToLobby, UnlinkChannelFromLobby and JoinLinkedLobbyGuild', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await readyClient(emulator, 'alice');
    const bob = await readyClient(emulator, 'bob');
    const [aliceUser, bobUser] = emulator.users;
    const backend = backendFor(emulator);
    const created = await backend.createLobby({
      members: [{ id: aliceUser?.id ?? '', canLinkLobby: true }, { id: bobUser?.id ?? '' }],
    });
    const lobbyId = BigInt(created.id);
    await pumpUntil(() => bob.GetLobbyHandle(lobbyId) !== undefined);
    const general = await generalChannel(alice);

    const updatedForBob: bigint[] = [];
    bob.SetLobbyUpdatedCallback((id) => updatedForBob.push(id));
    await answer<undefined>((cb) => {
      alice.LinkChannelToLobby(lobbyId, general, (result) => {
        cb(result, undefined);
      });
    });
    expect(alice.GetLobbyHandle(lobbyId)?.LinkedChannel()?.Name()).toBe('general');
    await pumpUntil(() => updatedForBob.includes(lobbyId));
    expect(bob.GetLobbyHandle(lobbyId)?.LinkedChannel()?.Id()).toBe(general);

    let mergeAsked = false;
    const url = await answer<string>((cb) => {
      bob.JoinLinkedLobbyGuild(
        lobbyId,
        () => {
          mergeAsked = true;
        },
        cb,
      );
    });
    expect(url).toMatch(new RegExp(`^${emulator.http}/invite/[A-Za-z0-9_-]+$`));
    expect(mergeAsked).toBe(false); // Bob has a full account

    await answer<undefined>((cb) => {
      alice.UnlinkChannelFromLobby(lobbyId, (result) => {
        cb(result, undefined);
      });
    });
    expect(alice.GetLobbyHandle(lobbyId)?.LinkedChannel()).toBeUndefined();

    alice.Disconnect();
    bob.Disconnect();
    await alice.core.destroy();
    await bob.core.destroy();
  });

  it('a provisional player is asked to merge first; ProvisionalUserMergeCompleted(false) ends the join', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await readyClient(emulator, 'alice');
    const guest = new Client({ apiBase: emulator.api, webBase: emulator.http, localClient: false });
    const accessToken = await answer<string>((cb) => {
      guest.GetProvisionalToken(
        emulator.applicationId,
        AuthenticationExternalAuthType.SteamSessionTicket,
        'coverage-guest-ticket',
        (result, token) => {
          cb(result, token);
        },
      );
    });
    allSecrets.add(accessToken);
    guest.UpdateToken(AuthorizationTokenType.Bearer, accessToken, () => {
      guest.Connect();
    });
    await pumpUntil(() => guest.GetStatus() === ClientStatus.Ready);
    const guestId = guest.GetCurrentUserV2()?.Id() ?? 0n;

    const backend = backendFor(emulator);
    const created = await backend.createLobby({
      members: [{ id: emulator.users[0]?.id ?? '' }, { id: guestId.toString() }],
    });
    await backend.linkChannel(created.id, (await generalChannel(alice)).toString());
    const lobbyId = BigInt(created.id);
    await pumpUntil(() => guest.GetLobbyHandle(lobbyId)?.LinkedChannel() !== undefined);

    let result: ClientResult | undefined;
    guest.JoinLinkedLobbyGuild(
      lobbyId,
      () => {
        // The game would run the merge flow here; the player declines.
        guest.ProvisionalUserMergeCompleted(false);
      },
      (r, url) => {
        result = r;
        expect(url).toBe('');
      },
    );
    await pumpUntil(() => result !== undefined);
    expect(result?.Type()).toBe(ErrorType.Aborted);

    alice.Disconnect();
    guest.Disconnect();
    await alice.core.destroy();
    await guest.core.destroy();
  });
});
