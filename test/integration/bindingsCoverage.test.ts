import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';

import { describe, expect, it } from 'vitest';

import {
  Activity,
  ActivityActionTypes,
  ActivityButton,
  ActivityInvite,
  ActivityParty,
  AudioDevice,
  AuthenticationCodeChallengeMethod,
  AuthorizationCodeChallenge,
  AuthorizationCodeVerifier,
  ActivityTypes,
  AuthorizationArgs,
  AuthorizationTokenType,
  Client,
  ClientError,
  ClientResult,
  ClientStatus,
  AvatarType,
  Call,
  CallError,
  CallStatus,
  ChannelType,
  ErrorType,
  GuildChannel,
  GuildMinimal,
  HttpStatusCode,
  LinkedChannel,
  LinkedLobby,
  LoggingSeverity,
  ResetCallbacks,
  UserHandle,
  VADThresholdSettings,
} from '../../packages/sdkpp/bindings/index.js';
import { emulatorFor } from './helpers.js';
import { failedRefresh, pumpUntil, readyClient } from './bindingsHelpers.js';

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
    expect(Call.Status.Connected).toBe(CallStatus.Connected);
    expect(Call.Error.JoinTimeout).toBe(CallError.JoinTimeout);
    expect(Client.Error.UnexpectedClose).toBe(ClientError.UnexpectedClose);
    expect(Client.StatusToString(Client.Status.HttpWait)).toBe('HttpWait');
  });

  it('the guild structs are value structs with setters; the client hands out copies', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await readyClient(emulator, 'alice');
    let channels: GuildChannel[] = [];
    let guilds: GuildMinimal[] = [];
    alice.GetUserGuilds((result, list) => {
      expect(result.Successful()).toBe(true);
      guilds = list;
    });
    await pumpUntil(() => guilds.length > 0);
    const guild = guilds[0] ?? new GuildMinimal();
    expect(guild.Name()).toBe('Emulator Guild');
    alice.GetGuildChannels(guild.Id(), (result, list) => {
      expect(result.Successful()).toBe(true);
      channels = list;
    });
    await pumpUntil(() => channels.length > 0);
    const text = channels.find((c) => c.Type() === ChannelType.GuildText) ?? new GuildChannel();
    const name = text.Name();
    text.SetName('renamed locally');
    const link = new LinkedLobby();
    link.SetLobbyId('42');
    link.SetApplicationId(emulator.applicationId);
    text.SetLinkedLobby(link);
    text.SetParentId(undefined);
    expect(text.Name()).toBe('renamed locally');
    expect(text.LinkedLobby()?.LobbyId()).toBe(42n);
    expect(text.ParentId()).toBeUndefined();
    let again: GuildChannel[] = [];
    alice.GetGuildChannels(guild.Id(), (_result, list) => {
      again = list;
    });
    await pumpUntil(() => again.length > 0);
    expect(again.find((c) => c.Id() === text.Id())?.Name()).toBe(name);

    const made = new GuildChannel();
    made.SetId(7);
    made.SetType(ChannelType.GuildVoice);
    made.SetPosition(3);
    made.SetIsLinkable(true);
    made.SetIsViewableAndWriteableByAllMembers(true);
    expect([made.Id(), made.Type(), made.Position(), made.IsLinkable()]).toEqual([
      7n,
      ChannelType.GuildVoice,
      3,
      true,
    ]);
    expect(made.IsViewableAndWriteableByAllMembers()).toBe(true);
    const minimal = new GuildMinimal();
    minimal.SetId('9');
    minimal.SetName('Mock Guild');
    expect([minimal.Id(), minimal.Name()]).toEqual([9n, 'Mock Guild']);
    const linked = new LinkedChannel();
    linked.SetId(1);
    linked.SetName('general');
    linked.SetGuildId(2);
    expect([linked.Id(), linked.Name(), linked.GuildId()]).toEqual([1n, 'general', 2n]);
    alice.Disconnect();
    await alice.core.destroy();
  });

  it('ClientResult.Status() compares with HttpStatusCode; AvatarTypeToString names the image types', async () => {
    const { client, result } = await failedRefresh();
    expect(result.Status()).toBe(HttpStatusCode.BadRequest);
    expect(HttpStatusCode.TooManyRequests).toBe(429);
    expect(UserHandle.AvatarTypeToString(AvatarType.Webp)).toBe('Webp');
    expect(UserHandle.AvatarTypeToString(UserHandle.AvatarType.Jpeg)).toBe('Jpeg');
    await client.core.destroy();
  });

  it('SetLogDir writes the redacted log to a file; AddVoiceLogCallback gets the voice subsystem’s lines', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true });
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sdkpp-logdir-')), 'logs');
    const client = new Client({
      apiBase: emulator.api,
      webBase: emulator.http,
      openUrl: emulator.browserAs('alice'),
      localClient: false,
      debug: true,
    });
    expect(client.SetLogDir(dir, LoggingSeverity.Info)).toBe(true);
    const voiceLines: string[] = [];
    client.AddVoiceLogCallback((message) => voiceLines.push(message), LoggingSeverity.Verbose);

    const verifier = client.CreateAuthorizationCodeVerifier();
    const args = new AuthorizationArgs();
    args.SetClientId(emulator.applicationId);
    args.SetScopes(Client.GetDefaultCommunicationScopes());
    args.SetCodeChallenge(verifier.Challenge());
    let accessToken = '';
    client.Authorize(args, (_result, code, redirectUri) => {
      client.GetToken(emulator.applicationId, code, verifier.Verifier(), redirectUri, (_r, token) => {
        accessToken = token;
        client.UpdateToken(AuthorizationTokenType.Bearer, token, () => {
          client.Connect();
        });
      });
    });
    await pumpUntil(() => client.GetStatus() === ClientStatus.Ready);
    client.core.getMediaEngineInfo(); // the media engine says which engine it picked

    const file = readFileSync(path.join(dir, 'sdkpp.log'), 'utf8');
    expect(file).toMatch(/ Info .*ready as alice/);
    expect(file).not.toContain(accessToken);
    expect(voiceLines.some((line) => line.startsWith('[media] media engine:'))).toBe(true);
    expect(voiceLines.every((line) => /^\[(voice|media)/.test(line))).toBe(true);

    // An empty path stops the file; a directory that cannot be made is refused.
    expect(client.SetLogDir('', LoggingSeverity.Info)).toBe(true);
    const before = readFileSync(path.join(dir, 'sdkpp.log'), 'utf8');
    client.Disconnect();
    await pumpUntil(() => client.GetStatus() === ClientStatus.Disconnected);
    expect(readFileSync(path.join(dir, 'sdkpp.log'), 'utf8')).toBe(before);
    const blocker = path.join(dir, 'not-a-directory');
    writeFileSync(blocker, '');
    expect(client.SetLogDir(path.join(blocker, 'logs'), LoggingSeverity.Info)).toBe(false);
    await client.core.destroy();
  });

  it('value structs have a getter and a setter per field, as in C++, and copy on construction', () => {
    const result = new ClientResult();
    result.SetType(ErrorType.HTTPError);
    result.SetError('rate limited');
    result.SetErrorCode(20016);
    result.SetStatus(HttpStatusCode.TooManyRequests);
    result.SetResponseBody('{"retry_after":1.5}');
    result.SetRetryable(true);
    result.SetRetryAfter(1.5);
    const copy = new ClientResult(result);
    expect([copy.Successful(), copy.ErrorCode(), copy.Status(), copy.Retryable(), copy.RetryAfter()]).toEqual(
      [false, 20016, 429, true, 1.5],
    );
    expect(copy.ToString()).toBe('HTTPError: rate limited');
    expect(copy.ResponseBody()).toBe('{"retry_after":1.5}');
    copy.SetSuccessful(true);
    expect(copy.Successful()).toBe(true);
    expect(result.Successful()).toBe(false);

    const challenge = new AuthorizationCodeChallenge();
    challenge.SetMethod(AuthenticationCodeChallengeMethod.S256);
    challenge.SetChallenge('c'.repeat(43));
    const verifier = new AuthorizationCodeVerifier();
    verifier.SetChallenge(challenge);
    verifier.SetVerifier('v'.repeat(43));
    expect([verifier.Challenge().Method(), verifier.Challenge().Challenge(), verifier.Verifier()]).toEqual([
      AuthenticationCodeChallengeMethod.S256,
      'c'.repeat(43),
      'v'.repeat(43),
    ]);

    const invite = new ActivityInvite();
    invite.SetSenderId(1n);
    invite.SetChannelId('2');
    invite.SetMessageId(3);
    invite.SetType(ActivityActionTypes.JoinRequest);
    invite.SetApplicationId(4n);
    invite.SetParentApplicationId(5n);
    invite.SetPartyId('party');
    invite.SetSessionId('session');
    invite.SetIsValid(false);
    const sameInvite = new ActivityInvite(invite);
    expect([sameInvite.SenderId(), sameInvite.ChannelId(), sameInvite.MessageId()]).toEqual([1n, 2n, 3n]);
    expect([sameInvite.ApplicationId(), sameInvite.ParentApplicationId()]).toEqual([4n, 5n]);
    expect([sameInvite.Type(), sameInvite.PartyId(), sameInvite.SessionId(), sameInvite.IsValid()]).toEqual([
      ActivityActionTypes.JoinRequest,
      'party',
      'session',
      false,
    ]);

    const device = new AudioDevice();
    device.SetId('wav-in:/tmp/a.wav');
    device.SetName('A file');
    device.SetIsDefault(true);
    const other = new AudioDevice();
    other.SetId('wav-in:/tmp/a.wav');
    expect([device.Equals(other), device.Name(), device.IsDefault()]).toEqual([true, 'A file', true]);

    const vad = new VADThresholdSettings();
    vad.SetAutomatic(false);
    vad.SetVadThreshold(-42);
    expect([vad.Automatic(), vad.VadThreshold()]).toEqual([false, -42]);
  });
});
