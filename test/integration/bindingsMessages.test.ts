import { describe, expect, it } from 'vitest';

import {
  ChannelType,
  ErrorType,
  type ClientResult,
  type MessageHandle,
  type UserMessageSummary,
} from '../../packages/sdkpp/bindings/index.js';
import { aliceAndBob, pumpUntil } from './bindingsHelpers.js';

describe('bindings: direct messages', () => {
  it('send, receive, edit, history, summaries and delete through callbacks', async () => {
    const { emulator, alice, bob, aliceId, bobId } = await aliceAndBob();

    const created: bigint[] = [];
    const updated: bigint[] = [];
    const deleted: [bigint, bigint][] = [];
    bob.SetMessageCreatedCallback((id) => created.push(id));
    bob.SetMessageUpdatedCallback((id) => updated.push(id));
    bob.SetMessageDeletedCallback((id, channelId) => deleted.push([id, channelId]));

    let sent: [ClientResult, bigint] | undefined;
    alice.SendUserMessageWithMetadata(bobId, 'hello', new Map([['team', 'red']]), (result, id) => {
      sent = [result, id];
    });
    await pumpUntil(() => sent !== undefined && created.length === 1);
    const [result, id] = sent ?? [];
    expect(result?.Successful()).toBe(true);
    expect(created).toEqual([id]);

    const message = bob.GetMessageHandle(id ?? 0n) as MessageHandle;
    expect(message.Content()).toBe('hello');
    expect(message.AuthorId()).toBe(aliceId);
    expect(message.Author()?.Username()).toBe('alice');
    expect(message.RecipientId()).toBe(bobId);
    expect(message.ChannelId()).toBe(aliceId);
    expect(message.Channel()?.Type()).toBe(ChannelType.EphemeralDm);
    expect(message.Channel()?.Recipients()).toEqual([aliceId]);
    expect(message.ApplicationId()).toBe(BigInt(emulator.applicationId));
    expect(message.Metadata().get('team')).toBe('red');
    expect(message.SentFromGame()).toBe(true);
    expect(message.SentTimestamp()).toBeGreaterThan(0n);
    expect(message.EditedTimestamp()).toBe(0n);
    expect(bob.GetChannelHandle(aliceId)?.Name()).toBe('Alice');

    let edited: ClientResult | undefined;
    alice.EditUserMessage(bobId, id ?? 0n, 'hello again', (r) => (edited = r));
    await pumpUntil(() => edited !== undefined && updated.length === 1);
    expect(edited?.Successful()).toBe(true);
    expect(message.Content()).toBe('hello again');
    expect(message.EditedTimestamp()).toBeGreaterThan(0n);

    let history: MessageHandle[] | undefined;
    bob.GetUserMessagesWithLimit(aliceId, 10, (r, messages) => {
      expect(r.Successful()).toBe(true);
      history = messages;
    });
    await pumpUntil(() => history !== undefined);
    expect(history?.map((m) => m.Content())).toEqual(['hello again']);

    let summaries: UserMessageSummary[] | undefined;
    bob.GetUserMessageSummaries((r, list) => {
      expect(r.Successful()).toBe(true);
      summaries = list;
    });
    await pumpUntil(() => summaries !== undefined);
    expect(summaries?.map((s) => [s.UserId(), s.LastMessageId()])).toEqual([[aliceId, id]]);

    let removed: ClientResult | undefined;
    alice.DeleteUserMessage(bobId, id ?? 0n, (r) => (removed = r));
    await pumpUntil(() => removed !== undefined && deleted.length === 1);
    expect(deleted).toEqual([[id, aliceId]]);
    expect(bob.GetMessageHandle(id ?? 0n)).toBeUndefined();

    // Local checks reach the callback as a failed result; no id.
    let refused: [ClientResult, bigint] | undefined;
    alice.SendUserMessage(bobId, '', (r, messageId) => (refused = [r, messageId]));
    await pumpUntil(() => refused !== undefined);
    expect(refused?.[0].Successful()).toBe(false);
    expect(refused?.[0].Type()).toBe(ErrorType.ValidationError);
    expect(refused?.[1]).toBe(0n);
    let badLimit: ClientResult | undefined;
    bob.GetUserMessagesWithLimit(aliceId, 0, (r, messages) => {
      expect(messages).toEqual([]);
      badLimit = r;
    });
    await pumpUntil(() => badLimit !== undefined);
    expect(badLimit?.Successful()).toBe(false);
    alice.Disconnect();
    bob.Disconnect();
  });
});
