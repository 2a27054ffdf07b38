import type { ChannelType } from '../src/chat/ChannelHandle.js';
import type {
  GuildChannel as CoreGuildChannel,
  GuildMinimal as CoreGuildMinimal,
  LinkedLobby as CoreLinkedLobby,
} from '../src/guilds/types.js';
import { idToBigInt } from './ids.js';

/** A guild the player is a member of, as the C++ SDK's `GuildMinimal`. */
export class GuildMinimal {
  readonly #core: CoreGuildMinimal;

  /** @internal Created by the client. */
  constructor(core: CoreGuildMinimal) {
    this.#core = { ...core };
  }
  /** The guild id. */
  Id(): bigint {
    return idToBigInt(this.#core.id);
  }
  /** The guild's name. */
  Name(): string {
    return this.#core.name;
  }
}

/** The lobby a channel is linked to, as the C++ SDK's `LinkedLobby`. */
export class LinkedLobby {
  readonly #core: CoreLinkedLobby;

  /** @internal Created by the client. */
  constructor(core: CoreLinkedLobby) {
    this.#core = { ...core };
  }
  /** The application that owns the lobby. */
  ApplicationId(): bigint {
    return idToBigInt(this.#core.applicationId);
  }
  /** The lobby id. */
  LobbyId(): bigint {
    return idToBigInt(this.#core.lobbyId);
  }
}

/** A channel of a guild, as the C++ SDK's `GuildChannel`. */
export class GuildChannel {
  readonly #core: CoreGuildChannel;

  /** @internal Created by the client. */
  constructor(core: CoreGuildChannel) {
    this.#core = { ...core };
  }
  /** The channel id. */
  Id(): bigint {
    return idToBigInt(this.#core.id);
  }
  /** The channel's name. */
  Name(): string {
    return this.#core.name;
  }
  /** The kind of channel. */
  Type(): ChannelType {
    return this.#core.type;
  }
  /** Its position among its siblings. */
  Position(): number {
    return this.#core.position;
  }
  /** The id of its category, if any. */
  ParentId(): bigint | undefined {
    return this.#core.parentId === null ? undefined : idToBigInt(this.#core.parentId);
  }
  /** True when the player may link it to a lobby. */
  IsLinkable(): boolean {
    return this.#core.isLinkable;
  }
  /** True when every guild member can see it and write in it. */
  IsViewableAndWriteableByAllMembers(): boolean {
    return this.#core.isViewableAndWriteableByAllMembers;
  }
  /** The lobby it is linked to, if any. */
  LinkedLobby(): LinkedLobby | undefined {
    return this.#core.linkedLobby ? new LinkedLobby(this.#core.linkedLobby) : undefined;
  }
}
