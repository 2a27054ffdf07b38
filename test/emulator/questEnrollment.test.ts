import { verifyKey } from 'discord-interactions';
import { describe, expect, it } from 'vitest';

import { createWebhookEventsHandler, type WebhookEvent } from '../../packages/sdkpp/src/backend/index.js';
import { findHook } from '../../packages/emulator/src/hooks/index.js';
import { checkHookArgs } from '../../packages/emulator/src/hooks/hook.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import {
  recordingReceiver,
  until,
  webhookReceiversAfterEach,
  type ReceivedWebhook,
} from './webhookReceivers.js';

// QUEST_USER_ENROLLMENT from the enrollInQuest admin hook, received over loopback HTTP by a bare recorder that
// discord-interactions' verifier checks, and by sdkpp/backend's receiver, typed.

let emu: Emulator | undefined;
const receivers = webhookReceiversAfterEach();

describe('QUEST_USER_ENROLLMENT', () => {
  it('is sent signed to the webhook events URL when a user enrolls in a Quest', async () => {
    emu = await receivers.start({ users: 2 });
    const received: ReceivedWebhook[] = [];
    emu.setWebhookEventsUrl(await receivers.listen(recordingReceiver(received)));
    const alice = emu.users[0];
    const data = emu.enrollInQuest({ user: 'alice', questId: '1300000000000000001' });
    expect(data).toMatchObject({ user_id: alice?.id, quest_id: '1300000000000000001' });
    const got = await until('the event', () => received[0]);
    expect(await verifyKey(got.body, got.signature, got.timestamp, emu.applicationPublicKey)).toBe(true);
    const tampered = got.body.replace('1300000000000000001', '1300000000000000002');
    expect(await verifyKey(tampered, got.signature, got.timestamp, emu.applicationPublicKey)).toBe(false);
    expect(JSON.parse(got.body)).toMatchObject({
      version: 1,
      application_id: emu.applicationId,
      type: 1,
      event: {
        type: 'QUEST_USER_ENROLLMENT',
        data: {
          user_id: alice?.id,
          user: { id: alice?.id, username: 'alice' },
          quest_id: '1300000000000000001',
          enrolled_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
        },
      },
    });
    await until('the delivery marked', () => emu?.webhookDeliveries().find((d) => d.state === 'delivered'));
    expect(emu.webhookDeliveries()).toMatchObject([{ eventType: 'QUEST_USER_ENROLLMENT', attempts: 1 }]);

    // Unknown users and ids that are no snowflake are refused, and nothing is sent.
    expect(() => emu?.enrollInQuest({ user: 'nobody', questId: '1' })).toThrow(/no user/);
    expect(() => emu?.enrollInQuest({ user: 'bob', questId: 'quest-1' })).toThrow(/not a Quest id/);
    expect(emu.webhookDeliveries()).toHaveLength(1);
  });

  it('reaches sdkpp/backend typed, through the enrollInQuest admin hook', async () => {
    emu = await receivers.start({ users: 2 });
    const events: WebhookEvent[] = [];
    emu.setWebhookEventsUrl(
      await receivers.listen(
        createWebhookEventsHandler({
          publicKey: emu.applicationPublicKey,
          onEvent: (event) => {
            events.push(event);
          },
          onUnknownEvent: () => {
            throw new Error('QUEST_USER_ENROLLMENT is a known event');
          },
        }),
      ),
    );
    const hook = findHook('enrollInQuest');
    if (!hook) throw new Error('no enrollInQuest hook');
    expect(checkHookArgs(hook, { user: 'bob', questId: 'x' })).toMatchObject({ ok: false });
    const args = checkHookArgs(hook, { user: 'bob', questId: '1300000000000000009' });
    if (!args.ok) throw new Error(args.problems.join('; '));
    await hook.run(emu, args.args);
    const event = await until('the event', () => events[0]);
    expect(event.type).toBe('QUEST_USER_ENROLLMENT');
    if (event.type === 'QUEST_USER_ENROLLMENT') {
      expect(event.data.quest_id).toBe('1300000000000000009');
      expect(event.data.user_id).toBe(emu.users[1]?.id);
      expect(event.data.user?.username).toBe('bob');
    }
  });
});
