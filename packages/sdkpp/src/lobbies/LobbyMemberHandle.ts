import { UserHandle } from '../social/UserHandle.js';
import type { UserStore } from '../social/UserStore.js';
import { CAN_LINK_LOBBY_FLAG, type LobbyData, type LobbyMemberData } from './wireLobby.js';

/** A live, read-only view of one member of a lobby; it reflects later updates. */
export class LobbyMemberHandle {
  readonly #lobby: () => LobbyData | undefined;
  readonly #users: UserStore;
  /** The member's user id. */
  readonly id: string;

  /** @internal Handles are created by the client. */
  constructor(lobby: () => LobbyData | undefined, users: UserStore, id: string) {
    this.#lobby = lobby;
    this.#users = users;
    this.id = id;
  }

  get #data(): LobbyMemberData | undefined {
    return this.#lobby()?.members.get(this.id);
  }

  /** The member's user, when the client knows them. */
  get user(): UserHandle | undefined {
    return this.#users.get(this.id) ? new UserHandle(this.#users, this.id) : undefined;
  }
  /** Developer metadata of this member (set with `createOrJoinLobby` or by the game backend). */
  get metadata(): Readonly<Record<string, string>> {
    return { ...(this.#data?.metadata ?? {}) };
  }
  /** True when the member may link a guild channel to the lobby (a flag the game backend sets). */
  get canLinkLobby(): boolean {
    return ((this.#data?.flags ?? 0) & CAN_LINK_LOBBY_FLAG) !== 0;
  }
  /** True while the member is online in the game (has a live connection). */
  get connected(): boolean {
    return this.#data?.connected ?? false;
  }
  /** The member's additional display name (e.g. a character name), set by the game backend; null when unset. */
  get additionalName(): string | null {
    return this.#data?.additionalName ?? null;
  }
  /** False once the member has left the lobby (or the lobby is gone). */
  get isMember(): boolean {
    return this.#data !== undefined;
  }

  /** A plain snapshot (what `JSON.stringify` shows). */
  toJSON(): LobbyMemberSnapshot {
    return {
      id: this.id,
      metadata: { ...this.metadata },
      canLinkLobby: this.canLinkLobby,
      connected: this.connected,
      additionalName: this.additionalName,
    };
  }
}

/** The plain form of a {@link LobbyMemberHandle}. */
export interface LobbyMemberSnapshot {
  /** The member's user id. */
  id: string;
  /** Developer metadata of this member (set with `createOrJoinLobby` or by the game backend). */
  metadata: Record<string, string>;
  /** True when the member may link a guild channel to the lobby (a flag the game backend sets). */
  canLinkLobby: boolean;
  /** True while the member is online in the game (has a live connection). */
  connected: boolean;
  /** The member's additional display name (e.g. a character name), set by the game backend; null when unset. */
  additionalName: string | null;
}
