import type { EmulatorStore } from '../store/Store.js';
import type { ChannelMessageRecord, GuildRecord } from '../store/types.js';
import type { EmulatorChannelMessage, EmulatorGuild, EmulatorGuildChannelSpec } from '../types.js';
import type { Guilds, NewGuildChannel } from './Guilds.js';
import { MEMBER_PERMISSIONS } from './permissions.js';

/**
 * The guild admin hooks of the Emulator interface: they take usernames or ids and decimal strings or bigints,
 * check them, and call {@link Guilds}. Kept apart so Emulator.ts stays a list of one-line delegations.
 */
export class GuildAdmin {
  readonly #store: EmulatorStore;
  readonly #guilds: Guilds;

  constructor(store: EmulatorStore, guilds: Guilds) {
    this.#store = store;
    this.#guilds = guilds;
  }

  /** See {@link Emulator.guilds}. */
  list(): EmulatorGuild[] {
    return this.#guilds.all().map((g) => this.#view(g));
  }

  /** See {@link Emulator.createGuild}. */
  create(options: {
    name: string;
    owner: string;
    members?: (string | { user: string; permissions?: string | bigint })[];
    channels?: EmulatorGuildChannelSpec[];
  }): EmulatorGuild {
    const ownerId = this.#userId(options.owner);
    const members = (options.members ?? []).map((m) =>
      typeof m === 'string'
        ? { userId: this.#userId(m), permissions: MEMBER_PERMISSIONS }
        : { userId: this.#userId(m.user), permissions: bits(m.permissions) },
    );
    const channels = options.channels?.map((c): NewGuildChannel => ({
      name: c.name,
      ...(c.type === undefined ? {} : { type: c.type }),
      ...(c.position === undefined ? {} : { position: c.position }),
      ...(c.parent === undefined ? {} : { parent: c.parent }),
      overwrites: (c.overwrites ?? []).map((o) => ({
        id: o.target === '@everyone' ? '@everyone' : this.#userId(o.target),
        type: o.target === '@everyone' ? 0 : 1,
        allow: bits(o.allow ?? 0n),
        deny: bits(o.deny ?? 0n),
      })),
    }));
    const guild = this.#guilds.create({
      name: options.name,
      ownerId,
      members,
      ...(channels ? { channels } : {}),
    });
    return this.#view(guild);
  }

  /** See {@link Emulator.addGuildMember}. */
  addMember(guildId: string, user: string, options: { permissions?: string | bigint } = {}): void {
    this.#guilds.addMember(guildId, this.#userId(user), bits(options.permissions));
  }

  /** See {@link Emulator.postChannelMessage}. */
  post(channelId: string, user: string, content: string): EmulatorChannelMessage {
    return messageView(this.#guilds.post(channelId, this.#userId(user), content));
  }

  /** See {@link Emulator.channelMessages}. */
  messages(channelId: string): EmulatorChannelMessage[] {
    return this.#guilds.messages(channelId).map(messageView);
  }

  #userId(idOrName: string): string {
    const user = typeof idOrName === 'string' ? this.#store.findUser(idOrName) : undefined;
    if (!user || user.bot) throw new RangeError(`no user "${idOrName}"`);
    return user.id;
  }

  #view(guild: GuildRecord): EmulatorGuild {
    return {
      id: guild.id,
      name: guild.name,
      ownerId: guild.ownerId,
      members: { ...guild.members },
      channels: this.#guilds.channelsOf(guild.id).map((c) => ({
        id: c.id,
        name: c.name,
        type: c.type,
        position: c.position,
        parentId: c.parentId,
        overwrites: c.overwrites.map((o) => ({ ...o })),
      })),
    };
  }
}

/** A bitfield from a decimal string or a bigint; VIEW_CHANNEL | SEND_MESSAGES when absent. */
function bits(value: string | bigint | undefined): bigint {
  if (value === undefined) return MEMBER_PERMISSIONS;
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) return BigInt(value);
  throw new RangeError(`permissions must be a non-negative bigint or decimal string, got ${String(value)}`);
}

function messageView(m: ChannelMessageRecord): EmulatorChannelMessage {
  return {
    id: m.id,
    channelId: m.channelId,
    authorId: m.authorId,
    content: m.content,
    fromLobbyId: m.fromLobbyId,
    timestamp: new Date(m.createdAt).toISOString(),
  };
}
