/** Interaction types (the platform's numbers). */
export enum InteractionType {
  /** The platform checking the endpoint; answered with PONG by the handler itself. */
  Ping = 1,
  /** A slash command, or a user or message context menu command. */
  ApplicationCommand = 2,
  /** A button or select menu on a message. */
  MessageComponent = 3,
  /** The user is typing a command option with autocomplete. */
  ApplicationCommandAutocomplete = 4,
  /** A modal was submitted. */
  ModalSubmit = 5,
}

/** Interaction callback types the handler's answers use (the platform's numbers). */
export enum InteractionCallbackType {
  /** The answer to a PING. */
  Pong = 1,
  /** A message in reply. */
  ChannelMessageWithSource = 4,
  /** "Thinking…" now, the message later by editing the original response. */
  DeferredChannelMessageWithSource = 5,
  /** For components: acknowledge now, edit the message later. */
  DeferredUpdateMessage = 6,
  /** For components: edit the message the component is on. */
  UpdateMessage = 7,
  /** Choices for an autocomplete interaction. */
  ApplicationCommandAutocompleteResult = 8,
  /** Open a modal (not in answer to a modal submission). */
  Modal = 9,
  /** Deprecated by the platform (a premium button with a `sku_id` replaces it); still answered. */
  PremiumRequired = 10,
  /** Launch the app's Activity (for commands, components and modal submissions). */
  LaunchActivity = 12,
}

/** A user as events and interactions carry it (the fields every payload has). */
export interface PlatformUser {
  /** The user's id (snowflake). */
  readonly id: string;
  /** The user's unique username. */
  readonly username: string;
  /** The user's display name, if set. */
  readonly global_name?: string | null;
  /** Further fields, as the platform sends them. */
  readonly [field: string]: unknown;
}

/** An interaction as the platform delivers it; fields past these depend on its type. */
export interface Interaction {
  /** The interaction's id (snowflake). */
  readonly id: string;
  /** The application it is for. */
  readonly application_id: string;
  /** What kind of interaction it is. */
  readonly type: InteractionType;
  /** For answering later (follow-ups, edits): valid for 15 minutes. */
  readonly token: string;
  /** The command, component or modal data. */
  readonly data?: Readonly<Record<string, unknown>>;
  /** The invoking user, outside a server. */
  readonly user?: PlatformUser;
  /** The invoking member, in a server (its `user` is the user). */
  readonly member?: Readonly<Record<string, unknown>> & {
    /** The member's user. */
    readonly user?: PlatformUser;
  };
  /** Further fields, as the platform sends them. */
  readonly [field: string]: unknown;
}

/** What the handler answers an interaction with. */
export interface InteractionResponse {
  /** How the platform should treat the answer. */
  readonly type: InteractionCallbackType;
  /** The message, modal or choices, as the callback type wants them. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** APPLICATION_AUTHORIZED: the app was installed to a user or a server. */
export interface ApplicationAuthorizedEvent {
  /** The event type. */
  readonly type: 'APPLICATION_AUTHORIZED';
  /** When the event happened (ISO 8601). */
  readonly timestamp: string;
  /** The installation. */
  readonly data: {
    /** 0 installed to a server, 1 to a user. */
    readonly integration_type?: number;
    /** Who installed it. */
    readonly user: PlatformUser;
    /** The OAuth2 scopes granted. */
    readonly scopes: readonly string[];
    /** The server, for a server installation. */
    readonly guild?: Readonly<Record<string, unknown>>;
  };
}

/** APPLICATION_DEAUTHORIZED: a user unlinked or revoked the app; drop what was linked to them. */
export interface ApplicationDeauthorizedEvent {
  /** The event type. */
  readonly type: 'APPLICATION_DEAUTHORIZED';
  /** When the event happened (ISO 8601). */
  readonly timestamp: string;
  /** Who it was. */
  readonly data: {
    /** The user who unlinked or revoked the app. */
    readonly user: PlatformUser;
  };
}

/** ENTITLEMENT_CREATE: a user got an entitlement (the only monetization webhook event). */
export interface EntitlementCreateEvent {
  /** The event type. */
  readonly type: 'ENTITLEMENT_CREATE';
  /** When the event happened (ISO 8601). */
  readonly timestamp: string;
  /** The entitlement, as the platform sends it. */
  readonly data: Readonly<Record<string, unknown>> & {
    /** The entitlement's id. */
    readonly id: string;
    /** The SKU it grants. */
    readonly sku_id: string;
    /** The user it belongs to, if a user's. */
    readonly user_id?: string;
    /** When it ends; null for an ongoing subscription. */
    readonly ends_at?: string | null;
  };
}

/**
 * QUEST_USER_ENROLLMENT: a user enrolled in one of the app's Quests. The platform does not publish the data's
 * shape; these are the fields the emulator sends (the user, the Quest, when), and further ones pass through.
 */
export interface QuestUserEnrollmentEvent {
  /** The event type. */
  readonly type: 'QUEST_USER_ENROLLMENT';
  /** When the event happened (ISO 8601). */
  readonly timestamp: string;
  /** The enrollment. */
  readonly data: Readonly<Record<string, unknown>> & {
    /** The Quest's id (snowflake). */
    readonly quest_id: string;
    /** The enrolled user's id. */
    readonly user_id: string;
    /** The enrolled user. */
    readonly user?: PlatformUser;
    /** When the user enrolled (ISO 8601). */
    readonly enrolled_at?: string;
  };
}

/** LOBBY_MESSAGE_CREATE / _UPDATE: a message in one of the app's lobbies, sent or changed. */
export interface LobbyMessageEvent {
  /** The event type. */
  readonly type: 'LOBBY_MESSAGE_CREATE' | 'LOBBY_MESSAGE_UPDATE';
  /** When the event happened (ISO 8601). */
  readonly timestamp: string;
  /** The lobby message, as the platform sends it. */
  readonly data: Readonly<Record<string, unknown>> & {
    /** The message id. */
    readonly id: string;
    /** Its lobby. */
    readonly lobby_id: string;
    /** Its text. */
    readonly content: string;
    /** Developer metadata set by the sender. */
    readonly metadata?: Readonly<Record<string, string>>;
  };
}

/** LOBBY_MESSAGE_DELETE: a lobby message was deleted. */
export interface LobbyMessageDeleteEvent {
  /** The event type. */
  readonly type: 'LOBBY_MESSAGE_DELETE';
  /** When the event happened (ISO 8601). */
  readonly timestamp: string;
  /** Which message. */
  readonly data: {
    /** The message id. */
    readonly id: string;
    /** Its lobby. */
    readonly lobby_id: string;
  };
}

/** GAME_DIRECT_MESSAGE_CREATE / _UPDATE: a direct message sent from the game, sent or changed. */
export interface GameDirectMessageEvent {
  /** The event type. */
  readonly type: 'GAME_DIRECT_MESSAGE_CREATE' | 'GAME_DIRECT_MESSAGE_UPDATE';
  /** When the event happened (ISO 8601). */
  readonly timestamp: string;
  /** The message as its author sees it. */
  readonly data: Readonly<Record<string, unknown>> & {
    /** The message id. */
    readonly id: string;
    /** Its text. */
    readonly content: string;
    /** Who sent it. */
    readonly author: PlatformUser;
    /** Who it is for. */
    readonly recipient_id: string;
  };
}

/** GAME_DIRECT_MESSAGE_DELETE: a direct message sent from the game was deleted. */
export interface GameDirectMessageDeleteEvent {
  /** The event type. */
  readonly type: 'GAME_DIRECT_MESSAGE_DELETE';
  /** When the event happened (ISO 8601). */
  readonly timestamp: string;
  /** Which message. */
  readonly data: {
    /** The message id. */
    readonly id: string;
    /** Who sent it. */
    readonly author_id: string;
    /** Who it was for. */
    readonly recipient_id: string;
  };
}

/** One event of a type this SDK knows, from the webhook events URL; narrow on `type`. */
export type WebhookEvent =
  | ApplicationAuthorizedEvent
  | ApplicationDeauthorizedEvent
  | EntitlementCreateEvent
  | QuestUserEnrollmentEvent
  | LobbyMessageEvent
  | LobbyMessageDeleteEvent
  | GameDirectMessageEvent
  | GameDirectMessageDeleteEvent;

/** An event of another type (later additions), untyped. */
export interface OtherWebhookEvent {
  /** The event type, as the platform names it. */
  readonly type: string;
  /** When the event happened (ISO 8601). */
  readonly timestamp: string;
  /** The event's data, as the platform sends it. */
  readonly data: unknown;
}
