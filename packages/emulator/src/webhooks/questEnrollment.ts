import { wireUser } from '../accounts/userObject.js';
import { isSnowflake } from '../snowflake.js';
import type { EmulatorStore } from '../store/Store.js';
import type { EnrollInQuestOptions } from '../types.js';
import type { WebhookEvents } from './WebhookEvents.js';

/**
 * A user enrolls in one of the application's Quests: the QUEST_USER_ENROLLMENT webhook event goes to the
 * webhook events URL, signed and retried like the others. The platform runs Quests itself and publishes
 * neither them nor the event's data, so the emulator keeps no Quest: the event carries the user (and
 * `user_id`), `quest_id` and `enrolled_at`. Returns the data sent; throws a RangeError for an unknown user or
 * a Quest id that is not a snowflake.
 */
export function enrollInQuest(
  deps: { store: EmulatorStore; webhooks: WebhookEvents },
  options: EnrollInQuestOptions,
): Record<string, unknown> {
  const user = deps.store.findUser(options.user);
  if (!user || user.bot) throw new RangeError(`no user "${options.user}"`);
  if (!isSnowflake(options.questId))
    throw new RangeError(`"${options.questId}" is not a Quest id (a snowflake)`);
  const data = {
    user_id: user.id,
    user: wireUser(user),
    quest_id: options.questId,
    enrolled_at: new Date(deps.store.now()).toISOString(),
  };
  deps.webhooks.emit('QUEST_USER_ENROLLMENT', data);
  return data;
}
