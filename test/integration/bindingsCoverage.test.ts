import path from 'node:path';
import { tmpdir } from 'node:os';

import { describe, expect, it } from 'vitest';

import {
  Activity,
  ActivityButton,
  ActivityParty,
  ActivityTypes,
  Client,
  ClientError,
  ClientResult,
  ClientStatus,
  ErrorType,
  ResetCallbacks,
  type UserHandle,
} from '../../bindings/index.js';
import { emulatorFor } from './helpers.js';
import { pumpUntil } from './bindingsHelpers.js';

/** The gaps closed for the coverage table, each against the emulator where it talks to one. */
describe('bindings coverage: the methods added to match the idiomatic API', () => {
  it('GetDiscordClientConnectedUser reads the desktop client’s user over RPC, without signing in', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ rpc: { user: 'bob' } });
    const game = new Client({
      apiBase: emulator.api,
      webBase: emulator.http,
      localClient: { socketPaths: () => [emulator.rpcSocket ?? ''] },
      openUrl: () => Promise.reject(new Error('the browser must not open')),
    });
    let answer: { result: ClientResult; user: UserHandle | undefined } | undefined;
    game.GetDiscordClientConnectedUser(emulator.applicationId, (result, user) => {
      answer = { result, user };
    });
    await pumpUntil(() => answer !== undefined);
    expect(answer?.result.Successful()).toBe(true);
    expect(answer?.user?.Username()).toBe('bob');
    expect(answer?.user?.Id()).toBe(BigInt(emulator.users[1]?.id ?? '0'));
    expect(answer?.user?.DisplayName()).toBe('Bob');
    expect(answer?.user?.Relationship().IsValid()).toBe(true);
    expect(game.GetApplicationId()).toBe(BigInt(emulator.applicationId));

    // Another application id than the client's is refused before any I/O.
    let refused: ClientResult | undefined;
    game.GetDiscordClientConnectedUser('1234567890123456789', (result) => {
      refused = result;
    });
    await pumpUntil(() => refused !== undefined);
    expect(refused?.Type()).toBe(ErrorType.ValidationError);

    // No desktop client on this machine: a successful result without a user.
    const alone = new Client({
      apiBase: emulator.api,
      webBase: emulator.http,
      localClient: { socketPaths: () => [path.join(tmpdir(), 'sdkpp-no-such-dir', 'discord-ipc-0')] },
    });
    let none: { result: ClientResult; user: UserHandle | undefined } | undefined;
    alone.GetDiscordClientConnectedUser(emulator.applicationId, (result, user) => {
      none = { result, user };
    });
    await pumpUntil(() => none !== undefined);
    expect(none?.result.Successful()).toBe(true);
    expect(none?.user).toBeUndefined();
    game.Disconnect();
    alone.Disconnect();
    await game.core.destroy();
    await alone.core.destroy();
  });

  it('Activity.Equals compares every field; Client.Status and Client.Error are the C++ nested enums', () => {
    const make = (details: string): Activity => {
      const activity = new Activity();
      activity.SetType(ActivityTypes.Playing);
      activity.SetDetails(details);
      const party = new ActivityParty();
      party.SetId('p1');
      party.SetCurrentSize(1);
      party.SetMaxSize(4);
      activity.SetParty(party);
      const button = new ActivityButton();
      button.SetLabel('Watch');
      button.SetUrl('https://example.com/watch');
      activity.AddButton(button);
      return activity;
    };
    expect(make('Ranked').Equals(make('Ranked'))).toBe(true);
    expect(make('Ranked').Equals(make('Casual'))).toBe(false);
    const sizes = make('Ranked');
    const party = sizes.Party();
    party?.SetCurrentSize(2);
    if (party) sizes.SetParty(party);
    expect(sizes.Equals(make('Ranked'))).toBe(false);

    expect(Client.Status.Ready).toBe(ClientStatus.Ready);
    expect(Client.Error.UnexpectedClose).toBe(ClientError.UnexpectedClose);
    expect(Client.StatusToString(Client.Status.HttpWait)).toBe('HttpWait');
  });
});
