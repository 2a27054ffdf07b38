import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import {
  createWebhookEventsHandler,
  GameBackend,
  type WebhookEvent,
} from '../../packages/sdkpp/src/backend/index.js';
import { botSession } from './botHelpers.js';
import { call as apiCall, closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

type Json = Record<string, unknown> & Record<string, unknown>[];
const call = apiCall<Json>;
const { running, cleanups } = closeAfterEach();
const DAY = 86_400_000;

describe('premium apps: SKUs, entitlements and subscriptions', () => {
  it('runs a subscription through purchase, renewal, cancellation and its end, with the events of each', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    const webhookEvents: WebhookEvent[] = [];
    const receiver = createServer(
      createWebhookEventsHandler({
        publicKey: emu.applicationPublicKey,
        onEvent: (event) => {
          webhookEvents.push(event);
        },
      }),
    );
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => receiver.close());
    emu.setWebhookEventsUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`);
    const { gw } = await botSession(emu, 1);
    cleanups.push(() => gw.ws.close());
    const sku = emu.createSku({ name: 'Gold Pass', type: 'subscription', periodMs: DAY });
    const alice = emu.users[0]?.id ?? '';

    const bought = emu.purchaseSku('alice', sku.id);
    const created = (await gw.dispatch('ENTITLEMENT_CREATE')).d as Json;
    expect(created).toMatchObject({
      sku_id: sku.id,
      user_id: alice,
      type: 1,
      ends_at: null,
      consumed: false,
    });
    const subscription = (await gw.dispatch('SUBSCRIPTION_CREATE')).d as Json;
    expect(subscription).toMatchObject({
      user_id: alice,
      sku_ids: [sku.id],
      status: 0,
      renewal_sku_ids: [sku.id],
      canceled_at: null,
    });
    const firstEnd = Date.parse(String(subscription.current_period_end));

    // A period passes: it renews, with no new entitlement.
    emu.advanceTime(DAY);
    const renewed = (await gw.dispatch('SUBSCRIPTION_UPDATE')).d as Json;
    expect(Date.parse(String(renewed.current_period_end))).toBe(firstEnd + DAY);
    expect(renewed.status).toBe(0);

    emu.cancelSubscription(bought.subscription?.id ?? '');
    const ending = (await gw.dispatch('SUBSCRIPTION_UPDATE')).d as Json;
    expect(ending).toMatchObject({ status: 2, renewal_sku_ids: null });
    expect(typeof ending.canceled_at).toBe('string');
    expect(emu.entitlements()[0]?.endsAt).toBeNull();

    emu.advanceTime(DAY);
    const inactive = (await gw.dispatch('SUBSCRIPTION_UPDATE')).d as Json;
    expect(inactive.status).toBe(1);
    const ended = (await gw.dispatch('ENTITLEMENT_UPDATE')).d as Json;
    expect(Date.parse(String(ended.ends_at))).toBe(firstEnd + DAY);

    // Over HTTP, as the bot reads them.
    const bot = `Bot ${emu.botToken}`;
    const subs = await call(emu, bot, 'GET', `/skus/${sku.id}/subscriptions?user_id=${alice}`);
    expect(subs.json).toMatchObject([{ status: 1, sku_ids: [sku.id] }]);
    const live = await call(
      emu,
      bot,
      'GET',
      `/applications/${emu.applicationId}/entitlements?user_id=${alice}&exclude_ended=true`,
    );
    expect(live.json).toEqual([]);
    // ENTITLEMENT_CREATE is the only monetization webhook event: one delivery, no update.
    for (let i = 0; i < 100 && webhookEvents.length === 0; i += 1)
      await new Promise((r) => setTimeout(r, 20));
    expect(webhookEvents.map((e) => e.type).filter((t) => t.startsWith('ENTITLEMENT'))).toEqual([
      'ENTITLEMENT_CREATE',
    ]);
    const event = webhookEvents.find((e) => e.type === 'ENTITLEMENT_CREATE');
    if (event?.type === 'ENTITLEMENT_CREATE')
      expect(event.data).toMatchObject({ sku_id: sku.id, ends_at: null });
  });

  it('consumes consumables once, refuses a durable, and creates and deletes test entitlements', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 2 });
    const { gw } = await botSession(emu, 1);
    cleanups.push(() => gw.ws.close());
    const bot = `Bot ${emu.botToken}`;
    const base = `/applications/${emu.applicationId}/entitlements`;
    const potion = emu.createSku({ name: 'Potion', type: 'consumable' });
    const sword = emu.createSku({ name: 'Sword', type: 'durable' });
    const skus = await call(emu, bot, 'GET', `/applications/${emu.applicationId}/skus`);
    expect(skus.json.map((s) => [s.name, s.type])).toEqual([
      ['Potion', 3],
      ['Sword', 2],
    ]);
    const drink = emu.purchaseSku('bob', potion.id).entitlement;
    await gw.dispatch('ENTITLEMENT_CREATE');
    expect((await call(emu, bot, 'POST', `${base}/${drink.id}/consume`)).status).toBe(204);
    expect((await gw.dispatch('ENTITLEMENT_UPDATE')).d).toMatchObject({ id: drink.id, consumed: true });
    const again = await call(emu, bot, 'POST', `${base}/${drink.id}/consume`);
    expect([again.status, again.json.code]).toEqual([400, 50035]);
    const owned = emu.purchaseSku('bob', sword.id).entitlement;
    const durable = await call(emu, bot, 'POST', `${base}/${owned.id}/consume`);
    expect(durable.status).toBe(400);
    expect(JSON.stringify(durable.json)).toContain('only entitlements of consumable SKUs can be consumed');
    expect(logs.some((l) => l.includes(`consume of entitlement ${owned.id} refused`))).toBe(true);
    expect(() => emu.purchaseSku('bob', sword.id)).toThrow('already owns');

    const alice = emu.users[0]?.id ?? '';
    const test = await call(emu, bot, 'POST', base, { sku_id: sword.id, owner_id: alice, owner_type: 2 });
    expect(test.json).toMatchObject({ type: 4, user_id: alice, sku_id: sword.id });
    expect((await call(emu, bot, 'DELETE', `${base}/${String(test.json.id)}`)).status).toBe(204);
    expect((await gw.dispatch('ENTITLEMENT_DELETE')).d).toMatchObject({ id: test.json.id, deleted: true });
    const notTest = await call(emu, bot, 'DELETE', `${base}/${owned.id}`);
    expect(notTest.status).toBe(400);
    const bad = await call(emu, bot, 'POST', base, { sku_id: '1', owner_type: 3 });
    expect(bad.json).toMatchObject({ code: 50035, errors: { owner_id: {}, owner_type: {}, sku_id: {} } });
    const bobs = await call(emu, bot, 'GET', `${base}?user_id=${emu.users[1]?.id ?? ''}`);
    expect(bobs.json.map((e) => e.sku_id)).toEqual([potion.id, sword.id]);
  });
});

describe('the premium button', () => {
  it('needs an available SKU of the app, and PREMIUM_REQUIRED still answers', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 2 });
    const bot = `Bot ${emu.botToken}`;
    emu.addBotToGuild(emu.guilds()[0]?.id ?? '');
    const general = emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
    const sku = emu.createSku({ name: 'Gold Pass', type: 'subscription' });
    const row = (skuId: string) => [{ type: 1, components: [{ type: 2, style: 6, sku_id: skuId }] }];
    const ok = await call(emu, bot, 'POST', `/channels/${general}/messages`, {
      content: 'Upgrade',
      components: row(sku.id),
    });
    expect(ok.status).toBe(200);
    const unknownSku = await call(emu, bot, 'POST', `/channels/${general}/messages`, {
      content: 'x',
      components: row('123'),
    });
    expect(unknownSku.json).toMatchObject({
      code: 50035,
      errors: {
        components: {
          0: { components: { 0: { sku_id: { _errors: [{ code: 'BUTTON_COMPONENT_SKU_ID_INVALID' }] } } } },
        },
      },
    });
    const withLabel = await call(emu, bot, 'POST', `/channels/${general}/messages`, {
      components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: sku.id, label: 'Buy' }] }],
    });
    expect(withLabel.json).toMatchObject({
      errors: { components: { 0: { components: { 0: { label: {} } } } } },
    });

    // The deprecated PREMIUM_REQUIRED callback (10) is still answered.
    await call(emu, bot, 'POST', `/applications/${emu.applicationId}/commands`, {
      name: 'vip',
      description: 'VIP lounge',
    });
    const { gw } = await botSession(emu, 1);
    cleanups.push(() => gw.ws.close());
    const invoked = await emu.invokeCommand({ user: 'alice', command: 'vip', channel: general });
    const payload = (await gw.dispatch('INTERACTION_CREATE')).d as { id: string; token: string };
    const answer = await call(emu, null, 'POST', `/interactions/${payload.id}/${payload.token}/callback`, {
      type: 10,
    });
    expect(answer.status).toBe(204);
    expect(emu.interactions().find((i) => i.id === invoked.id)?.responseType).toBe(10);
    expect(logs.some((l) => l.includes('PREMIUM_REQUIRED (deprecated'))).toBe(true);
  });
});

describe('sdkpp/backend premium calls against the emulator', () => {
  it('lists SKUs, entitlements and subscriptions, consumes, and makes test entitlements', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    const backend = new GameBackend({
      botToken: emu.botToken,
      apiBase: emu.api,
      applicationId: emu.applicationId,
    });
    cleanups.push(() => void backend.close());
    const pass = emu.createSku({ name: 'Gold Pass', type: 'subscription', periodMs: DAY });
    const gems = emu.createSku({ name: 'Gems', type: 'consumable' });
    expect((await backend.listSkus()).map((s) => [s.name, s.type])).toEqual([
      ['Gold Pass', 5],
      ['Gems', 3],
    ]);
    const alice = emu.users[0]?.id ?? '';
    const { subscription } = emu.purchaseSku('alice', pass.id);
    const bought = emu.purchaseSku('alice', gems.id).entitlement;
    const mine = await backend.listEntitlements({ userId: alice, excludeEnded: true });
    expect(mine.map((e) => [e.skuId, e.endsAt])).toEqual([
      [pass.id, null],
      [gems.id, null],
    ]);
    await backend.consumeEntitlement(bought.id);
    await expect(backend.consumeEntitlement(bought.id)).rejects.toThrow();
    const subs = await backend.listSubscriptions(pass.id, alice);
    expect(subs.map((s) => [s.status, s.renewalSkuIds])).toEqual([[0, [pass.id]]]);
    emu.cancelSubscription(subscription?.id ?? '');
    emu.advanceTime(DAY);
    const [ended] = await backend.listSubscriptions(pass.id, alice);
    expect(ended?.status).toBe(1);
    expect(ended?.canceledAt).toBeInstanceOf(Date);
    expect(
      (await backend.listEntitlements({ userId: alice, skuIds: [pass.id], excludeEnded: true })).length,
    ).toBe(0);
    const test = await backend.createTestEntitlement(gems.id, emu.users[1]?.id ?? '');
    expect(test.type).toBe(4);
    await backend.deleteTestEntitlement(test.id);
    expect(emu.entitlements().find((e) => e.id === test.id)?.deleted).toBe(true);
    await expect(new GameBackend({ botToken: emu.botToken, apiBase: emu.api }).listSkus()).rejects.toThrow(
      'applicationId',
    );
  });
});

describe('the store page', () => {
  it('lets a test user buy a SKU and cancel a subscription, with the events of each', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    const { gw } = await botSession(emu, 1);
    cleanups.push(() => gw.ws.close());
    const pass = emu.createSku({ name: 'Gold Pass', type: 'subscription' });
    const html = await (await fetch(`${emu.http}/store`)).text();
    expect(html).toContain('Gold Pass');
    // Each showing of the page issues a token for one submission.
    const freshToken = async (): Promise<string> =>
      /name="csrf_token" value="([^"]+)"/.exec(await (await fetch(`${emu.http}/store`)).text())?.[1] ?? '';
    const bob = emu.users[1]?.id ?? '';
    const post = (path: string, fields: Record<string, string>) =>
      fetch(`${emu.http}${path}`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
    expect(
      (await post('/store/buy', { csrf_token: await freshToken(), sku_id: pass.id, user_id: bob })).status,
    ).toBe(302);
    expect((await gw.dispatch('ENTITLEMENT_CREATE')).d).toMatchObject({ user_id: bob, sku_id: pass.id });
    const subscription = emu.subscriptions()[0];
    expect(subscription).toMatchObject({ userId: bob, status: 0 });
    expect((await post('/store/buy', { csrf_token: 'forged', sku_id: pass.id, user_id: bob })).status).toBe(
      400,
    );
    const twice = await post('/store/buy', { csrf_token: await freshToken(), sku_id: pass.id, user_id: bob });
    expect([twice.status, await twice.text()]).toEqual([
      400,
      expect.stringContaining('already has a live subscription'),
    ]);
    expect(
      (
        await post('/store/cancel', {
          csrf_token: await freshToken(),
          subscription_id: subscription?.id ?? '',
        })
      ).status,
    ).toBe(302);
    expect((await gw.dispatch('SUBSCRIPTION_UPDATE')).d).toMatchObject({ status: 2 });
    expect(await (await fetch(`${emu.http}/store`)).text()).toMatch(/<span class="status">ending<\/span>/);
  });
});
