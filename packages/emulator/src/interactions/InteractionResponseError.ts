import type { EmulatorInteraction } from '../types.js';

/**
 * Why {@link InteractionResponseError} ended a wait for an app's response:
 * - `not_delivered`: the interaction never reached the app (no bot session and no interactions endpoint URL,
 *   or the endpoint could not be reached);
 * - `bad_response`: the interactions endpoint answered, but not with a response the platform takes (not 2xx,
 *   not JSON, a refused callback);
 * - `no_response`: the platform's 3 s window for the first response closed without one;
 * - `timeout`: the wait's own limit passed first (typically a deferred response that was never edited);
 * - `unknown_interaction`: the emulator no longer keeps the interaction (only the latest 500 are kept).
 */
export type InteractionResponseFailure =
  'not_delivered' | 'bad_response' | 'no_response' | 'timeout' | 'unknown_interaction';

/** An awaited interaction response that did not come; see {@link InteractionResponseFailure}. */
export class InteractionResponseError extends Error {
  /** `'InteractionResponseError'`. */
  override name = 'InteractionResponseError';
  /** Why the wait ended. */
  readonly reason: InteractionResponseFailure;
  /** The interaction's id. */
  readonly interactionId: string;
  /** The interaction as it stood when the wait ended (its `delivery` says more), or null once forgotten. */
  readonly interaction: EmulatorInteraction | null;

  constructor(
    reason: InteractionResponseFailure,
    message: string,
    interactionId: string,
    interaction: EmulatorInteraction | null,
  ) {
    super(message);
    this.reason = reason;
    this.interactionId = interactionId;
    this.interaction = interaction;
  }
}
