import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from '../store/types.js';
import type { EmulatorEntitlement, EmulatorSku, EmulatorSubscription } from '../types.js';

/** The admin view of a SKU. */
export function skuView(s: SkuRecord): EmulatorSku {
  return {
    id: s.id,
    name: s.name,
    type: s.type,
    periodMs: s.periodMs,
    price: s.price ? { ...s.price } : null,
  };
}

/** The admin view of an entitlement. */
export function entitlementView(e: EntitlementRecord): EmulatorEntitlement {
  return {
    id: e.id,
    skuId: e.skuId,
    userId: e.userId,
    guildId: e.guildId,
    type: e.type,
    endsAt: e.endsAt === null ? null : new Date(e.endsAt).toISOString(),
    consumed: e.consumed,
    deleted: e.deleted,
  };
}

/** The admin view of a subscription. */
export function subscriptionView(s: SubscriptionRecord): EmulatorSubscription {
  return {
    id: s.id,
    userId: s.userId,
    skuIds: [...s.skuIds],
    status: s.status,
    currentPeriodEnd: new Date(s.currentPeriodEnd).toISOString(),
    canceledAt: s.canceledAt === null ? null : new Date(s.canceledAt).toISOString(),
  };
}
