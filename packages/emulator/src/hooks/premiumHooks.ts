import { z } from 'zod';

import { defineHook, idArg, noArgs, userArg, type AdminHook } from './hook.js';

const AREA = 'Store';

/** SKUs, purchases and subscriptions, as the developer portal and a paying user make them. */
export const PREMIUM_HOOKS: readonly AdminHook[] = [
  defineHook({
    name: 'createSku',
    area: AREA,
    description: 'Creates a SKU as the developer portal does (a subscription renews every periodMs).',
    args: z.strictObject({
      name: z.string().min(1),
      type: z.enum(['durable', 'consumable', 'subscription']),
      periodMs: z.int().positive().exactOptional().describe('a subscription period; default 30 days'),
      price: z
        .strictObject({
          amount: z.int().nonnegative().describe("in the currency's smallest unit"),
          currency: z.string().regex(/^[a-z]{3}$/, 'must be an ISO 4217 code in lower case'),
        })
        .exactOptional(),
    }),
    run: (emulator, args) => emulator.createSku(args),
  }),
  defineHook({
    name: 'skus',
    area: AREA,
    description: "The application's SKUs, oldest first.",
    args: noArgs,
    run: (emulator) => emulator.skus(),
  }),
  defineHook({
    name: 'purchaseSku',
    area: AREA,
    description: 'A user buys a SKU, with no payment: an entitlement (and a subscription).',
    args: z.strictObject({ user: userArg, skuId: idArg }),
    run: (emulator, { user, skuId }) => emulator.purchaseSku(user, skuId),
  }),
  defineHook({
    name: 'cancelSubscription',
    area: AREA,
    description: 'The user cancels a subscription: it ends at the end of its period.',
    args: z.strictObject({ subscriptionId: idArg }),
    run: (emulator, { subscriptionId }) => {
      emulator.cancelSubscription(subscriptionId);
    },
  }),
  defineHook({
    name: 'enrollInQuest',
    area: AREA,
    description: "A user enrolls in one of the app's Quests: the QUEST_USER_ENROLLMENT webhook event.",
    args: z.strictObject({ user: userArg, questId: idArg }),
    run: (emulator, args) => emulator.enrollInQuest(args),
  }),
  defineHook({
    name: 'entitlements',
    area: AREA,
    description: 'Every entitlement, oldest first.',
    args: noArgs,
    run: (emulator) => emulator.entitlements(),
  }),
  defineHook({
    name: 'subscriptions',
    area: AREA,
    description: 'Every subscription, oldest first.',
    args: noArgs,
    run: (emulator) => emulator.subscriptions(),
  }),
];
