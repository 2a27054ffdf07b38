import path from 'node:path';
import { tmpdir } from 'node:os';

import { describe, expect, it } from 'vitest';

import {
  AdditionalContent,
  AdditionalContentType,
  DisclosureTypes,
  ErrorType,
  ResetCallbacks,
  type ClientResult,
  type MessageHandle,
} from '../../packages/sdkpp/bindings/index.js';
import { emulatorFor } from './helpers.js';
import { pumpUntil, readyClient } from './bindingsHelpers.js';

describe('bindings: what the game cannot render, and the desktop client', () => {
  it('AdditionalContent, DisclosureType, SetShowingChat and opening messages and settings in Discord', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true });
    emulator.befriend(emulator.users[0]?.id ?? '', emulator.users[1]?.id ?? '');
    const alice = await readyClient(emulator, 'alice', {
      localClient: {
        socketPaths: () => [
          path.join(tmpdir(), 'sdkpp-no-such-dir', 'discord-ipc-0'),
          emulator.rpcSocket ?? '',
        ],
      },
    });
    const bob = await readyClient(emulator, 'bob');
    const bobId = BigInt(emulator.users[1]?.id ?? '0');
    const created: bigint[] = [];
    alice.SetMessageCreatedCallback((id) => created.push(id));
    const find = (match: (m: MessageHandle) => boolean): MessageHandle | undefined =>
      created.map((id) => alice.GetMessageHandle(id)).find((m) => m !== undefined && match(m));

    // A DM written in Discord with two attachments.
    emulator.sendDirectMessageFromDiscord('bob', 'alice', 'pics', { attachments: ['a.png', 'b.png'] });
    await pumpUntil(() => find((m) => m.Content() === 'pics') !== undefined);
    const pics = find((m) => m.Content() === 'pics') as MessageHandle;
    const content = pics.AdditionalContent();
    expect(content?.Type()).toBe(AdditionalContentType.Attachment);
    expect(content?.Count()).toBe(2);
    expect(content?.Title()).toBeUndefined();
    expect(AdditionalContent.TypeToString(AdditionalContentType.VoiceMessage)).toBe('VoiceMessage');
    expect(pics.DisclosureType()).toBeUndefined();
    expect(pics.SentFromGame()).toBe(false);

    // The struct as the C++ one: setters, Equals, a uint8 count.
    const made = new AdditionalContent();
    expect([made.Type(), made.Title(), made.Count()]).toEqual([AdditionalContentType.Other, undefined, 0]);
    made.SetType(AdditionalContentType.Attachment);
    made.SetCount(2);
    expect(content && made.Equals(content)).toBe(true);
    made.SetTitle('x');
    expect(content && made.Equals(content)).toBe(false);
    made.SetCount(300);
    expect(made.Count()).toBe(255);

    // A poll carries its question as the title.
    emulator.sendDirectMessageFromDiscord('bob', 'alice', '', { poll: 'Best map?' });
    await pumpUntil(
      () => find((m) => m.AdditionalContent()?.Type() === AdditionalContentType.Poll) !== undefined,
    );
    expect(
      find((m) => m.AdditionalContent()?.Type() === AdditionalContentType.Poll)
        ?.AdditionalContent()
        ?.Title(),
    ).toBe('Best map?');

    // Alice's first message visible on Discord brings her the disclosure.
    let sent: ClientResult | undefined;
    alice.SendUserMessage(bobId, 'hello', (result) => {
      sent = result;
    });
    await pumpUntil(() => sent !== undefined && find((m) => m.DisclosureType() !== undefined) !== undefined);
    const disclosure = find((m) => m.DisclosureType() !== undefined);
    expect(disclosure?.DisclosureType()).toBe(DisclosureTypes.MessageDataVisibleOnDiscord);
    expect(disclosure?.AdditionalContent()).toBeUndefined();

    expect(alice.CanOpenMessageInDiscord(pics.Id())).toBe(true);
    expect(alice.CanOpenMessageInDiscord(disclosure?.Id() ?? 0n)).toBe(false);
    expect(alice.CanOpenMessageInDiscord(123n)).toBe(false);
    expect(alice.CanOpenMessageInDiscord(-1)).toBe(false);

    alice.SetShowingChat(true);
    await pumpUntil(() => emulator.rpcCommands().some((c) => c.cmd === 'SET_SHOWING_CHAT'));

    let merges = 0;
    let opened: ClientResult | undefined;
    alice.OpenMessageInDiscord(
      pics.Id(),
      () => (merges += 1),
      (result) => {
        opened = result;
      },
    );
    let settings: ClientResult | undefined;
    alice.OpenConnectedGamesSettingsInDiscord((result) => {
      settings = result;
    });
    await pumpUntil(() => opened !== undefined && settings !== undefined);
    expect(opened?.Successful()).toBe(true);
    expect(settings?.Successful()).toBe(true);
    expect(merges).toBe(0);
    expect(emulator.localClientOpened().map((o) => o.kind)).toEqual(['message', 'connectedGamesSettings']);

    // Bob runs no desktop client; an unknown message cannot be opened anywhere.
    let noDesktop: ClientResult | undefined;
    bob.OpenConnectedGamesSettingsInDiscord((result) => {
      noDesktop = result;
    });
    let unknown: ClientResult | undefined;
    alice.OpenMessageInDiscord(
      123n,
      () => (merges += 1),
      (result) => {
        unknown = result;
      },
    );
    await pumpUntil(() => noDesktop !== undefined && unknown !== undefined);
    expect(noDesktop?.Type()).toBe(ErrorType.RPCError);
    expect(unknown?.Type()).toBe(ErrorType.ValidationError);
    expect(merges).toBe(0);
  });
});
