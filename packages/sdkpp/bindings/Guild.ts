import {
  ChannelType,
  type GuildChannel as CoreGuildChannel,
  type GuildMinimal as CoreGuildMinimal,
  type LinkedLobby as CoreLinkedLobby,
} from '../src/index.js';
import { idToBigInt, idToString, type Uint64Like } from './ids.js';

/**
 * A guild the player is a member of, as the C++ SDK's `GuildMinimal`: a value struct, so it has setters too
 * (for building one in a test or a mock; the client's answers are copies).
 */
export class GuildMinimal {
  readonly #core: CoreGuildMinimal;

  /** An empty guild, or (from the client) a copy of one it fetched. */
  constructor(core: CoreGuildMinimal = { id: '0', name: '' }) {
    this.#core = { ...core };
  }
  /** The guild id. */
  Id(): bigint {
    return idToBigInt(this.#core.id);
  }
  /** Sets the guild id. */
  SetId(value: Uint64Like): void {
    this.#core.id = idToString(value);
  }
  /** The guild's name. */
  Name(): string {
    return this.#core.name;
  }
  /** Sets the guild's name. */
  SetName(value: string): void {
    this.#core.name = value;
  }
}

/** The lobby a channel is linked to, as the C++ SDK's `LinkedLobby` (a value struct). */
export class LinkedLobby {
  readonly #core: CoreLinkedLobby;

  /** An empty link, or (from the client) a copy of one it fetched. */
  constructor(core: CoreLinkedLobby = { applicationId: '0', lobbyId: '0' }) {
    this.#core = { ...core };
  }
  /** The application that owns the lobby. */
  ApplicationId(): bigint {
    return idToBigInt(this.#core.applicationId);
  }
  /** Sets the application that owns the lobby. */
  SetApplicationId(value: Uint64Like): void {
    this.#core.applicationId = idToString(value);
  }
  /** The lobby id. */
  LobbyId(): bigint {
    return idToBigInt(this.#core.lobbyId);
  }
  /** Sets the lobby id. */
  SetLobbyId(value: Uint64Like): void {
    this.#core.lobbyId = idToString(value);
  }
  /** @internal The plain value, for copying into a `GuildChannel`. */
  toCore(): CoreLinkedLobby {
    return { ...this.#core };
  }
}

/** A channel of a guild, as the C++ SDK's `GuildChannel` (a value struct). */
export class GuildChannel {
  readonly #core: CoreGuildChannel;

  /** An empty channel, or (from the client) a copy of one it fetched. */
  constructor(
    core: CoreGuildChannel = {
      id: '0',
      name: '',
      type: ChannelType.GuildText,
      position: 0,
      parentId: null,
      isLinkable: false,
      isViewableAndWriteableByAllMembers: false,
      linkedLobby: null,
    },
  ) {
    this.#core = { ...core, linkedLobby: core.linkedLobby && { ...core.linkedLobby } };
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
  /** The kind of channel. */
  Type(): ChannelType {
    return this.#core.type;
  }
  /** Sets the kind of channel. */
  SetType(value: ChannelType): void {
    this.#core.type = value;
  }
  /** Its position among its siblings. */
  Position(): number {
    return this.#core.position;
  }
  /** Sets its position among its siblings. */
  SetPosition(value: number): void {
    this.#core.position = value;
  }
  /** The id of its category, if any. */
  ParentId(): bigint | undefined {
    return this.#core.parentId === null ? undefined : idToBigInt(this.#core.parentId);
  }
  /** Sets the id of its category; undefined for none. */
  SetParentId(value: Uint64Like | undefined): void {
    this.#core.parentId = value === undefined ? null : idToString(value);
  }
  /** True when the player may link it to a lobby. */
  IsLinkable(): boolean {
    return this.#core.isLinkable;
  }
  /** Sets whether the player may link it to a lobby. */
  SetIsLinkable(value: boolean): void {
    this.#core.isLinkable = value;
  }
  /** True when every guild member can see it and write in it. */
  IsViewableAndWriteableByAllMembers(): boolean {
    return this.#core.isViewableAndWriteableByAllMembers;
  }
  /** Sets whether every guild member can see it and write in it. */
  SetIsViewableAndWriteableByAllMembers(value: boolean): void {
    this.#core.isViewableAndWriteableByAllMembers = value;
  }
  /** The lobby it is linked to, if any. */
  LinkedLobby(): LinkedLobby | undefined {
    return this.#core.linkedLobby ? new LinkedLobby(this.#core.linkedLobby) : undefined;
  }
  /** Sets the lobby it is linked to; undefined for none. */
  SetLinkedLobby(value: LinkedLobby | undefined): void {
    this.#core.linkedLobby = value ? value.toCore() : null;
  }
}
