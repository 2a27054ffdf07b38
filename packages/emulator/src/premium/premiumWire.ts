import type { EntitlementRecord, SkuPrice, SkuRecord, SubscriptionRecord } from '../store/types.js';

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The decimals of a currency's smallest unit (2 for USD, 0 for JPY, 3 for KWD); 2 for a code ICU does not know. */
function currencyDecimals(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}

/** A price as the store shows it: `4.99 USD`, `500 JPY` (the amount is in the smallest unit), or `free`. */
export function priceText(price: SkuPrice | undefined): string {
  if (!price) return 'free';
  const decimals = currencyDecimals(price.currency);
  return `${(price.amount / 10 ** decimals).toFixed(decimals)} ${price.currency.toUpperCase()}`;
}

/** A SKU as the API sends it. */
export function wireSku(sku: SkuRecord, applicationId: string): Record<string, unknown> {
  return {
    id: sku.id,
    type: sku.type,
    application_id: applicationId,
    name: sku.name,
    slug: sku.slug,
    flags: sku.flags,
  };
}

/** An entitlement as the API and the gateway send it. */
export function wireEntitlement(e: EntitlementRecord, applicationId: string): Record<string, unknown> {
  return {
    id: e.id,
    sku_id: e.skuId,
    application_id: applicationId,
    ...(e.userId === null ? {} : { user_id: e.userId }),
    ...(e.guildId === null ? {} : { guild_id: e.guildId }),
    type: e.type,
    deleted: e.deleted,
    starts_at: iso(e.startsAt),
    ends_at: iso(e.endsAt),
    consumed: e.consumed,
  };
}

/** A subscription as the API and the gateway send it (with the document's `renewal_sku_ids`, `canceled_at`). */
export function wireSubscription(s: SubscriptionRecord): Record<string, unknown> {
  return {
    id: s.id,
    user_id: s.userId,
    sku_ids: [...s.skuIds],
    entitlement_ids: [...s.entitlementIds],
    renewal_sku_ids: s.renewalSkuIds.length === 0 ? null : [...s.renewalSkuIds],
    current_period_start: iso(s.currentPeriodStart),
    current_period_end: iso(s.currentPeriodEnd),
    status: s.status,
    canceled_at: iso(s.canceledAt),
  };
}
