import { TypedEmitter } from '@sdkpp/protocol';
import { wireUser } from '../accounts/userObject.js';
import type { GatewayHub } from '../gateway/GatewayHub.js';
import type { EmulatorStore } from '../store/Store.js';
import type { DirectMessageRecord, MessageActivityRecord, RichContentRecord } from '../store/types.js';
import { wireRichContent } from './richContent.js';

/** Message flag of messages sent through the social SDK (wire-protocols §4.4: SENT_BY_SOCIAL_LAYER_INTEGRATION). */
export const SENT_FROM_GAME_FLAG = 1 << 16;
/** Channel type of the SDK's direct-message channels (EPHEMERAL_DM); the channel id is the other user's id. */
export const EPHEMERAL_DM_CHANNEL_TYPE = 18;
/** History reaches back at most this far (seed: 72 hours). */
export const HISTORY_WINDOW_MS = 72 * 60 * 60_000;
/** At most this many messages per history request. */
export const MAX_HISTORY = 200;

/** What a new message needs. */
export interface NewDirectMessage {
  authorId: string;
  recipientId: string;
  content: string;
  metadata?: Record<string, string>;
  applicationId: string | null;
  activity?: MessageActivityRecord | null;
  /** Non-text content (a message written in the chat client). */
  rich?: RichContentRecord;
}

/** Events of {@link DirectMessages}: every change of a message, for the webhook events. */
export type DirectMessageEvents = {
  changed: [kind: 'create' | 'update' | 'delete', record: DirectMessageRecord];
};

/**
 * Direct messages between two users: stored once, seen by each side in their own channel (whose id is the
 * other user's id), dispatched to every gateway session of both users on create, edit and delete.
 */
export class DirectMessages extends TypedEmitter<DirectMessageEvents> {
  readonly #store: EmulatorStore;
  readonly #hub: GatewayHub;

  constructor(store: EmulatorStore, hub: GatewayHub) {
    super();
    this.#store = store;
    this.#hub = hub;
  }

  /** A message by id. */
  get(id: string): DirectMessageRecord | undefined {
    return Object.hasOwn(this.#store.state.messages, id) ? this.#store.state.messages[id] : undefined;
  }

  /** Stores a message and tells both users. */
  create(input: NewDirectMessage): DirectMessageRecord {
    const record: DirectMessageRecord = {
      id: this.#store.nextId(),
      authorId: input.authorId,
      recipientId: input.recipientId,
      content: input.content,
      metadata: { ...(input.metadata ?? {}) },
      moderationMetadata: {},
      applicationId: input.applicationId,
      createdAt: this.#store.now(),
      editedAt: null,
      activity: input.activity ?? null,
      ...(input.rich ? { rich: input.rich } : {}),
    };
    this.#store.state.messages[record.id] = record;
    this.#tell(record, 'MESSAGE_CREATE');
    return record;
  }

  /** Replaces the content (the author's edit). */
  edit(record: DirectMessageRecord, content: string): DirectMessageRecord {
    record.content = content;
    record.editedAt = this.#store.now();
    this.#tell(record, 'MESSAGE_UPDATE');
    return record;
  }

  /** Sets the moderation metadata (the game backend's call). */
  setModerationMetadata(record: DirectMessageRecord, metadata: Record<string, string>): void {
    record.moderationMetadata = { ...metadata };
    this.#tell(record, 'MESSAGE_UPDATE');
  }

  /** Marks an invite invalid (its party ended or changed). */
  invalidateInvite(record: DirectMessageRecord): void {
    if (!record.activity?.valid) return;
    record.activity.valid = false;
    this.#tell(record, 'MESSAGE_UPDATE');
  }

  /** A merged provisional account's conversations become the full account's (no events: history reads them). */
  migrate(sourceId: string, destinationId: string): void {
    for (const message of Object.values(this.#store.state.messages)) {
      if (message.authorId === sourceId) message.authorId = destinationId;
      if (message.recipientId === sourceId) message.recipientId = destinationId;
    }
  }

  /** Deletes a message. */
  delete(record: DirectMessageRecord): void {
    Reflect.deleteProperty(this.#store.state.messages, record.id);
    for (const [viewer, other] of this.#sides(record)) {
      this.#hub.dispatch(viewer, 'MESSAGE_DELETE', { id: record.id, channel_id: other });
    }
    this.emit('changed', 'delete', record);
  }

  /** The conversation of two users, newest first: at most `limit` messages of the last 72 hours. */
  history(a: string, b: string, limit: number): DirectMessageRecord[] {
    const since = this.#store.now() - HISTORY_WINDOW_MS;
    return this.#between(a, b)
      .filter((m) => m.createdAt >= since)
      .slice(0, Math.min(limit, MAX_HISTORY));
  }

  /** Every conversation of a user with its newest message id. */
  summaries(userId: string): { user_id: string; last_message_id: string }[] {
    const last = new Map<string, string>();
    for (const m of this.#all()) {
      const other = m.authorId === userId ? m.recipientId : m.recipientId === userId ? m.authorId : undefined;
      if (other !== undefined && !last.has(other)) last.set(other, m.id);
    }
    return [...last].map(([user_id, last_message_id]) => ({ user_id, last_message_id }));
  }

  /** Whether the two have messaged before. */
  haveTalked(a: string, b: string): boolean {
    return this.#between(a, b).length > 0;
  }

  /** Invites (valid ones) whose party belongs to `hostId`. */
  validInvitesHostedBy(hostId: string): DirectMessageRecord[] {
    return this.#all().filter((m) => {
      if (!m.activity?.valid) return false;
      return (m.activity.type === 1 ? m.authorId : m.recipientId) === hostId;
    });
  }

  /** The message as `viewerId` receives it: their channel is the other user's id. */
  wire(record: DirectMessageRecord, viewerId: string): Record<string, unknown> {
    const author = this.#store.user(record.authorId);
    const other = viewerId === record.authorId ? record.recipientId : record.authorId;
    const app = this.#store.state.application;
    const rich = wireRichContent(record.rich);
    return {
      id: record.id,
      channel_id: other,
      channel_type: EPHEMERAL_DM_CHANNEL_TYPE,
      type: 0,
      content: record.content,
      author: author ? wireUser(author) : { id: record.authorId },
      recipient_id: record.recipientId,
      timestamp: new Date(record.createdAt).toISOString(),
      edited_timestamp: record.editedAt === null ? null : new Date(record.editedAt).toISOString(),
      flags: (record.applicationId === null ? 0 : SENT_FROM_GAME_FLAG) | rich.flags,
      ...rich.fields,
      ...(record.applicationId === null ? {} : { application_id: record.applicationId }),
      metadata: record.metadata,
      moderation_metadata: record.moderationMetadata,
      mentions: [],
      ...(record.activity
        ? {
            activity: {
              type: record.activity.type,
              party_id: record.activity.partyId,
              session_id: record.activity.sessionId,
              is_valid: record.activity.valid,
            },
            application: { id: app.id, name: app.name },
          }
        : {}),
    };
  }

  #tell(record: DirectMessageRecord, event: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE'): void {
    for (const [viewer] of this.#sides(record)) this.#hub.dispatch(viewer, event, this.wire(record, viewer));
    this.emit('changed', event === 'MESSAGE_CREATE' ? 'create' : 'update', record);
  }

  /** Each viewer with their channel id; a message to oneself is one side. */
  #sides(record: DirectMessageRecord): [string, string][] {
    return record.authorId === record.recipientId
      ? [[record.authorId, record.authorId]]
      : [
          [record.authorId, record.recipientId],
          [record.recipientId, record.authorId],
        ];
  }

  /** Every message, newest first. */
  #all(): DirectMessageRecord[] {
    return Object.values(this.#store.state.messages).sort((x, y) =>
      BigInt(y.id) > BigInt(x.id) ? 1 : BigInt(y.id) < BigInt(x.id) ? -1 : 0,
    );
  }

  #between(a: string, b: string): DirectMessageRecord[] {
    return this.#all().filter(
      (m) => (m.authorId === a && m.recipientId === b) || (m.authorId === b && m.recipientId === a),
    );
  }
}
