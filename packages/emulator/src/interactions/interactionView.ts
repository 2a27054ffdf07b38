import type { EmulatorInteraction } from '../types.js';
import type { LiveInteraction } from './Interactions.js';

/** The admin view of an interaction. */
export function interactionView(i: LiveInteraction): EmulatorInteraction {
  return {
    id: i.id,
    type: i.type,
    name: i.name,
    userId: i.userId,
    guildId: i.guildId,
    channelId: i.channelId,
    context: i.channelId !== null ? 0 : (i.privateChannel?.context ?? 1),
    installation: i.installation,
    delivery: i.delivery,
    responseType: i.responseType,
    originalMessageId: i.originalMessageId,
    followUps: [...i.followUps],
    modal: i.modal
      ? { customId: i.modal.customId, title: i.modal.title, components: structuredClone(i.modal.components) }
      : null,
    privateMessages: [...i.privateMessages.values()].map((m) => ({
      id: m.id,
      content: m.content,
      flags: m.flags ?? 0,
    })),
    choices: i.choices === null ? null : structuredClone(i.choices),
    activity: i.launch === null ? null : { ...i.launch },
  };
}
