import { z } from 'zod';

import { defineHook, httpUrlArg, noArgs, userArg, userIdOf, type AdminHook } from './hook.js';

const AREA = 'Gateway, time and events';

/** An event name as the gateway and the desktop client carry them. */
const eventName = z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'must be an event name in UPPER_SNAKE_CASE');

/** A user whose sessions a hook is about; all users' when absent. */
const someUser = userArg.exactOptional().describe('username or id; everyone when absent');

/** Gateway sessions, the clock, webhook events and request counts. */
export const GATEWAY_HOOKS: readonly AdminHook[] = [
  defineHook({
    name: 'dispatch',
    area: AREA,
    description: 'Dispatches an event to every gateway session of the user (kept for a resume).',
    args: z.strictObject({ userId: userArg, event: eventName, data: z.unknown().describe('any JSON') }),
    run: (emulator, { userId, event, data }) => {
      emulator.dispatch(userIdOf(emulator, userId), event, data);
    },
  }),
  defineHook({
    name: 'gatewaySessions',
    area: AREA,
    description: 'The gateway sessions, connected or waiting for a resume.',
    args: z.strictObject({ userId: someUser }),
    run: (emulator, { userId }) =>
      emulator.gatewaySessions(userId === undefined ? undefined : userIdOf(emulator, userId)),
  }),
  defineHook({
    name: 'dropGatewayConnections',
    area: AREA,
    description: 'Cuts gateway sockets without a close frame (a network drop); answers how many.',
    args: z.strictObject({ userId: someUser }),
    run: (emulator, { userId }) =>
      emulator.dropGatewayConnections(userId === undefined ? undefined : userIdOf(emulator, userId)),
  }),
  defineHook({
    name: 'closeGatewayConnections',
    area: AREA,
    description: 'Closes gateway sockets with a close code (1000, 1001, 3000-4999); answers how many.',
    args: z.strictObject({
      code: z.int().min(1000).max(4999),
      reason: z.string().max(123).exactOptional(),
      userId: someUser,
    }),
    run: (emulator, { code, reason, userId }) =>
      emulator.closeGatewayConnections(
        code,
        reason,
        userId === undefined ? undefined : userIdOf(emulator, userId),
      ),
  }),
  defineHook({
    name: 'sendGatewayReconnect',
    area: AREA,
    description: 'Sends op 7 Reconnect; answers how many sockets got it.',
    args: z.strictObject({ userId: someUser }),
    run: (emulator, { userId }) =>
      emulator.sendGatewayReconnect(userId === undefined ? undefined : userIdOf(emulator, userId)),
  }),
  defineHook({
    name: 'advanceTime',
    area: AREA,
    description: "Moves the emulator's clock forward (token, code, invite and lobby expiry follow it).",
    args: z.strictObject({
      ms: z
        .number()
        .nonnegative()
        .max(100 * 365 * 86_400_000),
    }),
    run: (emulator, { ms }) => {
      emulator.advanceTime(ms);
    },
  }),
  defineHook({
    name: 'requestCount',
    area: AREA,
    description:
      'How many requests matched a route, e.g. {"method": "POST", "routePattern": "/oauth2/token"}.',
    args: z.strictObject({ method: z.string().min(1), routePattern: z.string().startsWith('/') }),
    run: (emulator, { method, routePattern }) => emulator.requestCount(method, routePattern),
  }),
  defineHook({
    name: 'setWebhookEventsUrl',
    area: AREA,
    description: 'Sets the webhook events URL (null: events are not sent).',
    args: z.strictObject({ url: httpUrlArg.nullable() }),
    run: (emulator, { url }) => {
      emulator.setWebhookEventsUrl(url);
    },
  }),
  defineHook({
    name: 'webhookDeliveries',
    area: AREA,
    description: 'The latest webhook event deliveries (at most 100) with their attempts and outcome.',
    args: noArgs,
    run: (emulator) => emulator.webhookDeliveries(),
  }),
];
