import { z } from 'zod';

import { defineHook, noArgs, type AdminHook } from './hook.js';

const AREA = 'The desktop client';

/** The emulated desktop client (RPC over IPC). */
export const RPC_HOOKS: readonly AdminHook[] = [
  defineHook({
    name: 'rpcDispatch',
    area: AREA,
    description: 'Sends a desktop-client event (ACTIVITY_JOIN, …) to subscribed games; answers how many.',
    args: z.strictObject({
      event: z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'must be an event name in UPPER_SNAKE_CASE'),
      data: z.unknown().describe('any JSON'),
    }),
    run: (emulator, { event, data }) => emulator.rpcDispatch(event, data),
  }),
  defineHook({
    name: 'dropRpcConnections',
    area: AREA,
    description: "Cuts every game's connection to the desktop client; answers how many.",
    args: noArgs,
    run: (emulator) => emulator.dropRpcConnections(),
  }),
  defineHook({
    name: 'rpcConnectionCount',
    area: AREA,
    description: 'Game connections to the desktop client that completed the handshake.',
    args: noArgs,
    run: (emulator) => emulator.rpcConnectionCount(),
  }),
  defineHook({
    name: 'rpcActivity',
    area: AREA,
    description: 'The activity a game set through the desktop client, or null.',
    args: noArgs,
    run: (emulator) => emulator.rpcActivity(),
  }),
  defineHook({
    name: 'rpcCommands',
    area: AREA,
    description: 'The invite and chat commands games sent to the desktop client (the last 256).',
    args: noArgs,
    run: (emulator) => emulator.rpcCommands(),
  }),
  defineHook({
    name: 'rpcConsent',
    area: AREA,
    description: 'How the player answers AUTHORIZE from now on: true, false, or null (follow autoConsent).',
    args: z.strictObject({ answer: z.boolean().nullable() }),
    run: (emulator, { answer }) => {
      emulator.rpcConsent(answer);
    },
  }),
  defineHook({
    name: 'rpcDeviceScreen',
    area: AREA,
    description:
      "The code the desktop client's device authorization screen shows (OpenAuthorizeDeviceScreen), or null.",
    args: noArgs,
    run: (emulator) => emulator.rpcDeviceScreen(),
  }),
  defineHook({
    name: 'closeRpcDeviceScreen',
    area: AREA,
    description: 'Closes the device authorization screen as the player would; answers whether one was shown.',
    args: noArgs,
    run: (emulator) => emulator.closeRpcDeviceScreen(),
  }),
  defineHook({
    name: 'localClientNotifications',
    area: AREA,
    description:
      "The desktop client's direct-message notifications (the last 256); shown false when a game showed chat.",
    args: noArgs,
    run: (emulator) => emulator.localClientNotifications(),
  }),
  defineHook({
    name: 'localClientOpened',
    area: AREA,
    description: 'Messages and settings the desktop client opened for games (the last 256).',
    args: noArgs,
    run: (emulator) => emulator.localClientOpened(),
  }),
  defineHook({
    name: 'launchCommands',
    area: AREA,
    description: 'The launch commands games registered on this machine, by application id.',
    args: noArgs,
    run: (emulator) => emulator.launchCommands(),
  }),
];
