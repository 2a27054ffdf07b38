/** A lobby member as the game backend sees it. */
export interface BackendLobbyMember {
  /** The member's user id. */
  id: string;
  /** Developer metadata of the member. */
  metadata: Record<string, string>;
  /** Member flags; bit 0 is CanLinkLobby. */
  flags: number;
  /** True when the member may link a guild channel to the lobby. */
  canLinkLobby: boolean;
  /** An additional display name (e.g. a character name) shown with their lobby messages, or null. */
  additionalName: string | null;
  /** True while the member is online in the game. */
  connected: boolean;
}

/** A lobby as the game backend sees it. */
export interface BackendLobby {
  /** The lobby id. */
  id: string;
  /** The application that owns it. */
  applicationId: string;
  /** Developer metadata of the lobby. */
  metadata: Record<string, string>;
  /** The members. */
  members: BackendLobbyMember[];
  /** The guild channel the lobby's chat is mirrored to, or null when none is linked. */
  linkedChannel: {
    /** The channel's snowflake id. */
    id: string;
    /** The channel's name, without the leading `#`. */
    name: string;
    /** The guild (server) the channel belongs to. */
    guildId: string;
  } | null;
  /** Lobby flags. */
  flags: number;
}

/** A new member of {@link GameBackend.createLobby}, or a change of {@link GameBackend.updateLobbyMembers}. */
export interface BackendMemberInput {
  /** The user id. */
  id: string;
  /** Replaces the member's metadata. */
  metadata?: Record<string, string>;
  /** Member flags; `canLinkLobby: true` sets bit 0. */
  flags?: number;
  /** Shorthand for flag bit 0. */
  canLinkLobby?: boolean;
  /** Sets (1–80 characters) or, with null, clears the additional display name; omitted keeps it. */
  additionalName?: string | null;
}

/** One change of {@link GameBackend.updateLobbyMembers}: add or update, or remove. */
export type BackendMemberChange = BackendMemberInput & {
  /** Removes the member instead. */
  remove?: boolean;
};

/** Options of {@link GameBackend.createLobby}. */
export interface CreateLobbyOptions {
  /** Developer metadata of the lobby. */
  metadata?: Record<string, string>;
  /** Initial members (at most 25). */
  members?: BackendMemberInput[];
  /** Seconds without connected members before the lobby is deleted (5–604800). @defaultValue 300 */
  idleTimeoutSeconds?: number;
  /** Lobby flags. */
  flags?: number;
}

/** Changes of {@link GameBackend.updateLobby}; omitted fields stay. */
export interface UpdateLobbyOptions {
  /** Replaces the lobby's metadata. */
  metadata?: Record<string, string>;
  /** Replaces the whole member set (at most 25). */
  members?: BackendMemberInput[];
  /** Seconds without connected members before the lobby is deleted (5–604800). */
  idleTimeoutSeconds?: number;
  /** Lobby flags. */
  flags?: number;
}

/** A lobby message as the game backend reads it. */
export interface BackendLobbyMessage {
  /** The message id; also what moderation metadata is set by. */
  id: string;
  /** The lobby it was sent in. */
  lobbyId: string;
  /** The text, or `''` when the message has none. */
  content: string;
  /** The sender's user id, or `''` when the reply named none. */
  authorId: string;
  /** When it was sent, Unix ms. */
  sentTimestamp: number;
  /** The developer metadata the sender attached; empty when none. Not shown in a linked channel. */
  metadata: Record<string, string>;
  /** What the backend set with {@link GameBackend.setLobbyMessageModerationMetadata}; empty when none. */
  moderationMetadata: Record<string, string>;
  /** The author's additional name when it was sent, or null. */
  additionalName: string | null;
  /** The application it was sent from, or null when it came from the linked chat channel. */
  applicationId: string | null;
}
