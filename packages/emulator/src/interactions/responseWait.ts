import type { ChannelMessageRecord } from '../store/types.js';
import type { AwaitResponseOptions, EmulatorInteractionResponse, EmulatorResponseMessage } from '../types.js';
import { LOADING, type InteractionFlow } from './InteractionFlow.js';
import { InteractionResponseError } from './InteractionResponseError.js';
import {
  CallbackType,
  RESPONSE_WINDOW_MS,
  TOKEN_LIFETIME_MS,
  type Interactions,
  type LiveInteraction,
} from './Interactions.js';
import { interactionView } from './interactionView.js';

/**
 * How long {@link awaitResponse} waits by default: past the platform's 3 s window for a first response (whose
 * end stops the wait anyway), so the limit only matters while a deferred response waits for its edit.
 */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 4000;

/** What the wait reads: the interactions (and their change notices) and the messages responses made. */
export interface ResponseWaitDeps {
  /** The live interactions. */
  interactions: Interactions;
  /** Finds the messages a response made or updated. */
  flow: InteractionFlow;
}

/** A wait that ended without a response. */
interface Failed {
  failed: InteractionResponseError;
}

/** Where an interaction stands: answered, failed, or still to wait for (null). */
type Outcome = { done: EmulatorInteractionResponse } | Failed | null;

function messageView(interaction: LiveInteraction, record: ChannelMessageRecord): EmulatorResponseMessage {
  return {
    id: record.id,
    channelId: record.channelId,
    content: record.content,
    embeds: structuredClone(record.embeds ?? []),
    components: structuredClone(record.components ?? []),
    flags: record.flags ?? 0,
    private: interaction.privateMessages.has(record.id),
  };
}

function failure(
  interaction: LiveInteraction,
  reason: InteractionResponseError['reason'],
  message: string,
): Failed {
  return {
    failed: new InteractionResponseError(reason, message, interaction.id, interactionView(interaction)),
  };
}

/** Reads the interaction's state; never waits. */
function outcome(deps: ResponseWaitDeps, interaction: LiveInteraction): Outcome {
  const { id, delivery } = interaction;
  if (deps.interactions.get(id) !== interaction) {
    return {
      failed: new InteractionResponseError(
        'unknown_interaction',
        `interaction ${id} is no longer kept (the emulator keeps the latest 500)`,
        id,
        null,
      ),
    };
  }
  if (interaction.responseType === null) {
    if (delivery === 'pending') return null;
    if (delivery.startsWith('failed')) {
      return failure(
        interaction,
        'not_delivered',
        `interaction ${id} was not delivered: ${delivery.slice(8)}`,
      );
    }
    // An endpoint's answer is applied before delivery is recorded: no response by now means it was refused.
    if (delivery.startsWith('http')) {
      return failure(
        interaction,
        'bad_response',
        `the interactions endpoint did not answer interaction ${id} with a response the platform takes (${delivery})`,
      );
    }
    if (deps.interactions.awaitingResponse(interaction)) return null;
    return failure(
      interaction,
      'no_response',
      `the app did not respond to interaction ${id} within ${RESPONSE_WINDOW_MS / 1000} s (the user sees "The application did not respond")`,
    );
  }
  const record =
    interaction.originalMessageId === null
      ? undefined
      : deps.flow.findMessage(interaction.originalMessageId, interaction.channelId);
  // A deferred response is a "thinking…" placeholder until the app edits it: what it produced comes then.
  if (
    interaction.responseType === CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE &&
    record !== undefined &&
    ((record.flags ?? 0) & LOADING) !== 0
  ) {
    return null;
  }
  const view = interactionView(interaction);
  return {
    done: {
      type: interaction.responseType,
      message: record === undefined ? null : messageView(interaction, record),
      modal: view.modal,
      activity: view.activity,
      interaction: view,
    },
  };
}

/**
 * Waits for the app's response to `interaction` without polling: the interactions' change notices wake it
 * (the first response, a deferred response's edit), one timer looks again when the 3 s window closes, and
 * another ends the wait after `timeoutMs` with an {@link InteractionResponseError}.
 */
export function awaitResponse(
  deps: ResponseWaitDeps,
  interaction: LiveInteraction,
  options: AwaitResponseOptions = {},
): Promise<EmulatorInteractionResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 1 || timeoutMs > TOKEN_LIFETIME_MS) {
    return Promise.reject(
      new RangeError(`response: timeoutMs must be from 1 to ${TOKEN_LIFETIME_MS} (the token's 15 minutes)`),
    );
  }
  return new Promise((resolve, reject) => {
    // What to undo once the wait ends: the change watcher and the timers.
    const cleanups: (() => void)[] = [];
    let settled = false;
    const finish = (result: NonNullable<Outcome>): void => {
      if (settled) return;
      settled = true;
      for (const cleanup of cleanups) cleanup();
      if ('done' in result) resolve(result.done);
      else reject(result.failed);
    };
    const look = (): void => {
      const result = outcome(deps, interaction);
      if (result) finish(result);
    };
    const later = (ms: number, then: () => void): void => {
      const timer = setTimeout(then, ms);
      cleanups.push(() => {
        clearTimeout(timer);
      });
    };
    look();
    if (settled) return;
    cleanups.push(
      deps.interactions.watch((changed) => {
        if (changed === interaction) look();
      }),
    );
    // Nothing announces that the window closed, so look once it has (a millisecond past its last instant).
    if (interaction.responseType === null) later(deps.interactions.responseWindowLeft(interaction) + 1, look);
    later(timeoutMs, () => {
      const waitingFor =
        interaction.responseType === null ? 'a response' : "the edit of the app's deferred response";
      finish(
        failure(
          interaction,
          'timeout',
          `interaction ${interaction.id}: no answer after ${timeoutMs} ms (waiting for ${waitingFor})`,
        ),
      );
    });
  });
}
