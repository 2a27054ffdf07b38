import { TypedEmitter } from '@sdkpp/protocol';
import type { EmulatorLog } from '../log.js';
import { compareIds } from '../snowflake.js';
import type {
  AutoModRuleRecord,
  GuildEmojiRecord,
  GuildRecord,
  GuildStickerRecord,
  ScheduledEventRecord,
  SoundboardSoundRecord,
} from '../store/types.js';

/**
 * The most records of one kind a guild keeps, whoever adds them: a bound on memory and on the saved state
 * above the platform's own limits, which the routes check first (the admin hook has none of its own).
 */
export const MAX_RECORDS_PER_TABLE = 1000;

/** How a record changed. */
export type ResourceChange = 'create' | 'update' | 'delete';

/** Events of {@link GuildResources}; the bot gateway turns them into dispatches. */
export type GuildResourceEvents = {
  /** The guild's emoji list changed (GUILD_EMOJIS_UPDATE sends the whole list). */
  emojis: [guildId: string];
  /** The guild's sticker list changed (GUILD_STICKERS_UPDATE sends the whole list). */
  stickers: [guildId: string];
  /** A soundboard sound was made, changed or deleted (`record` is the old one when deleted). */
  sound: [change: ResourceChange, guildId: string, record: SoundboardSoundRecord];
  /** A scheduled event was made, changed or deleted. */
  scheduledEvent: [change: ResourceChange, guildId: string, record: ScheduledEventRecord];
  /** An AutoMod rule was made, changed or deleted. */
  autoModRule: [change: ResourceChange, guildId: string, record: AutoModRuleRecord];
};

/** The guild record's tables this class keeps, by the name of their field. */
interface Tables {
  emojis: GuildEmojiRecord;
  stickers: GuildStickerRecord;
  soundboardSounds: SoundboardSoundRecord;
  scheduledEvents: ScheduledEventRecord;
  autoModRules: AutoModRuleRecord;
}

/** The same tables, for the routes that look a record up by its table's name (http/resourceAccess.ts). */
export type GuildResourceTables = Tables;

/**
 * A guild's own resources, kept in its record so they leave with it and `--state` saves them: custom emoji,
 * stickers, soundboard sounds, scheduled events and AutoMod rules. Who may do what is the routes' rule; this
 * class keeps the records and announces each change.
 */
export class GuildResources extends TypedEmitter<GuildResourceEvents> {
  readonly #guild: (id: string) => GuildRecord | undefined;
  readonly #log: EmulatorLog;

  constructor(guild: (id: string) => GuildRecord | undefined, log: EmulatorLog) {
    super();
    this.#guild = guild;
    this.#log = log;
  }

  /** A table of a guild, oldest first (empty for an unknown guild). */
  list<K extends keyof Tables>(guildId: string, table: K): Tables[K][] {
    const records = (this.#guild(guildId)?.[table] ?? {}) as Record<string, Tables[K]>;
    return Object.values(records).sort((a, b) => compareIds(a.id, b.id));
  }

  /** One record of a guild's table. */
  get<K extends keyof Tables>(guildId: string, table: K, id: string): Tables[K] | undefined {
    const records = this.#guild(guildId)?.[table];
    return records && Object.hasOwn(records, id) ? (records[id] as Tables[K]) : undefined;
  }

  /**
   * Stores a new record; its event follows. Throws a `RangeError` for an unknown guild or a table at
   * {@link MAX_RECORDS_PER_TABLE}.
   */
  add<K extends keyof Tables>(guildId: string, table: K, record: Tables[K]): Tables[K] {
    const guild = this.#guild(guildId);
    if (!guild) throw new RangeError(`no guild "${guildId}"`);
    const records = (guild[table] ??= {}) as Record<string, Tables[K]>;
    if (Object.keys(records).length >= MAX_RECORDS_PER_TABLE) {
      throw new RangeError(`${guild.name} has ${MAX_RECORDS_PER_TABLE} ${table} already`);
    }
    records[record.id] = record;
    this.#log.line('guilds', `${guild.name}: ${table} ${record.id} created`);
    this.#announce('create', guildId, table, record);
    return record;
  }

  /** Changes a record in place; its event follows. */
  update<K extends keyof Tables>(
    guildId: string,
    table: K,
    record: Tables[K],
    change: Partial<Tables[K]>,
  ): void {
    Object.assign(record, change);
    this.#announce('update', guildId, table, record);
  }

  /** Deletes a record; its event follows. Returns whether it was there. */
  delete(guildId: string, table: keyof Tables, id: string): boolean {
    const records = this.#guild(guildId)?.[table] as Record<string, Tables[keyof Tables]> | undefined;
    const record = records && Object.hasOwn(records, id) ? records[id] : undefined;
    if (!records || !record) return false;
    Reflect.deleteProperty(records, id);
    this.#announce('delete', guildId, table, record);
    return true;
  }

  #announce(
    change: ResourceChange,
    guildId: string,
    table: keyof Tables,
    record: Tables[keyof Tables],
  ): void {
    if (table === 'emojis') this.emit('emojis', guildId);
    else if (table === 'stickers') this.emit('stickers', guildId);
    else if (table === 'soundboardSounds')
      this.emit('sound', change, guildId, record as SoundboardSoundRecord);
    else if (table === 'scheduledEvents')
      this.emit('scheduledEvent', change, guildId, record as ScheduledEventRecord);
    else this.emit('autoModRule', change, guildId, record as AutoModRuleRecord);
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#log.line(
      'guilds',
      `a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
