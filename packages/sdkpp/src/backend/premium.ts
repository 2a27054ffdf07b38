import { ValidationError } from '@sdkpp/protocol';

/** A SKU of the application: what players can buy. */
export interface BackendSku {
  /** The SKU's id. */
  id: string;
  /** 2 durable, 3 consumable, 5 subscription, 6 subscription group. */
  type: number;
  /** Its name. */
  name: string;
  /** Its URL slug. */
  slug: string;
  /** SKU flags (AVAILABLE 1 << 2, GUILD_SUBSCRIPTION 1 << 7, USER_SUBSCRIPTION 1 << 8). */
  flags: number;
}

/** An entitlement: a player's (or a server's) right to a SKU. */
export interface BackendEntitlement {
  /** The entitlement's id. */
  id: string;
  /** The SKU it grants. */
  skuId: string;
  /** The player it belongs to, or null for a server's. */
  userId: string | null;
  /** The server it belongs to, or null for a player's. */
  guildId: string | null;
  /** 1 purchase (subscriptions too), 4 test mode purchase, … */
  type: number;
  /** When it started, or null. */
  startsAt: Date | null;
  /** When it ends or ended; null while indefinite (an ongoing subscription). */
  endsAt: Date | null;
  /** A consumable's entitlement once consumed. */
  consumed: boolean;
  /** A deleted test entitlement. */
  deleted: boolean;
}

/** A player's subscription to a subscription SKU. */
export interface BackendSubscription {
  /** The subscription's id. */
  id: string;
  /** The subscriber. */
  userId: string;
  /** The SKUs subscribed to. */
  skuIds: string[];
  /** The entitlements it granted. */
  entitlementIds: string[];
  /** The SKUs it renews to; null once canceled. */
  renewalSkuIds: string[] | null;
  /** The current period. */
  currentPeriodStart: Date;
  /** The current period's end: the renewal, or the end once canceled. */
  currentPeriodEnd: Date;
  /** 0 active, 1 inactive, 2 ending (canceled, running to the period's end). */
  status: number;
  /** When it was canceled, or null. */
  canceledAt: Date | null;
}

/** The filters of {@link GameBackend.listEntitlements}. */
export interface ListEntitlementsOptions {
  /** One player's entitlements. */
  userId?: string;
  /** Only these SKUs'. */
  skuIds?: string[];
  /** Leave out entitlements that ended. @defaultValue false */
  excludeEnded?: boolean;
  /** At most this many (1–100). @defaultValue 100 */
  limit?: number;
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(`the platform sent a malformed ${what}`);
  }
  return value as Record<string, unknown>;
}

function text(r: Record<string, unknown>, key: string, what: string): string {
  const value = r[key];
  if (typeof value !== 'string') throw new ValidationError(`the platform sent a ${what} without ${key}`);
  return value;
}

function date(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

function ids(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A SKU from the wire. */
export function skuFromWire(value: unknown): BackendSku {
  const r = record(value, 'SKU');
  return {
    id: text(r, 'id', 'SKU'),
    type: typeof r.type === 'number' ? r.type : 0,
    name: text(r, 'name', 'SKU'),
    slug: typeof r.slug === 'string' ? r.slug : '',
    flags: typeof r.flags === 'number' ? r.flags : 0,
  };
}

/** An entitlement from the wire. */
export function entitlementFromWire(value: unknown): BackendEntitlement {
  const r = record(value, 'entitlement');
  return {
    id: text(r, 'id', 'entitlement'),
    skuId: text(r, 'sku_id', 'entitlement'),
    userId: typeof r.user_id === 'string' ? r.user_id : null,
    guildId: typeof r.guild_id === 'string' ? r.guild_id : null,
    type: typeof r.type === 'number' ? r.type : 0,
    startsAt: date(r.starts_at),
    endsAt: date(r.ends_at),
    consumed: r.consumed === true,
    deleted: r.deleted === true,
  };
}

/** A subscription from the wire. */
export function subscriptionFromWire(value: unknown): BackendSubscription {
  const r = record(value, 'subscription');
  const start = date(r.current_period_start);
  const end = date(r.current_period_end);
  if (!start || !end) throw new ValidationError('the platform sent a subscription without its period');
  return {
    id: text(r, 'id', 'subscription'),
    userId: text(r, 'user_id', 'subscription'),
    skuIds: ids(r.sku_ids),
    entitlementIds: ids(r.entitlement_ids),
    renewalSkuIds: Array.isArray(r.renewal_sku_ids) ? ids(r.renewal_sku_ids) : null,
    currentPeriodStart: start,
    currentPeriodEnd: end,
    status: typeof r.status === 'number' ? r.status : 0,
    canceledAt: date(r.canceled_at),
  };
}

/** A list from the wire, each item parsed. */
export function listFromWire<T>(value: unknown, parse: (item: unknown) => T, what: string): T[] {
  if (!Array.isArray(value)) throw new ValidationError(`the platform sent a malformed ${what} list`);
  return value.map(parse);
}
