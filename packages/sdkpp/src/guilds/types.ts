import type { ChannelType } from '../chat/ChannelHandle.js';

/** A guild (server) the player is a member of, with channels that may be linked to a lobby. */
export interface GuildMinimal {
  /** The guild id. */
  id: string;
  /** The guild's name. */
  name: string;
}

/** The lobby a guild channel is linked to. */
export interface LinkedLobby {
  /** The application that owns the lobby. */
  applicationId: string;
  /** The lobby id. */
  lobbyId: string;
}

/** A channel of a guild the player can see, as the lobby-linking screen needs it. */
export interface GuildChannel {
  /** The channel id. */
  id: string;
  /** The channel's name. */
  name: string;
  /** The kind of channel (text, voice, category, …). */
  type: ChannelType;
  /** Its position among its siblings in the guild's channel list. */
  position: number;
  /** The id of the category it sits in, or null at the top level. */
  parentId: string | null;
  /** True when the player may link this channel to a lobby. */
  isLinkable: boolean;
  /** True when every member of the guild can see and write in it ("fully public"). */
  isViewableAndWriteableByAllMembers: boolean;
  /** The lobby it is linked to, or null. */
  linkedLobby: LinkedLobby | null;
}
