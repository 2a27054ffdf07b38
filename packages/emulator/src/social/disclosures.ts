import type { GatewayHub } from '../gateway/GatewayHub.js';
import type { EmulatorLog } from '../log.js';
import type { EmulatorStore } from '../store/Store.js';
import { MAX_DISCLOSED_APPLICATIONS } from '../store/schema.js';
import type { DirectMessages } from './DirectMessages.js';
import { EPHEMERAL_DM_CHANNEL_TYPE } from './DirectMessages.js';
import type { Guilds } from './Guilds.js';
import type { Lobbies } from './Lobbies.js';

/** `DisclosureTypes::MessageDataVisibleOnDiscord`: the user's in-game messages can be read on Discord. */
export const MESSAGE_DATA_VISIBLE_ON_DISCORD = 3;

/** Message flag EPHEMERAL: only the user it is sent to sees it. */
const EPHEMERAL_FLAG = 1 << 6;

/**
 * The author of disclosure messages: the platform's system user (a public, well-known id). Games should key
 * on `disclosure_type`, not on the author.
 */
const SYSTEM_AUTHOR = {
  id: '643945264868098049',
  username: 'discord',
  discriminator: '0',
  global_name: 'Discord',
  avatar: null,
  bot: false,
  system: true,
};

/** The disclosure's text (the emulator's own words; games usually replace it with their own rendering). */
export const DISCLOSURE_TEXT =
  'Messages you send in this game can also be read on Discord, where the conversation is kept.';

/** What {@link wireDisclosures} watches and writes to. */
export interface DisclosureDeps {
  readonly store: EmulatorStore;
  readonly hub: GatewayHub;
  readonly messages: DirectMessages;
  readonly lobbies: Lobbies;
  readonly guilds: Guilds;
  readonly log: EmulatorLog;
}

/**
 * Sends the "your messages are visible on Discord" disclosure (C++ `MessageHandle::DisclosureType()`
 * `MessageDataVisibleOnDiscord`) the first time a user sends, from a game, a message whose content can be
 * viewed on Discord: a direct message between two full accounts, or a lobby message in a lobby linked to a
 * guild channel. Once per user per application, remembered in the user's record (`disclosedIn`).
 *
 * The platform does not publish the disclosure's wire shape; this one is the emulator's choice (docs/messages.md):
 * an ephemeral message (flag 1 << 6) from the system user to the sender's sessions only, in the conversation
 * it is about — MESSAGE_CREATE in the DM channel, or LOBBY_MESSAGE_CREATE in the lobby — with
 * `disclosure_type: 3`. It is not stored, so history does not return it.
 */
export function wireDisclosures(deps: DisclosureDeps): void {
  const { store, hub, messages, lobbies, guilds, log } = deps;

  /** Marks the disclosure as sent; false when it had been sent already (or the user is gone). */
  const firstTime = (userId: string, applicationId: string): boolean => {
    const user = store.user(userId);
    if (!user || user.bot) return false;
    const shown = user.disclosedIn ?? [];
    if (shown.includes(applicationId) || shown.length >= MAX_DISCLOSED_APPLICATIONS) return false;
    user.disclosedIn = [...shown, applicationId];
    return true;
  };

  const base = (): Record<string, unknown> => ({
    id: store.nextId(),
    type: 0,
    content: DISCLOSURE_TEXT,
    author: { ...SYSTEM_AUTHOR },
    timestamp: new Date(store.now()).toISOString(),
    edited_timestamp: null,
    flags: EPHEMERAL_FLAG,
    metadata: {},
    moderation_metadata: {},
    disclosure_type: MESSAGE_DATA_VISIBLE_ON_DISCORD,
  });

  messages.on('changed', (kind, record) => {
    if (kind !== 'create' || record.applicationId === null || record.activity) return;
    const other = store.user(record.recipientId);
    const author = store.user(record.authorId);
    if (!author || !other || author.provisional || other.provisional) return;
    if (!firstTime(author.id, record.applicationId)) return;
    hub.dispatch(author.id, 'MESSAGE_CREATE', {
      ...base(),
      channel_id: record.recipientId,
      channel_type: EPHEMERAL_DM_CHANNEL_TYPE,
      recipient_id: record.recipientId,
      mentions: [],
    });
    log.line(
      'messages',
      `disclosure sent to ${author.username}: their direct messages are visible on Discord`,
    );
  });

  lobbies.on('messageCreated', (lobby, message) => {
    if (!message.fromGame || lobby.linkedChannelId === null || !guilds.channel(lobby.linkedChannelId)) return;
    if (!firstTime(message.authorId, store.state.application.id)) return;
    hub.dispatch(message.authorId, 'LOBBY_MESSAGE_CREATE', {
      ...base(),
      lobby_id: lobby.id,
      channel_id: lobby.id,
      additional_name: null,
    });
    log.line('lobbies', `disclosure sent to ${message.authorId}: lobby ${lobby.id} is linked to a channel`);
  });
}
