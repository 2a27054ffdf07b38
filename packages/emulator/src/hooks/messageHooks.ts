import { z } from 'zod';

import { defineHook, userArg, type AdminHook } from './hook.js';

const AREA = 'Messages';

/**
 * The non-text content a chat-app user's message may carry (`ChatMessageExtras`): names stand for the pieces.
 */
export const extrasArgs = {
  attachments: z.array(z.string().min(1).max(100)).min(1).max(10).exactOptional(),
  embeds: z.array(z.string().min(1).max(256)).min(1).max(10).exactOptional(),
  poll: z.string().min(1).max(300).exactOptional(),
  stickers: z.array(z.string().min(2).max(30)).min(1).max(3).exactOptional(),
  voiceMessage: z.boolean().exactOptional(),
  thread: z.string().min(1).max(100).exactOptional(),
};

/** Messages written in the Discord client rather than in a game. */
export const MESSAGE_HOOKS: readonly AdminHook[] = [
  defineHook({
    name: 'sendDirectMessageFromDiscord',
    area: AREA,
    description:
      'A full account sends a direct message from the Discord client, optionally with attachments, embeds, a poll, stickers, a voice message or a thread; answers its id.',
    args: z.strictObject({ from: userArg, to: userArg, content: z.string().max(2000), ...extrasArgs }),
    run: (emulator, { from, to, content, ...extras }) =>
      emulator.sendDirectMessageFromDiscord(from, to, content, extras),
  }),
];
