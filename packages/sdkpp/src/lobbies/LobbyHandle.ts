import type { CallInfoHandle } from '../voice/call/CallInfoHandle.js';
import type { UserStore } from '../social/UserStore.js';
import { LobbyMemberHandle, type LobbyMemberSnapshot } from './LobbyMemberHandle.js';
import type { LinkedChannel, LobbyData } from './wireLobby.js';

/**
 * A live, read-only view of a lobby the player is a member of: its metadata, members and linked channel,
 * kept current from the gateway. After the player leaves (or the lobby is deleted) it reads as empty.
 */
export class LobbyHandle {
  readonly #lobby: () => LobbyData | undefined;
  readonly #users: UserStore;
  readonly #callInfo: (lobbyId: string) => CallInfoHandle | undefined;
  /** The lobby id. */
  readonly id: string;

  /** @internal Handles are created by the client. */
  constructor(
    lobby: () => LobbyData | undefined,
    users: UserStore,
    id: string,
    callInfo: (lobbyId: string) => CallInfoHandle | undefined = () => undefined,
  ) {
    this.#lobby = lobby;
    this.#users = users;
    this.id = id;
    this.#callInfo = callInfo;
  }

  /**
   * The lobby's voice call as members see it (who is in it, their mute and deafen), whether or not the
   * player is in it; undefined while nobody is in a call here.
   */
  getCallInfoHandle(): CallInfoHandle | undefined {
    return this.isAvailable ? this.#callInfo(this.id) : undefined;
  }

  /** Developer metadata of the lobby. */
  get metadata(): Readonly<Record<string, string>> {
    return { ...(this.#lobby()?.metadata ?? {}) };
  }
  /** The user ids of the members. */
  get lobbyMemberIds(): string[] {
    return [...(this.#lobby()?.members.keys() ?? [])];
  }
  /** A handle per member. */
  get lobbyMembers(): LobbyMemberHandle[] {
    return this.lobbyMemberIds.map((id) => new LobbyMemberHandle(this.#lobby, this.#users, id));
  }
  /** The guild channel linked to this lobby, or null. */
  get linkedChannel(): LinkedChannel | null {
    const channel = this.#lobby()?.linkedChannel;
    return channel ? { ...channel } : null;
  }
  /** False once the player is no longer a member (left, removed, or the lobby was deleted). */
  get isAvailable(): boolean {
    return this.#lobby() !== undefined;
  }

  /** The member with this user id, or undefined when they are not a member. */
  getLobbyMemberHandle(memberId: string): LobbyMemberHandle | undefined {
    return this.#lobby()?.members.has(memberId)
      ? new LobbyMemberHandle(this.#lobby, this.#users, memberId)
      : undefined;
  }

  /** A plain snapshot (what `JSON.stringify` shows). */
  toJSON(): LobbySnapshot {
    return {
      id: this.id,
      metadata: { ...this.metadata },
      members: this.lobbyMembers.map((m) => m.toJSON()),
      linkedChannel: this.linkedChannel,
    };
  }
}

/** The plain form of a {@link LobbyHandle}. */
export interface LobbySnapshot {
  /** The lobby id. */
  id: string;
  /** Developer metadata of the lobby. */
  metadata: Record<string, string>;
  /** One snapshot per member. */
  members: LobbyMemberSnapshot[];
  /** The guild channel linked to this lobby, or null. */
  linkedChannel: LinkedChannel | null;
}
