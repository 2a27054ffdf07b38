import { z } from 'zod';

import type { Emulator } from '../types.js';

/**
 * One admin hook of the {@link Emulator} that can be called over JSON (`sdkpp emulator call`, the dashboard's
 * `POST /dashboard/api/call/<name>`): its arguments are one JSON object, checked against `args` before the
 * call, and its answer is JSON.
 */
export interface AdminHook {
  /** The name to call it by: the method's (`createSku`), or `voice.<method>` for the voice server's. */
  readonly name: string;
  /** The heading `--list` files it under (Users, Guilds, Interactions, …). */
  readonly area: string;
  /** What it does, in one line. */
  readonly description: string;
  /**
   * The arguments: the method's positional parameters as fields named as in its TypeScript signature, and an
   * options object's fields merged in (`befriend(userA, userB, { game })` takes `{ userA, userB, game }`).
   */
  readonly args: z.ZodType;
  /** Calls the hook with arguments `args` accepted; resolves with its answer (undefined for none). */
  run(emulator: Emulator, args: unknown): unknown;
}

/** What {@link checkHookArgs} found: the checked arguments, or what is wrong with them. */
export type HookArgsCheck = { ok: true; args: unknown } | { ok: false; problems: string[] };

/** Makes an {@link AdminHook} whose `run` gets the arguments as `args` parses them. */
export function defineHook<S extends z.ZodType>(spec: {
  name: string;
  area: string;
  description: string;
  args: S;
  run: (emulator: Emulator, args: z.output<S>) => unknown;
}): AdminHook {
  return {
    name: spec.name,
    area: spec.area,
    description: spec.description,
    args: spec.args,
    // Only ever called with what spec.args accepted (see checkHookArgs).
    run: (emulator, args) => spec.run(emulator, args as z.output<S>),
  };
}

/** Checks a hook's arguments; each problem names the field it is about (`price.amount: …`). */
export function checkHookArgs(hook: AdminHook, input: unknown): HookArgsCheck {
  const parsed = hook.args.safeParse(input);
  if (parsed.success) return { ok: true, args: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => {
      const path = issue.path.map(String).join('.');
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    }),
  };
}

/**
 * A hook's answer as JSON: bigints (a call's DAVE epoch) as decimal strings, functions and undefined fields
 * dropped, and no answer as null.
 */
export function hookAnswerJson(value: unknown): unknown {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

/** A user, by username or id (every hook that names a user takes either). */
export const userArg = z.string().min(1).describe('username or id');

/** A snowflake id. */
export const idArg = z.string().regex(/^[0-9]{1,20}$/, 'must be an id (a snowflake of digits)');

/** A permission bitfield as a decimal string (JSON numbers cannot hold 53 bits and more). */
export const permissionsArg = z
  .string()
  .regex(/^[0-9]{1,20}$/, 'must be a permission bitfield as a decimal string')
  .describe('decimal bitfield');

/** An http: or https: URL. */
export const httpUrlArg = z.string().refine((value) => {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}, 'must be an http: or https: URL');

/** No arguments: `{}` (or nothing on the command line). */
export const noArgs = z.strictObject({});

/**
 * The id of a user named by username or id: the hooks whose methods take an id (banUser, dispatch, …) accept
 * a username too, as the others do.
 */
export function userIdOf(emulator: Emulator, nameOrId: string): string {
  return emulator.users.find((u) => u.username === nameOrId)?.id ?? nameOrId;
}
