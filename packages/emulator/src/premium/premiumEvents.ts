import type { BotGateway } from '../bot/botGateway.js';
import type { WebhookEvents } from '../webhooks/WebhookEvents.js';
import type { Premium } from './Premium.js';
import { wireEntitlement, wireSubscription } from './premiumWire.js';

/**
 * Reports the store's changes: ENTITLEMENT_CREATE / _UPDATE / _DELETE and SUBSCRIPTION_CREATE / _UPDATE to the
 * bot's gateway sessions (no intent needed; they are not guild events, so shard 0 gets them), and
 * ENTITLEMENT_CREATE as a webhook event too, the only monetization webhook event (the document's rule).
 */
export function wirePremiumEvents(deps: {
  premium: Premium;
  bot: BotGateway;
  webhooks: WebhookEvents;
  applicationId: string;
}): void {
  const { premium, bot, webhooks, applicationId } = deps;
  premium.on('entitlementCreated', (e) => {
    const wire = wireEntitlement(e, applicationId);
    bot.dispatch('ENTITLEMENT_CREATE', 0, null, () => wire);
    webhooks.emit('ENTITLEMENT_CREATE', wire);
  });
  premium.on('entitlementUpdated', (e) => {
    bot.dispatch('ENTITLEMENT_UPDATE', 0, null, () => wireEntitlement(e, applicationId));
  });
  premium.on('entitlementDeleted', (e) => {
    bot.dispatch('ENTITLEMENT_DELETE', 0, null, () => wireEntitlement(e, applicationId));
  });
  premium.on('subscriptionCreated', (s) => {
    bot.dispatch('SUBSCRIPTION_CREATE', 0, null, () => wireSubscription(s));
  });
  premium.on('subscriptionUpdated', (s) => {
    bot.dispatch('SUBSCRIPTION_UPDATE', 0, null, () => wireSubscription(s));
  });
}
