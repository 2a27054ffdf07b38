import type { GameBackend, WebhookEvent } from 'sdkpp/backend';

import { say } from './print.js';

/**
 * The game's premium perks, kept by the platform's word: ENTITLEMENT_CREATE (the one monetization webhook
 * event) grants the perk at once; whether it still holds is the entitlement's `ends_at`, which the server
 * reads back (`listEntitlements` with `excludeEnded`) when it checks, for example when the player logs in.
 */
export class Perks {
  readonly #granted = new Map<string, Set<string>>();
  readonly #names: ReadonlyMap<string, string>;

  /** `names`: SKU id → the perk it gives. */
  constructor(names: ReadonlyMap<string, string>) {
    this.#names = names;
  }

  /** The webhook events handler's callback. */
  onEvent(event: WebhookEvent): void {
    if (event.type !== 'ENTITLEMENT_CREATE') return;
    const userId = event.data.user_id;
    const perk = this.#names.get(event.data.sku_id);
    if (userId === undefined || perk === undefined) return;
    const mine = this.#granted.get(userId) ?? new Set<string>();
    mine.add(perk);
    this.#granted.set(userId, mine);
    say(
      'backend',
      `webhook ENTITLEMENT_CREATE: granted ${perk} (ends_at ${event.data.ends_at ?? 'null: ongoing'})`,
    );
  }

  /** Whether the player holds the perk now, by what the server granted. */
  has(userId: string, perk: string): boolean {
    return this.#granted.get(userId)?.has(perk) ?? false;
  }

  /** Checks the player's entitlements with the platform and takes back perks whose entitlement ended. */
  async recheck(backend: GameBackend, userId: string): Promise<void> {
    const live = await backend.listEntitlements({ userId, excludeEnded: true });
    const liveSkus = new Set(live.map((e) => e.skuId));
    for (const [skuId, perk] of this.#names) {
      if (this.has(userId, perk) && !liveSkus.has(skuId)) {
        this.#granted.get(userId)?.delete(perk);
        say('backend', `check at login: the entitlement to ${perk} has ended; perk taken back`);
      }
    }
  }
}
