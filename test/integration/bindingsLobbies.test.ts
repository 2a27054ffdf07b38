import { describe, expect, it } from 'vitest';

import {
  ChannelType,
  ErrorType,
  ResetCallbacks,
  type ClientResult,
  type GuildChannel,
  type GuildMinimal,
  type MessageHandle,
} from '../../packages/sdkpp/bindings/index.js';
import { pumpUntil, readyClient } from './bindingsHelpers.js';
import { emulatorFor } from './helpers.js';

describe('bindings: lobbies and linked channels', () => {
  it('create or join, member callbacks, lobby chat and history through callbacks', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await readyClient(emulator, 'alice');
    const bob = await readyClient(emulator, 'bob');
    const bobId = BigInt(emulator.users[1]?.id ?? '0');

    const created: bigint[] = [];
    const added: [bigint, bigint][] = [];
    alice.SetLobbyCreatedCallback((id) => created.push(id));
    alice.SetLobbyMemberAddedCallback((lobbyId, memberId) => added.push([lobbyId, memberId]));
    let hosted: [ClientResult, bigint] | undefined;
    alice.CreateOrJoinLobbyWithMetadata('bind', new Map([['map', 'harbour']]), { role: 'host' }, (r, id) => {
      hosted = [r, id];
    });
    await pumpUntil(() => hosted !== undefined);
    const [hostResult, lobbyId = 0n] = hosted ?? [];
    expect(hostResult?.Successful()).toBe(true);
    expect(created).toEqual([lobbyId]);

    let joined: bigint | undefined;
    bob.CreateOrJoinLobby('bind', (r, id) => {
      expect(r.Successful()).toBe(true);
      joined = id;
    });
    await pumpUntil(() => joined !== undefined && added.length === 1);
    expect(joined).toBe(lobbyId);
    expect(added).toEqual([[lobbyId, bobId]]);
    expect(alice.GetLobbyIds()).toEqual([lobbyId]);
    const lobby = alice.GetLobbyHandle(lobbyId);
    expect(lobby?.Metadata().get('map')).toBe('harbour');
    expect(lobby?.LobbyMemberIds()).toContain(bobId);
    const guest = lobby?.GetLobbyMemberHandle(bobId);
    expect(guest?.User()?.Username()).toBe('bob');
    expect(guest?.Connected()).toBe(true);
    expect(guest?.CanLinkLobby()).toBe(false);
    expect(lobby?.LinkedChannel()).toBeUndefined();

    const received: bigint[] = [];
    alice.SetMessageCreatedCallback((id) => received.push(id));
    let sent: bigint | undefined;
    bob.SendLobbyMessageWithMetadata(lobbyId, 'hello lobby', { team: 'blue' }, (r, id) => {
      expect(r.Successful()).toBe(true);
      sent = id;
    });
    await pumpUntil(() => sent !== undefined && received.includes(sent));
    const message = alice.GetMessageHandle(sent ?? 0n) as MessageHandle;
    expect(message.Content()).toBe('hello lobby');
    expect(message.Lobby()?.Id()).toBe(lobbyId);
    expect(message.ChannelId()).toBe(lobbyId);
    expect(message.Metadata().get('team')).toBe('blue');

    let history: MessageHandle[] | undefined;
    alice.GetLobbyMessagesWithLimit(lobbyId, 10, (r, messages) => {
      expect(r.Successful()).toBe(true);
      history = messages;
    });
    await pumpUntil(() => history !== undefined);
    expect(history?.map((m) => m.Content())).toEqual(['hello lobby']);

    const removed: [bigint, bigint][] = [];
    alice.SetLobbyMemberRemovedCallback((id, memberId) => removed.push([id, memberId]));
    let left: ClientResult | undefined;
    bob.LeaveLobby(lobbyId, (r) => {
      left = r;
    });
    await pumpUntil(() => left !== undefined && removed.length === 1);
    expect(left?.Successful()).toBe(true);
    expect(removed).toEqual([[lobbyId, bobId]]);

    // A non-member's history is a validation failure delivered through the callback.
    let refused: ClientResult | undefined;
    bob.GetLobbyMessagesWithLimit(lobbyId, 10, (r) => {
      refused = r;
    });
    await pumpUntil(() => refused !== undefined);
    expect(refused?.Type()).toBe(ErrorType.ValidationError);
  });

  it('guilds and channels through callbacks', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await readyClient(emulator, 'alice');
    let guilds: GuildMinimal[] | undefined;
    alice.GetUserGuilds((r, list) => {
      expect(r.Successful()).toBe(true);
      guilds = list;
    });
    await pumpUntil(() => guilds !== undefined);
    expect(guilds?.map((g) => g.Name())).toEqual(['Emulator Guild']);
    let channels: GuildChannel[] | undefined;
    alice.GetGuildChannels(guilds?.[0]?.Id() ?? 0n, (r, list) => {
      expect(r.Successful()).toBe(true);
      channels = list;
    });
    await pumpUntil(() => channels !== undefined);
    const general = channels?.find((c) => c.Name() === 'general');
    expect(general?.Type()).toBe(ChannelType.GuildText);
    expect(general?.IsLinkable()).toBe(true);
    expect(general?.ParentId()).toBe(channels?.find((c) => c.Name() === 'Text Channels')?.Id());
    expect(general?.LinkedLobby()).toBeUndefined();
  });
});
