import { z } from 'zod';

import { defineHook, idArg, noArgs, userArg, userIdOf, type AdminHook } from './hook.js';

const AREA = 'Voice';

const percent = z.number().min(0).max(100);
const ms = z.number().min(0).max(10_000);

/** The voice server's hooks, `emulator.voice.<name>` in code. */
export const VOICE_HOOKS: readonly AdminHook[] = [
  defineHook({
    name: 'voice.calls',
    area: AREA,
    description: 'Every lobby call with its participants, SSRCs, DAVE epoch and counters.',
    args: noArgs,
    run: (emulator) => emulator.voice.calls(),
  }),
  defineHook({
    name: 'voice.kick',
    area: AREA,
    description: 'Removes a participant from a call, as a moderator would; answers whether they were in it.',
    args: z.strictObject({ lobbyId: idArg, userId: userArg }),
    run: (emulator, { lobbyId, userId }) => emulator.voice.kick(lobbyId, userIdOf(emulator, userId)),
  }),
  defineHook({
    name: 'voice.dropConnections',
    area: AREA,
    description: 'Destroys voice sockets without a close frame (resumable); answers how many.',
    args: z.strictObject({ userId: userArg.exactOptional(), lobbyId: idArg.exactOptional() }),
    run: (emulator, { userId, lobbyId }) =>
      emulator.voice.dropConnections(userId === undefined ? undefined : userIdOf(emulator, userId), lobbyId),
  }),
  defineHook({
    name: 'voice.setImpairment',
    area: AREA,
    description: 'Impairs every forwarded packet from now on (null: none).',
    args: z.strictObject({
      impairment: z
        .strictObject({
          lossPercent: percent.exactOptional(),
          delayMs: ms.exactOptional(),
          jitterMs: ms.exactOptional(),
          reorderPercent: percent.exactOptional(),
          seed: z.int().exactOptional(),
        })
        .nullable(),
    }),
    run: (emulator, { impairment }) => {
      emulator.voice.setImpairment(impairment);
    },
  }),
  defineHook({
    name: 'voice.impairmentStats',
    area: AREA,
    description: "The impairment's counters, or null when none is set.",
    args: noArgs,
    run: (emulator) => emulator.voice.impairmentStats(),
  }),
  defineHook({
    name: 'voice.blockForwarding',
    area: AREA,
    description: 'Blocks (or unblocks) what the forwarding unit sends a user; answers how many sessions.',
    args: z.strictObject({ userId: userArg, blocked: z.boolean(), lobbyId: idArg.exactOptional() }),
    run: (emulator, { userId, blocked, lobbyId }) =>
      emulator.voice.blockForwarding(userIdOf(emulator, userId), blocked, lobbyId),
  }),
  defineHook({
    name: 'voice.udpCounters',
    area: AREA,
    description: 'Counters of UDP datagrams that belong to no call.',
    args: noArgs,
    run: (emulator) => emulator.voice.udpCounters(),
  }),
];
