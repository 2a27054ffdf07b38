import { z } from 'zod';

import type { EmulatorInvocation } from '../types.js';
import { defineHook, httpUrlArg, idArg, noArgs, userArg, type AdminHook } from './hook.js';

const AREA = 'Interactions';

/**
 * The wait for the app's answer, as `response()` does it. Over HTTP a wait is bounded tighter than the
 * interaction token's 15 minutes: a minute.
 */
const awaiting = {
  awaitResponse: z
    .boolean()
    .exactOptional()
    .describe("wait for the app's response and answer what it produced (the message, the modal)"),
  timeoutMs: z.int().min(1).max(60_000).exactOptional().describe('the longest wait (default 4000)'),
};

/** The invocation, or what its response produced when the caller asked to wait for it. */
function answer(
  invocation: EmulatorInvocation,
  wait: { awaitResponse: boolean | undefined; timeoutMs: number | undefined },
): unknown {
  if (wait.awaitResponse !== true) return invocation;
  return invocation.response(wait.timeoutMs === undefined ? {} : { timeoutMs: wait.timeoutMs });
}

/** Commands and interactions, played from the user's side. */
export const INTERACTION_HOOKS: readonly AdminHook[] = [
  defineHook({
    name: 'invokeCommand',
    area: AREA,
    description:
      'A user invokes a command in a guild channel, the bot DM, a DM or a group DM; "awaitResponse": true answers the response.',
    args: z.strictObject({
      user: userArg,
      command: z.string().min(1).describe('name or id'),
      type: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).exactOptional(),
      channel: idArg.exactOptional(),
      dm: userArg.exactOptional().describe('the other user of a DM (context 2; installation "user")'),
      groupDm: z
        .array(userArg)
        .min(2)
        .max(9)
        .exactOptional()
        .describe('the other users of a group DM (context 2; installation "user")'),
      options: z.record(z.string(), z.unknown()).exactOptional(),
      target: idArg.exactOptional(),
      installation: z.enum(['guild', 'user']).exactOptional(),
      ...awaiting,
    }),
    run: async (emulator, { awaitResponse, timeoutMs, ...options }) =>
      answer(await emulator.invokeCommand(options), { awaitResponse, timeoutMs }),
  }),
  defineHook({
    name: 'clickComponent',
    area: AREA,
    description: 'A user clicks a button (or picks values in a select) of a message.',
    args: z.strictObject({
      user: userArg,
      message: idArg,
      customId: z.string().min(1),
      values: z.array(z.string()).exactOptional(),
      ...awaiting,
    }),
    run: async (emulator, { awaitResponse, timeoutMs, ...options }) =>
      answer(await emulator.clickComponent(options), { awaitResponse, timeoutMs }),
  }),
  defineHook({
    name: 'submitModal',
    area: AREA,
    description:
      'A user submits the modal an interaction opened: values (and File Upload files) by custom id.',
    args: z.strictObject({
      user: userArg,
      interaction: idArg,
      values: z.record(z.string(), z.union([z.string(), z.array(z.string()), z.boolean()])),
      files: z
        .record(
          z.string(),
          z
            .array(
              z.strictObject({
                filename: z.string().min(1).max(1024),
                contentType: z.string().min(1).max(255).exactOptional(),
                data: z.base64().describe('the bytes, base64'),
              }),
            )
            .max(10),
        )
        .exactOptional()
        .describe("File Upload components' files by custom id"),
      ...awaiting,
    }),
    run: async (emulator, { awaitResponse, timeoutMs, ...options }) =>
      answer(await emulator.submitModal(options), { awaitResponse, timeoutMs }),
  }),
  defineHook({
    name: 'interactions',
    area: AREA,
    description: 'The latest interactions (at most 500) with their delivery and response.',
    args: noArgs,
    run: (emulator) => emulator.interactions(),
  }),
  defineHook({
    name: 'commands',
    area: AREA,
    description: "The application's commands, global ones first.",
    args: noArgs,
    run: (emulator) => emulator.commands(),
  }),
  defineHook({
    name: 'setInteractionsEndpointUrl',
    area: AREA,
    description: 'Sets the interactions endpoint URL after checking it as the portal does (null: gateway).',
    args: z.strictObject({ url: httpUrlArg.nullable() }),
    run: async (emulator, { url }) => {
      await emulator.setInteractionsEndpointUrl(url);
    },
  }),
];
