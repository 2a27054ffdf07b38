import { z } from 'zod';

import { defineHook, httpUrlArg, idArg, noArgs, userArg, type AdminHook } from './hook.js';

const AREA = 'Activities';

/** The Activity: launches, instances and the proxy's URL mappings. */
export const ACTIVITY_HOOKS: readonly AdminHook[] = [
  defineHook({
    name: 'launchActivity',
    area: AREA,
    description:
      "Launches the Activity for a player (in a channel, or privately); answers the player's link.",
    args: z.strictObject({
      user: userArg,
      channel: idArg.exactOptional().describe('a guild channel the player can see; private when absent'),
      link: httpUrlArg
        .exactOptional()
        .describe("an Activity link a player shared (activityShares' url): the game gets its custom_id"),
    }),
    run: (emulator, args) => emulator.launchActivity(args),
  }),
  defineHook({
    name: 'activityInstances',
    area: AREA,
    description: 'The live Activity instances with their players and console lines.',
    args: noArgs,
    run: (emulator) => emulator.activityInstances(),
  }),
  defineHook({
    name: 'setActivityLayout',
    area: AREA,
    description:
      "Changes the layout (focused, pip, grid) or orientation (portrait, landscape) of an instance's frames.",
    args: z.strictObject({
      instance: z.string().min(1).max(200),
      user: userArg.exactOptional(),
      layoutMode: z.enum(['focused', 'pip', 'grid']).exactOptional(),
      orientation: z.enum(['portrait', 'landscape']).exactOptional(),
    }),
    run: (emulator, args) => ({ sent: emulator.setActivityLayout(args) }),
  }),
  defineHook({
    name: 'activityShares',
    area: AREA,
    description: 'The Activity links players shared from the game (shareLink), oldest first.',
    args: noArgs,
    run: (emulator) => emulator.activityShares(),
  }),
  defineHook({
    name: 'setActivityUrlMappings',
    area: AREA,
    description:
      'Replaces the Activity\'s URL mappings, e.g. [{"prefix": "/", "target": "http://127.0.0.1:5173"}].',
    args: z.strictObject({
      mappings: z.array(z.strictObject({ prefix: z.string().startsWith('/'), target: httpUrlArg })),
    }),
    run: (emulator, { mappings }) => {
      emulator.setActivityUrlMappings(mappings);
    },
  }),
  defineHook({
    name: 'activityUrlMappings',
    area: AREA,
    description: "The Activity's URL mappings, as checked.",
    args: noArgs,
    run: (emulator) => emulator.activityUrlMappings(),
  }),
];
