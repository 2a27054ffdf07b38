import { TypedEmitter } from '@sdkpp/protocol';
import type { EmulatorLog } from '../log.js';
import { compareIds } from '../snowflake.js';
import { MAX_PERIOD_MS, MIN_PERIOD_MS } from '../store/schema.js';
import type { EmulatorStore } from '../store/Store.js';
import type { EntitlementRecord, SkuPrice, SkuRecord, SubscriptionRecord } from '../store/types.js';

/** SKU types the emulator sells. */
export const SkuType = { DURABLE: 2, CONSUMABLE: 3, SUBSCRIPTION: 5 } as const;
/** SKU flags. */
export const SkuFlag = { AVAILABLE: 1 << 2, GUILD_SUBSCRIPTION: 1 << 7, USER_SUBSCRIPTION: 1 << 8 } as const;
/** Entitlement types the emulator makes. */
export const EntitlementType = { PURCHASE: 1, TEST_MODE_PURCHASE: 4 } as const;
/** Subscription statuses: the document's INACTIVE = 1 and ENDING = 2, and ACTIVE. */
export const SubscriptionStatus = { ACTIVE: 0, INACTIVE: 1, ENDING: 2 } as const;

/** The default subscription period: 30 days. */
export const DEFAULT_PERIOD_MS = 30 * 86_400_000;

/** Events of {@link Premium}: what the gateway and the webhook events report. */
export type PremiumEvents = {
  entitlementCreated: [entitlement: EntitlementRecord];
  entitlementUpdated: [entitlement: EntitlementRecord];
  entitlementDeleted: [entitlement: EntitlementRecord];
  subscriptionCreated: [subscription: SubscriptionRecord];
  subscriptionUpdated: [subscription: SubscriptionRecord];
};

/** Why a consume is refused. */
export class ConsumeRefusal extends Error {
  override name = 'ConsumeRefusal';
}

/**
 * The application's store: SKUs, entitlements and subscriptions, with the document's states and transitions.
 * A purchase of a subscription SKU makes an ACTIVE subscription and an entitlement whose `ends_at` is null
 * (ENTITLEMENT_CREATE, SUBSCRIPTION_CREATE). Time ({@link Premium.tick}, driven by `advanceTime`) renews an
 * active subscription at its period's end (SUBSCRIPTION_UPDATE, no new entitlement), and ends an ENDING one:
 * the subscription goes INACTIVE (SUBSCRIPTION_UPDATE) and its entitlement gets `ends_at` = the end time
 * (ENTITLEMENT_UPDATE, for subscription entitlements only then). Consumables are consumed; durables are not.
 */
export class Premium extends TypedEmitter<PremiumEvents> {
  readonly #store: EmulatorStore;
  readonly #log: EmulatorLog;

  constructor(store: EmulatorStore, log: EmulatorLog) {
    super();
    this.#store = store;
    this.#log = log;
  }

  /** The SKUs, oldest first. */
  skus(): SkuRecord[] {
    return Object.values(this.#store.state.skus).sort((a, b) => compareIds(a.id, b.id));
  }

  /** A SKU by id. */
  sku(id: string): SkuRecord | undefined {
    const all = this.#store.state.skus;
    return Object.hasOwn(all, id) ? all[id] : undefined;
  }

  /** Whether a SKU exists and is AVAILABLE (what a premium button may point to). */
  available(id: string): boolean {
    const sku = this.sku(id);
    return sku !== undefined && (sku.flags & SkuFlag.AVAILABLE) !== 0;
  }

  /** Creates a SKU (the developer portal's work). */
  createSku(input: {
    name: string;
    type: SkuRecord['type'];
    periodMs?: number;
    guild?: boolean;
    price?: SkuPrice;
  }): SkuRecord {
    const name = input.name.trim();
    if (name.length === 0 || name.length > 100) throw new RangeError('a SKU name is 1–100 characters');
    const { price } = input;
    if (
      price !== undefined &&
      (!Number.isSafeInteger(price.amount) || price.amount < 0 || !/^[a-z]{3}$/.test(price.currency))
    ) {
      throw new RangeError('a price is a whole amount of the smallest unit and a 3-letter currency code');
    }
    if (
      input.periodMs !== undefined &&
      (!Number.isSafeInteger(input.periodMs) ||
        input.periodMs < MIN_PERIOD_MS ||
        input.periodMs > MAX_PERIOD_MS)
    ) {
      throw new RangeError('a subscription period is at least one minute and at most a century');
    }
    const subscription = input.type === SkuType.SUBSCRIPTION;
    const sku: SkuRecord = {
      id: this.#store.nextId(),
      type: input.type,
      name,
      slug:
        name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '') || 'sku',
      flags:
        SkuFlag.AVAILABLE |
        (subscription ? (input.guild === true ? SkuFlag.GUILD_SUBSCRIPTION : SkuFlag.USER_SUBSCRIPTION) : 0),
      periodMs: subscription ? (input.periodMs ?? DEFAULT_PERIOD_MS) : null,
      ...(price === undefined ? {} : { price: { amount: price.amount, currency: price.currency } }),
    };
    this.#store.state.skus[sku.id] = sku;
    this.#log.line('premium', `SKU ${sku.name} (${sku.id}, type ${sku.type}) created`);
    return sku;
  }

  /** Entitlements, oldest first. */
  entitlements(): EntitlementRecord[] {
    return Object.values(this.#store.state.entitlements).sort((a, b) => compareIds(a.id, b.id));
  }

  /** An entitlement by id. */
  entitlement(id: string): EntitlementRecord | undefined {
    const all = this.#store.state.entitlements;
    return Object.hasOwn(all, id) ? all[id] : undefined;
  }

  /** Subscriptions, oldest first. */
  subscriptions(): SubscriptionRecord[] {
    return Object.values(this.#store.state.subscriptions).sort((a, b) => compareIds(a.id, b.id));
  }

  /** A subscription by id. */
  subscription(id: string): SubscriptionRecord | undefined {
    const all = this.#store.state.subscriptions;
    return Object.hasOwn(all, id) ? all[id] : undefined;
  }

  /** Why the user cannot buy the SKU (unavailable, a durable owned, a live subscription), or undefined. */
  purchaseProblem(userId: string, skuId: string): string | undefined {
    const sku = this.sku(skuId);
    if (!sku || (sku.flags & SkuFlag.AVAILABLE) === 0) return `no available SKU "${skuId}"`;
    if (sku.type === SkuType.DURABLE && this.#live(userId, skuId).length > 0) {
      return 'the user already owns this durable SKU';
    }
    const subscribed = this.subscriptions().some(
      (s) => s.userId === userId && s.skuIds.includes(skuId) && s.status !== SubscriptionStatus.INACTIVE,
    );
    if (sku.type === SkuType.SUBSCRIPTION && subscribed) {
      return 'the user already has a live subscription to this SKU';
    }
    return undefined;
  }

  /**
   * A user buys a SKU (the store page, or the admin hook): an entitlement, and for a subscription SKU a
   * subscription. Throws a RangeError for an unavailable SKU or a second live subscription to it.
   */
  purchase(
    userId: string,
    skuId: string,
  ): { entitlement: EntitlementRecord; subscription: SubscriptionRecord | null } {
    const problem = this.purchaseProblem(userId, skuId);
    const sku = this.sku(skuId);
    if (problem !== undefined || !sku) throw new RangeError(problem ?? `no available SKU "${skuId}"`);
    const now = this.#store.now();
    let subscription: SubscriptionRecord | null = null;
    if (sku.type === SkuType.SUBSCRIPTION) {
      subscription = {
        id: this.#store.nextId(),
        userId,
        skuIds: [skuId],
        entitlementIds: [],
        renewalSkuIds: [skuId],
        currentPeriodStart: now,
        currentPeriodEnd: now + (sku.periodMs ?? DEFAULT_PERIOD_MS),
        status: SubscriptionStatus.ACTIVE,
        canceledAt: null,
      };
    }
    const entitlement = this.#entitle({
      skuId,
      userId,
      guildId: null,
      type: EntitlementType.PURCHASE,
      // The document: a subscription's entitlement starts with ends_at null (indefinite).
      startsAt: now,
      subscriptionId: subscription?.id ?? null,
    });
    if (subscription) {
      subscription.entitlementIds.push(entitlement.id);
      this.#store.state.subscriptions[subscription.id] = subscription;
      this.#log.line(
        'premium',
        `user ${userId} subscribed to ${sku.name} until ${new Date(subscription.currentPeriodEnd).toISOString()}`,
      );
      this.emit('subscriptionCreated', subscription);
    } else {
      this.#log.line('premium', `user ${userId} bought ${sku.name}`);
    }
    this.emit('entitlementCreated', entitlement);
    return { entitlement, subscription };
  }

  /** A test entitlement (the bot's Create Test Entitlement) for a user or a guild. */
  createTestEntitlement(skuId: string, owner: { userId: string } | { guildId: string }): EntitlementRecord {
    if (!this.sku(skuId)) throw new RangeError(`no SKU "${skuId}"`);
    const entitlement = this.#entitle({
      skuId,
      userId: 'userId' in owner ? owner.userId : null,
      guildId: 'guildId' in owner ? owner.guildId : null,
      type: EntitlementType.TEST_MODE_PURCHASE,
      startsAt: null,
      subscriptionId: null,
    });
    this.emit('entitlementCreated', entitlement);
    return entitlement;
  }

  /** Deletes a test entitlement; throws a RangeError for any other kind. */
  deleteTestEntitlement(entitlement: EntitlementRecord): void {
    if (entitlement.type !== EntitlementType.TEST_MODE_PURCHASE)
      throw new RangeError('only test entitlements can be deleted');
    entitlement.deleted = true;
    this.emit('entitlementDeleted', entitlement);
  }

  /** Consumes a consumable's entitlement; refuses durables, subscriptions and used ones. */
  consume(entitlement: EntitlementRecord): void {
    const sku = this.sku(entitlement.skuId);
    if (sku?.type !== SkuType.CONSUMABLE)
      throw new ConsumeRefusal('only entitlements of consumable SKUs can be consumed');
    if (entitlement.consumed) throw new ConsumeRefusal('the entitlement is already consumed');
    entitlement.consumed = true;
    this.#log.line('premium', `entitlement ${entitlement.id} consumed`);
    this.emit('entitlementUpdated', entitlement);
  }

  /** The user cancels: the subscription is ENDING, with no renewal SKUs, until its period ends. */
  cancel(subscription: SubscriptionRecord): void {
    if (subscription.status !== SubscriptionStatus.ACTIVE)
      throw new RangeError('only an active subscription can be canceled');
    subscription.status = SubscriptionStatus.ENDING;
    subscription.canceledAt = this.#store.now();
    subscription.renewalSkuIds = [];
    this.#log.line(
      'premium',
      `subscription ${subscription.id} canceled; it ends ${new Date(subscription.currentPeriodEnd).toISOString()}`,
    );
    this.emit('subscriptionUpdated', subscription);
  }

  /**
   * Applies what the passing of time does: renewals of active subscriptions, endings of ENDING ones. An
   * active subscription whose period ended renews once per tick, straight into the period that holds `now`
   * however many periods were missed (a long `advanceTime`, a state saved long ago): one update, and work
   * that does not grow with the gap.
   */
  tick(): void {
    const now = this.#store.now();
    for (const subscription of this.subscriptions()) {
      if (subscription.status === SubscriptionStatus.ACTIVE && subscription.currentPeriodEnd <= now) {
        this.#renew(subscription, now);
      }
      if (subscription.status === SubscriptionStatus.ENDING && subscription.currentPeriodEnd <= now) {
        subscription.status = SubscriptionStatus.INACTIVE;
        this.emit('subscriptionUpdated', subscription);
        for (const id of subscription.entitlementIds) {
          const entitlement = this.entitlement(id);
          if (entitlement && entitlement.endsAt === null) {
            entitlement.endsAt = subscription.currentPeriodEnd;
            this.emit('entitlementUpdated', entitlement);
          }
        }
        this.#log.line('premium', `subscription ${subscription.id} ended`);
      }
    }
  }

  #renew(subscription: SubscriptionRecord, now: number): void {
    const period = this.#periodOf(subscription);
    // Arithmetic, not a step per period: the gap may be years of one-minute periods.
    const missed = Math.floor((now - subscription.currentPeriodEnd) / period) + 1;
    let end = subscription.currentPeriodEnd + missed * period;
    // Rounding at the edge of a period must not leave it ended.
    if (end <= now) end += period;
    subscription.currentPeriodStart = end - period;
    subscription.currentPeriodEnd = end;
    this.#log.line(
      'premium',
      `subscription ${subscription.id} renewed${missed > 1 ? ` (${missed} periods)` : ''} until ${new Date(end).toISOString()}`,
    );
    this.emit('subscriptionUpdated', subscription);
  }

  /**
   * The length of the subscription's next period: its renewal SKU's, or the default. A period that is not a
   * positive number of ms (a state changed under the store's feet) would never get past `now`.
   */
  #periodOf(subscription: SubscriptionRecord): number {
    const period = this.sku(subscription.renewalSkuIds[0] ?? '')?.periodMs;
    return typeof period === 'number' && Number.isSafeInteger(period) && period > 0 && period <= MAX_PERIOD_MS
      ? period
      : DEFAULT_PERIOD_MS;
  }

  /** The user's entitlements to a SKU that are live now (not deleted, consumed or ended). */
  #live(userId: string, skuId: string): EntitlementRecord[] {
    const now = this.#store.now();
    return this.entitlements().filter(
      (e) =>
        e.userId === userId &&
        e.skuId === skuId &&
        !e.deleted &&
        !e.consumed &&
        (e.endsAt === null || e.endsAt > now),
    );
  }

  #entitle(input: Omit<EntitlementRecord, 'id' | 'endsAt' | 'consumed' | 'deleted'>): EntitlementRecord {
    const entitlement: EntitlementRecord = {
      ...input,
      id: this.#store.nextId(),
      endsAt: null,
      consumed: false,
      deleted: false,
    };
    this.#store.state.entitlements[entitlement.id] = entitlement;
    return entitlement;
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#log.line(
      'premium',
      `a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
