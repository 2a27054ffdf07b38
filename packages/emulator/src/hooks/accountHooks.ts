import { z } from 'zod';

import { defineHook, noArgs, userArg, userIdOf, type AdminHook } from './hook.js';

const AREA = 'Users and friends';

/** Accounts and the social graph. */
export const ACCOUNT_HOOKS: readonly AdminHook[] = [
  defineHook({
    name: 'createUser',
    area: AREA,
    description: 'Adds a full user; the username defaults to the next unused seed name.',
    args: z.strictObject({
      username: z.string().min(1).exactOptional(),
      globalName: z.string().min(1).exactOptional(),
    }),
    run: (emulator, args) => emulator.createUser(args),
  }),
  defineHook({
    name: 'updateUser',
    area: AREA,
    description:
      "Changes a user's names, avatar hash, guild tag or premium type (USER_UPDATE, PRESENCE_UPDATE).",
    args: z.strictObject({
      id: userArg,
      username: z.string().min(1).exactOptional(),
      globalName: z.string().min(1).exactOptional(),
      avatar: z.string().nullable().exactOptional(),
      primaryGuildTag: z.string().nullable().exactOptional(),
      premiumType: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).exactOptional(),
    }),
    run: (emulator, { id, ...patch }) => {
      emulator.updateUser(id, patch);
    },
  }),
  defineHook({
    name: 'setUserConnections',
    area: AREA,
    description:
      "Replaces a user's connections (accounts of other services) that GET /users/@me/connections answers.",
    args: z.strictObject({
      user: userArg,
      connections: z
        .array(
          z.strictObject({
            type: z.string().regex(/^[a-z0-9_-]{1,32}$/, 'must be a service name such as github or steam'),
            id: z.string().min(1).max(256),
            name: z.string().min(1).max(256),
            verified: z.boolean().exactOptional(),
            visibility: z.union([z.literal(0), z.literal(1)]).exactOptional(),
            friendSync: z.boolean().exactOptional(),
            showActivity: z.boolean().exactOptional(),
            twoWayLink: z.boolean().exactOptional(),
            revoked: z.boolean().exactOptional(),
          }),
        )
        .max(50),
    }),
    run: (emulator, { user, connections }) => {
      emulator.setUserConnections(user, connections);
    },
  }),
  defineHook({
    name: 'banUser',
    area: AREA,
    description: 'Bans a user: tokens deleted, gateway sessions closed with 4004.',
    args: z.strictObject({ id: userArg }),
    run: (emulator, { id }) => {
      emulator.banUser(userIdOf(emulator, id));
    },
  }),
  defineHook({
    name: 'revokeUserTokens',
    area: AREA,
    description: 'Revokes every token of the user for this application, as the revoke endpoint does.',
    args: z.strictObject({ id: userArg }),
    run: (emulator, { id }) => {
      emulator.revokeUserTokens(userIdOf(emulator, id));
    },
  }),
  defineHook({
    name: 'deviceAuthorizations',
    area: AREA,
    description:
      'The device sign-ins (RFC 8628) waiting or answered but not yet redeemed; device codes left out.',
    args: noArgs,
    run: (emulator) => emulator.deviceAuthorizations(),
  }),
  defineHook({
    name: 'befriend',
    area: AREA,
    description: 'Makes two users friends at once (in the game graph with "game": true).',
    args: z.strictObject({ userA: userArg, userB: userArg, game: z.boolean().exactOptional() }),
    run: (emulator, { userA, userB, ...options }) => {
      emulator.befriend(userA, userB, options);
    },
  }),
  defineHook({
    name: 'presenceOf',
    area: AREA,
    description: "A user's presence as their friends see it.",
    args: z.strictObject({ userId: userArg }),
    run: (emulator, { userId }) => emulator.presenceOf(userId),
  }),
  defineHook({
    name: 'relationshipsOf',
    area: AREA,
    description: "A user's relationships in the platform's graph and the game's.",
    args: z.strictObject({ userId: userArg }),
    run: (emulator, { userId }) => emulator.relationshipsOf(userId),
  }),
  defineHook({
    name: 'users',
    area: AREA,
    description: 'The full (non-provisional) users, in creation order.',
    args: noArgs,
    run: (emulator) => emulator.users,
  }),
];
