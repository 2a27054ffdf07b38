import { MEMBER_PERMISSIONS } from '../platform/permissions.js';
import type { ChatMessageExtras } from './richContent.js';
import type { EmulatorStore } from '../store/Store.js';
import type { ChannelMessageRecord, GuildRecord } from '../store/types.js';
import type {
  EmulatorChannelMessage,
  EmulatorGuild,
  EmulatorGuildChannelSpec,
  EmulatorGuildRole,
} from '../types.js';
import type { Guilds, NewGuildChannel } from './Guilds.js';

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

  /** See {@link Emulator.addBotToGuild}. */
  addBot(guildId: string, options: { permissions?: string | bigint }): void {
    const bot = this.#store.botUser();
    this.#guilds.addBot(guildId, bot.id, bot.username, bits(options.permissions));
  }

  /** See {@link Emulator.createRole}. */
  createRole(guildId: string, options: { name: string; permissions?: string | bigint }): EmulatorGuildRole {
    if (!this.#guilds.guild(guildId)) throw new RangeError(`no guild "${guildId}"`);
    const role = this.#guilds.createRole(guildId, {
      name: options.name,
      permissions: bits(options.permissions ?? 0n),
    });
    return { id: role.id, name: role.name, permissions: role.permissions, managed: false, members: [] };
  }

  /** See {@link Emulator.setMemberRoles}. */
  setRoles(guildId: string, user: string, roleIds: string[]): void {
    const userId = this.#memberId(user);
    for (const id of roleIds) {
      const role = this.#guilds.role(guildId, id);
      if (!role || id === guildId || role.botId !== null)
        throw new RangeError(`no assignable role "${id}" in guild ${guildId}`);
    }
    this.#guilds.setMemberRoles(guildId, userId, roleIds);
  }

  /** See {@link Emulator.setChannelOverwrite}. */
  setOverwrite(
    channelId: string,
    target: string,
    overwrite: { allow?: string | bigint; deny?: string | bigint } | null,
  ): void {
    const channel = this.#guilds.channel(channelId);
    if (!channel) throw new RangeError(`no channel "${channelId}"`);
    const guild = this.#guilds.guild(channel.guildId);
    if (!guild) throw new RangeError(`no guild "${channel.guildId}"`);
    const [id, type] =
      target === '@everyone'
        ? [guild.id, 0 as const]
        : this.#guilds.role(guild.id, target)
          ? [target, 0 as const]
          : [this.#memberId(target), 1 as const];
    const rest = channel.overwrites.filter((o) => !(o.id === id && o.type === type));
    const next =
      overwrite === null
        ? rest
        : [
            ...rest,
            {
              id,
              type,
              allow: bits(overwrite.allow ?? 0n).toString(),
              deny: bits(overwrite.deny ?? 0n).toString(),
            },
          ];
    this.#guilds.updateChannel(channel, { overwrites: next });
  }

  /** See {@link Emulator.setGuildVoiceState}. */
  setVoiceState(guildId: string, user: string, channelId: string | null): void {
    const userId = this.#memberId(user);
    if (!this.#guilds.isMember(guildId, userId))
      throw new RangeError(`user ${user} is not a member of guild ${guildId}`);
    if (channelId !== null) {
      const channel = this.#guilds.channel(channelId);
      if (channel?.guildId !== guildId || channel.type !== 2) {
        throw new RangeError(`no voice channel "${channelId}" in guild ${guildId}`);
      }
    }
    this.#guilds.voice.set(guildId, userId, channelId);
  }

  /** See {@link Emulator.postChannelMessage}. */
  post(channelId: string, user: string, content: string, extras?: ChatMessageExtras): EmulatorChannelMessage {
    return messageView(this.#guilds.post(channelId, this.#userId(user), content, extras));
  }

  /** See {@link Emulator.channelMessages}. */
  messages(channelId: string): EmulatorChannelMessage[] {
    return this.#guilds.messages.inChannel(channelId).map(messageView);
  }

  /** A user or the bot (by id, username, or `'@bot'`). */
  #memberId(idOrName: string): string {
    if (idOrName === '@bot') return this.#store.botUser().id;
    const user = this.#store.findUser(idOrName);
    if (!user) throw new RangeError(`no user "${idOrName}"`);
    return user.id;
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
      members: Object.fromEntries(
        Object.keys(guild.members).map((id) => [id, this.#guilds.guildPermissions(guild.id, id).toString()]),
      ),
      roles: this.#guilds.rolesOf(guild.id).map((r) => ({
        id: r.id,
        name: r.name,
        permissions: r.permissions,
        managed: r.botId !== null,
        members: Object.entries(guild.members)
          .filter(([, m]) => r.id === guild.id || m.roles.includes(r.id))
          .map(([id]) => id),
      })),
      channels: this.#guilds.channelsOf(guild.id).map((c) => ({
        id: c.id,
        name: c.name,
        type: c.type,
        position: c.position,
        parentId: c.parentId,
        overwrites: c.overwrites.map((o) => ({ ...o })),
        botCanView: this.#guilds.mayView(this.#store.botUser().id, c.id),
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
