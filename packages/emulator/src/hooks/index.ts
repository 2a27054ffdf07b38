/**
 * The emulator's admin hooks that can be called over JSON, for `sdkpp emulator call` and the dashboard's
 * `POST /dashboard/api/call/<name>`. Left out on purpose: `exportState` (it holds every token; `--state`
 * saves it), `close` (Ctrl+C stops the command, which saves the state) and `browserAs` (it answers a
 * function, not data).
 */
import { ACCOUNT_HOOKS } from './accountHooks.js';
import { ACTIVITY_HOOKS } from './activityHooks.js';
import { GATEWAY_HOOKS } from './gatewayHooks.js';
import { GUILD_HOOKS } from './guildHooks.js';
import type { AdminHook } from './hook.js';
import { INTERACTION_HOOKS } from './interactionHooks.js';
import { MESSAGE_HOOKS } from './messageHooks.js';
import { PREMIUM_HOOKS } from './premiumHooks.js';
import { RPC_HOOKS } from './rpcHooks.js';
import { VOICE_HOOKS } from './voiceHooks.js';

export { checkHookArgs, hookAnswerJson, type AdminHook, type HookArgsCheck } from './hook.js';

/** Every hook callable over JSON, grouped by area in the order `--list` shows them. */
export const ADMIN_HOOKS: readonly AdminHook[] = [
  ...ACCOUNT_HOOKS,
  ...GATEWAY_HOOKS,
  ...GUILD_HOOKS,
  ...MESSAGE_HOOKS,
  ...INTERACTION_HOOKS,
  ...PREMIUM_HOOKS,
  ...ACTIVITY_HOOKS,
  ...VOICE_HOOKS,
  ...RPC_HOOKS,
];

const BY_NAME: ReadonlyMap<string, AdminHook> = new Map(ADMIN_HOOKS.map((hook) => [hook.name, hook]));

/** The hook called `name`, or undefined (never one of Object.prototype's names). */
export function findHook(name: string): AdminHook | undefined {
  return BY_NAME.get(name);
}
