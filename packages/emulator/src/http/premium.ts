import type { EmulatorContext } from '../context.js';
import { compareIds } from '../snowflake.js';
import { ConsumeRefusal } from '../premium/Premium.js';
import { wireEntitlement, wireSku, wireSubscription } from '../premium/premiumWire.js';
import type { EntitlementRecord } from '../store/types.js';
import { ApiError } from '../platform/errors.js';
import { requireOwnApplication } from './botAccess.js';
import {
  FieldErrors,
  isRecord,
  optionalInteger,
  optionalString,
  queryInteger,
} from '../bodies/fieldErrors.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/**
 * The monetization API with the bot token: List SKUs; List / Get Entitlement (filters `user_id`, `sku_ids`,
 * `guild_id`, `before` / `after`, `limit` 1–100, `exclude_ended`, `exclude_deleted`); Consume Entitlement
 * (consumables only); Create and Delete Test Entitlement; List / Get SKU Subscriptions (`user_id` required).
 */
export function premiumRoutes(ctx: EmulatorContext): Route[] {
  const { premium, store } = ctx;
  const applicationId = store.state.application.id;

  const app = (req: RouteRequest): void => {
    requireOwnApplication(ctx, req);
  };
  const entitlementOf = (req: RouteRequest): EntitlementRecord => {
    app(req);
    const found = premium.entitlement(req.params.entitlement_id ?? '');
    if (!found) throw new ApiError(404, 10029, 'Unknown Entitlement');
    return found;
  };
  const wire = (e: EntitlementRecord): Record<string, unknown> => wireEntitlement(e, applicationId);

  return [
    apiRoute('GET', '/applications/:application_id/skus', (req) => {
      app(req);
      return jsonReply(
        200,
        premium.skus().map((s) => wireSku(s, applicationId)),
      );
    }),
    apiRoute('GET', '/applications/:application_id/entitlements', (req) => {
      app(req);
      const q = req.query();
      const limit = queryInteger(q, 'limit', 1, 100, 100);
      const skuIds = q.get('sku_ids')?.split(',').filter(Boolean);
      const userId = q.get('user_id');
      const guildId = q.get('guild_id');
      const before = q.get('before');
      const after = q.get('after');
      const now = store.now();
      const list = premium
        .entitlements()
        .filter((e) => userId === undefined || e.userId === userId)
        .filter((e) => guildId === undefined || e.guildId === guildId)
        .filter((e) => !skuIds || skuIds.includes(e.skuId))
        .filter((e) => q.get('exclude_ended') !== 'true' || e.endsAt === null || e.endsAt > now)
        .filter((e) => q.get('exclude_deleted') === 'false' || !e.deleted)
        .filter((e) => before === undefined || compareIds(e.id, before) < 0)
        .filter((e) => after === undefined || compareIds(e.id, after) > 0);
      const page = after !== undefined ? list.slice(0, limit) : list.slice(-limit);
      return jsonReply(200, page.map(wire));
    }),
    apiRoute('GET', '/applications/:application_id/entitlements/:entitlement_id', (req) =>
      jsonReply(200, wire(entitlementOf(req))),
    ),
    apiRoute('POST', '/applications/:application_id/entitlements/:entitlement_id/consume', (req) => {
      const entitlement = entitlementOf(req);
      try {
        premium.consume(entitlement);
      } catch (error) {
        if (!(error instanceof ConsumeRefusal)) throw error;
        ctx.log.line('premium', `consume of entitlement ${entitlement.id} refused: ${error.message}`);
        throw new ApiError(400, 50035, 'Invalid Form Body', {
          errors: {
            entitlement_id: { _errors: [{ code: 'ENTITLEMENT_NOT_CONSUMABLE', message: error.message }] },
          },
        });
      }
      return noContentReply();
    }),
    apiRoute('POST', '/applications/:application_id/entitlements', async (req) => {
      app(req);
      const body = await req.json();
      const errors = new FieldErrors();
      const b = isRecord(body) ? body : {};
      const skuId = optionalString(errors, ['sku_id'], b.sku_id, 20, 1);
      const ownerId = optionalString(errors, ['owner_id'], b.owner_id, 20, 1);
      const ownerType = optionalInteger(errors, ['owner_type'], b.owner_type, 1, 2);
      for (const [key, value] of [
        ['sku_id', skuId],
        ['owner_id', ownerId],
        ['owner_type', ownerType],
      ] as const) {
        if (value === undefined && b[key] === undefined)
          errors.add([key], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      if (skuId !== undefined && !premium.sku(skuId))
        errors.add(['sku_id'], 'UNKNOWN_SKU', `No SKU ${skuId}`);
      if (ownerType === 2 && ownerId !== undefined && !store.user(ownerId))
        errors.add(['owner_id'], 'UNKNOWN_USER', `No user ${ownerId}`);
      if (ownerType === 1 && ownerId !== undefined && !ctx.guilds.guild(ownerId))
        errors.add(['owner_id'], 'UNKNOWN_GUILD', `No guild ${ownerId}`);
      errors.finish();
      const entitlement = premium.createTestEntitlement(
        skuId ?? '',
        ownerType === 1 ? { guildId: ownerId ?? '' } : { userId: ownerId ?? '' },
      );
      return jsonReply(200, wire(entitlement));
    }),
    apiRoute('DELETE', '/applications/:application_id/entitlements/:entitlement_id', (req) => {
      const entitlement = entitlementOf(req);
      try {
        premium.deleteTestEntitlement(entitlement);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        throw new ApiError(400, 50035, 'Invalid Form Body', {
          errors: { entitlement_id: { _errors: [{ code: 'ENTITLEMENT_NOT_TEST', message: error.message }] } },
        });
      }
      return noContentReply();
    }),
    apiRoute('GET', '/skus/:sku_id/subscriptions', (req) => {
      requireBot(ctx, req);
      const sku = premium.sku(req.params.sku_id ?? '');
      if (!sku) throw new ApiError(404, 10027, 'Unknown SKU');
      const q = req.query();
      const userId = q.get('user_id');
      if (userId === undefined) {
        throw new ApiError(400, 50035, 'Invalid Form Body', {
          errors: {
            user_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'Bots must give user_id' }] },
          },
        });
      }
      const limit = queryInteger(q, 'limit', 1, 100, 50);
      const list = premium.subscriptions().filter((s) => s.userId === userId && s.skuIds.includes(sku.id));
      return jsonReply(200, list.slice(-limit).map(wireSubscription));
    }),
    apiRoute('GET', '/skus/:sku_id/subscriptions/:subscription_id', (req) => {
      requireBot(ctx, req);
      const subscription = premium.subscription(req.params.subscription_id ?? '');
      if (!subscription?.skuIds.includes(req.params.sku_id ?? ''))
        throw new ApiError(404, 0, 'Unknown Subscription');
      return jsonReply(200, wireSubscription(subscription));
    }),
  ];
}
