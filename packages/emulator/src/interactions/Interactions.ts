import { randomToken, safeEqual } from '../random.js';
import type { EmulatorLog } from '../log.js';
import type { ChannelMessageRecord } from '../store/types.js';
import type { PrivateChannel } from './privatePlace.js';

/** Interaction types. */
export const InteractionKind = {
  PING: 1,
  APPLICATION_COMMAND: 2,
  MESSAGE_COMPONENT: 3,
  APPLICATION_COMMAND_AUTOCOMPLETE: 4,
  MODAL_SUBMIT: 5,
} as const;

/** Interaction callback types (the document names LAUNCH_ACTIVITY 12 and the deprecated PREMIUM_REQUIRED 10). */
export const CallbackType = {
  PONG: 1,
  CHANNEL_MESSAGE_WITH_SOURCE: 4,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  UPDATE_MESSAGE: 7,
  APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: 8,
  MODAL: 9,
  PREMIUM_REQUIRED: 10,
  LAUNCH_ACTIVITY: 12,
} as const;

/** Which callbacks each interaction type may be answered with. */
export const ALLOWED_CALLBACKS: Readonly<Record<number, readonly number[]>> = {
  [InteractionKind.PING]: [CallbackType.PONG],
  [InteractionKind.APPLICATION_COMMAND]: [4, 5, 9, 10, 12],
  [InteractionKind.MESSAGE_COMPONENT]: [4, 5, 6, 7, 9, 10, 12],
  [InteractionKind.APPLICATION_COMMAND_AUTOCOMPLETE]: [8],
  [InteractionKind.MODAL_SUBMIT]: [4, 5, 6, 7, 10, 12],
};

/** How long an interaction may wait for its first response (the platform's 3 s). */
export const RESPONSE_WINDOW_MS = 3000;
/** How long an interaction's token serves follow-ups and edits (the platform's 15 minutes). */
export const TOKEN_LIFETIME_MS = 15 * 60_000;
/** Follow-up messages a user-installed app may send per interaction (the document's 5). */
export const MAX_USER_INSTALL_FOLLOW_UPS = 5;
/** Interactions remembered (the oldest go first). */
export const KEPT_INTERACTIONS = 500;

/** A modal the app opened, waiting for the user to submit it. */
export interface OpenModal {
  customId: string;
  title: string;
  components: unknown[];
}

/** One interaction, from its creation to the end of its token's life. */
export interface LiveInteraction {
  id: string;
  token: string;
  type: number;
  /** The command's name, or the component's / modal's custom id. */
  name: string;
  userId: string;
  guildId: string | null;
  channelId: string | null;
  /** The DM or group DM it happened in (null in a guild channel). */
  privateChannel: PrivateChannel | null;
  /** `guild` (the bot is installed in the guild) or `user` (a user-installed app). */
  installation: 'guild' | 'user';
  /** The payload as delivered. */
  payload: Record<string, unknown>;
  /** Emulator ms. */
  createdAt: number;
  /** The first response's callback type, or null while none came. */
  responseType: number | null;
  /** The message the first response made or updated, or null. */
  originalMessageId: string | null;
  /** Follow-up message ids. */
  followUps: string[];
  /** Messages only the invoking user sees (ephemeral responses and follow-ups, and DM context ones), by id. */
  privateMessages: Map<string, ChannelMessageRecord>;
  /** The modal the app opened in response, until it is submitted. */
  modal: OpenModal | null;
  /** How delivery went: `gateway`, `http 200`, or why it failed. */
  delivery: string;
  /** Autocomplete choices, when that was the answer. */
  choices: unknown[] | null;
  /** The Activity launch a LAUNCH_ACTIVITY answer (or a DISCORD_LAUNCH_ACTIVITY entry point) made. */
  launch: { instanceId: string; url: string } | null;
}

/**
 * The live interactions of the emulator: ids, secret tokens and the response state machine. Bounded: the
 * newest {@link KEPT_INTERACTIONS} are kept, and a token is good for {@link TOKEN_LIFETIME_MS}.
 */
export class Interactions {
  readonly #byId = new Map<string, LiveInteraction>();
  readonly #now: () => number;
  readonly #nextId: () => string;
  readonly #log: EmulatorLog;
  readonly #watchers = new Set<(interaction: LiveInteraction) => void>();

  constructor(deps: { now: () => number; nextId: () => string; log: EmulatorLog }) {
    this.#now = deps.now;
    this.#nextId = deps.nextId;
    this.#log = deps.log;
  }

  /** Records a new interaction; the caller fills in the payload. */
  create(
    fields: Pick<
      LiveInteraction,
      'type' | 'name' | 'userId' | 'guildId' | 'channelId' | 'privateChannel' | 'installation'
    >,
  ): LiveInteraction {
    const interaction: LiveInteraction = {
      ...fields,
      id: this.#nextId(),
      // The token is a credential for the interaction's webhook: long, random, and never logged.
      token: `aW50ZXJhY3Rpb24.${randomToken(48)}`,
      payload: {},
      createdAt: this.#now(),
      responseType: null,
      originalMessageId: null,
      followUps: [],
      privateMessages: new Map(),
      modal: null,
      delivery: 'pending',
      choices: null,
      launch: null,
    };
    this.#byId.set(interaction.id, interaction);
    if (this.#byId.size > KEPT_INTERACTIONS) {
      const oldest = this.#byId.keys().next().value;
      if (oldest !== undefined) this.#byId.delete(oldest);
    }
    this.#log.line(
      'interactions',
      `interaction ${interaction.id} (type ${fields.type}, ${fields.name}) by ${fields.userId}`,
    );
    return interaction;
  }

  /** An interaction by id. */
  get(id: string): LiveInteraction | undefined {
    return this.#byId.get(id);
  }

  /** Every kept interaction, oldest first. */
  all(): LiveInteraction[] {
    return [...this.#byId.values()];
  }

  /** The interaction with this id and token (compared in constant time), or undefined. */
  withToken(id: string, token: string): LiveInteraction | undefined {
    const found = this.#byId.get(id);
    return found && safeEqual(found.token, token) ? found : undefined;
  }

  /** The interaction a webhook token belongs to, while the token lives. */
  byToken(token: string): LiveInteraction | undefined {
    for (const interaction of this.#byId.values()) {
      if (safeEqual(interaction.token, token)) return this.tokenAlive(interaction) ? interaction : undefined;
    }
    return undefined;
  }

  /** Whether the first response may still come. */
  awaitingResponse(interaction: LiveInteraction): boolean {
    return interaction.responseType === null && this.#now() - interaction.createdAt <= RESPONSE_WINDOW_MS;
  }

  /** Ms left of the first response's window (0 once it closed), by the emulator's clock. */
  responseWindowLeft(interaction: LiveInteraction): number {
    return Math.max(0, RESPONSE_WINDOW_MS - (this.#now() - interaction.createdAt));
  }

  /**
   * Calls `watcher` after each change of an interaction's delivery or response (the first response, an edit,
   * a deletion), so a test awaiting the app's answer needs no polling; returns the function that stops it.
   */
  watch(watcher: (interaction: LiveInteraction) => void): () => void {
    this.#watchers.add(watcher);
    return () => {
      this.#watchers.delete(watcher);
    };
  }

  /** Tells the watchers that an interaction's delivery or response changed. */
  changed(interaction: LiveInteraction): void {
    for (const watcher of [...this.#watchers]) {
      try {
        watcher(interaction);
      } catch (error) {
        // A watcher is the emulator's own code; its failure must not fail the app's request that caused it.
        this.#log.line(
          'interactions',
          `response watcher failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  /** Whether the token still serves follow-ups and edits. */
  tokenAlive(interaction: LiveInteraction): boolean {
    return this.#now() - interaction.createdAt <= TOKEN_LIFETIME_MS;
  }

  /** The interaction that owns a message (original or follow-up, public or private). */
  ofMessage(messageId: string): LiveInteraction | undefined {
    for (const interaction of this.#byId.values()) {
      if (
        interaction.originalMessageId === messageId ||
        interaction.followUps.includes(messageId) ||
        interaction.privateMessages.has(messageId)
      ) {
        return interaction;
      }
    }
    return undefined;
  }
}
