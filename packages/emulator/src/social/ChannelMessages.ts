import { TypedEmitter } from '@sdkpp/protocol';
import type { EmulatorLog } from '../log.js';
import { compareIds } from '../snowflake.js';
import type { EmulatorStore } from '../store/Store.js';
import type { ChannelMessageRecord, GuildChannelRecord } from '../store/types.js';
import { AttachmentFiles } from './AttachmentFiles.js';

/** How long `enforce_nonce` remembers a sender's nonce ("a few minutes" in the document). */
export const NONCE_WINDOW_MS = 5 * 60_000;

/** How many messages a channel may have pinned (the platform's limit). */
export const MAX_PINS = 250;

/** Events of {@link ChannelMessages}. */
export type ChannelMessageEvents = {
  /** A user or bot wrote in a channel (not a relayed copy); the lobby relay listens. */
  channelMessage: [channelId: string, record: ChannelMessageRecord];
  /** Any message was stored, relayed copies included; the bot gateway listens. */
  messageCreated: [record: ChannelMessageRecord];
  /** A message was edited, pinned or unpinned. */
  messageUpdated: [record: ChannelMessageRecord];
  /** A message was deleted; `record` is what it was. */
  messageDeleted: [record: ChannelMessageRecord];
};

/** The ids `<@id>` / `<@!id>` (users) and `<@&id>` (roles) mentioned in `content`. */
export function mentionsIn(content: string): { users: string[]; roles: string[] } {
  const users = new Set<string>();
  const roles = new Set<string>();
  for (const match of content.matchAll(/<@([!&]?)([0-9]{1,20})>/g)) {
    (match[1] === '&' ? roles : users).add(match[2] ?? '');
  }
  return { users: [...users], roles: [...roles] };
}

/**
 * The messages of guild channels: stored in the emulator's store, numbered by snowflake, and announced as
 * events. The rules of who may write what are the callers' (the HTTP routes, the admin hooks); this class
 * only keeps the records straight.
 */
export class ChannelMessages extends TypedEmitter<ChannelMessageEvents> {
  readonly #store: EmulatorStore;
  readonly #log: EmulatorLog;
  /** The attachments' bytes. */
  readonly files = new AttachmentFiles();

  constructor(store: EmulatorStore, log: EmulatorLog) {
    super();
    this.#store = store;
    this.#log = log;
  }

  /** A message by id, in the given channel. */
  get(channelId: string, messageId: string): ChannelMessageRecord | undefined {
    const all = this.#store.state.channelMessages;
    const record = Object.hasOwn(all, messageId) ? all[messageId] : undefined;
    return record?.channelId === channelId ? record : undefined;
  }

  /** A channel's messages, oldest first. */
  inChannel(channelId: string): ChannelMessageRecord[] {
    return Object.values(this.#store.state.channelMessages)
      .filter((m) => m.channelId === channelId)
      .sort((a, b) => compareIds(a.id, b.id));
  }

  /** The newest message id of a channel, or null. */
  lastId(channelId: string): string | null {
    return this.inChannel(channelId).at(-1)?.id ?? null;
  }

  /**
   * Stores a message; `messageCreated` follows, and `channelMessage` too unless the message is a relayed
   * copy (`fromLobbyId` set), so nothing relays back and forth.
   */
  create(
    channel: GuildChannelRecord,
    input: Omit<ChannelMessageRecord, 'id' | 'channelId' | 'createdAt'>,
  ): ChannelMessageRecord {
    const record: ChannelMessageRecord = {
      ...input,
      id: this.#store.nextId(),
      channelId: channel.id,
      createdAt: this.#store.now(),
    };
    this.#store.state.channelMessages[record.id] = record;
    this.#log.line('guilds', `message ${record.id} by ${record.authorId} in #${channel.name}`);
    this.emit('messageCreated', record);
    if (record.fromLobbyId === null) this.emit('channelMessage', channel.id, record);
    return record;
  }

  /** The sender's earlier message with this nonce in the channel within {@link NONCE_WINDOW_MS}, if any. */
  byNonce(channelId: string, authorId: string, nonce: string): ChannelMessageRecord | undefined {
    const since = this.#store.now() - NONCE_WINDOW_MS;
    return this.inChannel(channelId).find(
      (m) => m.authorId === authorId && m.nonce === nonce && m.createdAt >= since,
    );
  }

  /** Changes a message in place; `messageUpdated` follows. `edited` stamps the edit time (not for pins). */
  update(record: ChannelMessageRecord, change: Partial<ChannelMessageRecord>, edited: boolean): void {
    Object.assign(record, change);
    if (edited) record.editedAt = this.#store.now();
    this.emit('messageUpdated', record);
  }

  /** Deletes a message; `messageDeleted` follows. */
  delete(record: ChannelMessageRecord): void {
    Reflect.deleteProperty(this.#store.state.channelMessages, record.id);
    for (const a of record.attachments ?? []) this.files.delete(a.id);
    this.emit('messageDeleted', record);
  }

  /** Drops every message of a channel without events (the channel itself is being deleted). */
  dropChannel(channelId: string): void {
    for (const m of this.inChannel(channelId))
      Reflect.deleteProperty(this.#store.state.channelMessages, m.id);
  }

  /** A channel's pinned messages, most recently pinned first. */
  pinned(channelId: string): ChannelMessageRecord[] {
    return this.inChannel(channelId)
      .filter((m) => typeof m.pinnedAt === 'number')
      .sort((a, b) => (b.pinnedAt ?? 0) - (a.pinnedAt ?? 0) || compareIds(b.id, a.id));
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#log.line(
      'guilds',
      `a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
