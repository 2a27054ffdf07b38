import type {
  LinkedChannel as CoreLinkedChannel,
  LobbyHandle as CoreLobbyHandle,
  LobbyMemberHandle as CoreLobbyMemberHandle,
} from '../src/index.js';
import { idToBigInt, idToString, type Uint64Like } from './ids.js';
import { CallInfoHandle } from './Call.js';
import { UserHandle } from './UserHandle.js';

/** The channel a lobby is linked to, as the C++ SDK's `LinkedChannel` (a value struct, with setters). */
export class LinkedChannel {
  readonly #core: CoreLinkedChannel;

  /** An empty link, or (from the client) a copy of the lobby's. */
  constructor(core: CoreLinkedChannel = { id: '0', name: '', guildId: '0' }) {
    this.#core = { ...core };
  }
  /** The channel id. */
  Id(): bigint {
    return idToBigInt(this.#core.id);
  }
  /** Sets the channel id. */
  SetId(value: Uint64Like): void {
    this.#core.id = idToString(value);
  }
  /** The channel's name. */
  Name(): string {
    return this.#core.name;
  }
  /** Sets the channel's name. */
  SetName(value: string): void {
    this.#core.name = value;
  }
  /** The guild that owns the channel. */
  GuildId(): bigint {
    return idToBigInt(this.#core.guildId);
  }
  /** Sets the guild that owns the channel. */
  SetGuildId(value: Uint64Like): void {
    this.#core.guildId = idToString(value);
  }
}

/** One member of a lobby, as the C++ SDK's `LobbyMemberHandle`; a live view. */
export class LobbyMemberHandle {
  readonly #core: CoreLobbyMemberHandle;

  /** @internal Created by the client. */
  constructor(core: CoreLobbyMemberHandle) {
    this.#core = core;
  }
  /** The member's user id. */
  Id(): bigint {
    return idToBigInt(this.#core.id);
  }
  /** The member's user, when the client knows them. */
  User(): UserHandle | undefined {
    const user = this.#core.user;
    return user ? new UserHandle(user) : undefined;
  }
  /** Developer metadata of the member. */
  Metadata(): Map<string, string> {
    return new Map(Object.entries(this.#core.metadata));
  }
  /** True when the member may link a channel to the lobby. */
  CanLinkLobby(): boolean {
    return this.#core.canLinkLobby;
  }
  /** True while the member is online in the game. */
  Connected(): boolean {
    return this.#core.connected;
  }
  /** The member's additional display name set by the game backend, if any (beyond the C++ SDK). */
  AdditionalName(): string | undefined {
    return this.#core.additionalName ?? undefined;
  }
}

/** A lobby the player is in, as the C++ SDK's `LobbyHandle`; a live view. */
export class LobbyHandle {
  readonly #core: CoreLobbyHandle;

  /** @internal Created by the client. */
  constructor(core: CoreLobbyHandle) {
    this.#core = core;
  }
  /** The lobby id. */
  Id(): bigint {
    return idToBigInt(this.#core.id);
  }
  /** Developer metadata of the lobby. */
  Metadata(): Map<string, string> {
    return new Map(Object.entries(this.#core.metadata));
  }
  /** The user ids of the members. */
  LobbyMemberIds(): bigint[] {
    return this.#core.lobbyMemberIds.map((id) => idToBigInt(id));
  }
  /** A handle per member. */
  LobbyMembers(): LobbyMemberHandle[] {
    return this.#core.lobbyMembers.map((m) => new LobbyMemberHandle(m));
  }
  /** The member with this user id, if they are a member. */
  GetLobbyMemberHandle(memberId: Uint64Like): LobbyMemberHandle | undefined {
    const member = this.#core.getLobbyMemberHandle(idToString(memberId));
    return member ? new LobbyMemberHandle(member) : undefined;
  }
  /** The lobby's call as members see it, while anyone is in it. */
  GetCallInfoHandle(): CallInfoHandle | undefined {
    const info = this.#core.getCallInfoHandle();
    return info ? new CallInfoHandle(info) : undefined;
  }
  /** The linked channel, if any. */
  LinkedChannel(): LinkedChannel | undefined {
    const channel = this.#core.linkedChannel;
    return channel ? new LinkedChannel(channel) : undefined;
  }
}
