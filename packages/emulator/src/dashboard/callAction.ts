import { checkHookArgs, findHook, hookAnswerJson } from '../hooks/index.js';
import { InteractionResponseError } from '../interactions/InteractionResponseError.js';
import { AutoModError } from '../social/autoMod.js';
import { SlowmodeError } from '../social/Slowmode.js';
import { ActionError, type DashboardAction } from './actionTypes.js';

/**
 * `POST /dashboard/api/call/<hook>` with the hook's arguments as the JSON body: calls any admin hook callable
 * over JSON (see ../hooks) and answers `{ hook, result }`. It is what `sdkpp emulator call` uses, guarded as
 * every action is (loopback, the emulator's host names, same origin, the dashboard's token).
 *
 * Refusals: 404 `unknown_hook`; 400 `bad_arguments` when the body does not fit the hook's schema (checked
 * here as well as by the command line, since anything holding the token may call); 400 `refused` when the
 * hook refused (a RangeError: an unknown user, a channel the player cannot see, …); 429 `slowmode` with the
 * platform's `code` 20016 and `retry_after` (seconds) for a user's send within a channel's slowmode; 400
 * or 403 `automod` with the platform's `code` for a send AutoMod refused; 504 or 502 with the
 * reason of an awaited interaction response that did not come.
 */
export const CALL_ACTION: DashboardAction = {
  pattern: ['call', ':hook'],
  async run(target, params, body) {
    const name = params.hook ?? '';
    const hook = findHook(name);
    if (!hook) throw new ActionError(404, 'unknown_hook', `No admin hook "${name.slice(0, 80)}"`);
    const checked = checkHookArgs(hook, body);
    if (!checked.ok) {
      throw new ActionError(400, 'bad_arguments', `${hook.name}: ${checked.problems.join('; ')}`);
    }
    try {
      const result = await hook.run(target.emulator, checked.args);
      return { status: 200, value: { hook: hook.name, result: hookAnswerJson(result) } };
    } catch (error) {
      if (error instanceof SlowmodeError) {
        throw new ActionError(429, 'slowmode', error.message, {
          code: error.code,
          retry_after: error.retryAfter,
        });
      }
      if (error instanceof AutoModError) {
        throw new ActionError(error.status, 'automod', error.message, { code: error.code });
      }
      if (error instanceof RangeError) throw new ActionError(400, 'refused', error.message);
      if (error instanceof InteractionResponseError) {
        // The app, not the caller, is at fault: a gateway-style status, and the reason as the error code.
        const late = error.reason === 'timeout' || error.reason === 'no_response';
        throw new ActionError(late ? 504 : 502, error.reason, error.message);
      }
      throw error;
    }
  },
};
