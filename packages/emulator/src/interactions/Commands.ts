import type { EmulatorLog } from '../log.js';
import { ApiError } from '../platform/errors.js';
import { compareIds } from '../snowflake.js';
import type { EmulatorStore } from '../store/Store.js';
import type { CommandRecord } from '../store/types.js';
import { CommandType, type CommandFields } from './commandBodies.js';

/** Chat input commands per scope (global, or one guild). */
export const MAX_CHAT_INPUT_COMMANDS = 100;
/** User and message context-menu commands per type and scope (the document: 15, was 5). */
export const MAX_CONTEXT_MENU_COMMANDS = 15;

function limitOf(type: CommandRecord['type']): number {
  if (type === CommandType.CHAT_INPUT) return MAX_CHAT_INPUT_COMMANDS;
  if (type === CommandType.PRIMARY_ENTRY_POINT) return 1;
  return MAX_CONTEXT_MENU_COMMANDS;
}

/** 400 50035 naming one field. */
function fieldError(field: string, code: string, message: string): ApiError {
  return new ApiError(400, 50035, 'Invalid Form Body', {
    errors: { [field]: { _errors: [{ code, message }] } },
  });
}

/**
 * The application's commands, global or per guild, with the platform's limits: 100 chat input commands and
 * 15 of each context-menu type per scope, one PRIMARY_ENTRY_POINT and only globally. Creating a command whose
 * name and type already exist in the scope replaces it, as the platform does.
 */
export class Commands {
  readonly #store: EmulatorStore;
  readonly #log: EmulatorLog;

  constructor(store: EmulatorStore, log: EmulatorLog) {
    this.#store = store;
    this.#log = log;
  }

  /** The commands of a scope (null: global), oldest first. */
  list(guildId: string | null): CommandRecord[] {
    return Object.values(this.#store.state.commands)
      .filter((c) => c.guildId === guildId)
      .sort((a, b) => compareIds(a.id, b.id));
  }

  /** A command of a scope by id. */
  get(guildId: string | null, id: string): CommandRecord | undefined {
    const all = this.#store.state.commands;
    const found = Object.hasOwn(all, id) ? all[id] : undefined;
    return found?.guildId === guildId ? found : undefined;
  }

  /** A command by id, in any scope. */
  byId(id: string): CommandRecord | undefined {
    const all = this.#store.state.commands;
    return Object.hasOwn(all, id) ? all[id] : undefined;
  }

  /**
   * Creates a command, or replaces the one of the same type and name in the scope. Returns it and whether it
   * is new. Throws 30032 past a limit, 50035 for an entry point in a guild scope or a second one.
   */
  upsert(guildId: string | null, fields: CommandFields): { command: CommandRecord; created: boolean } {
    const type = fields.type ?? CommandType.CHAT_INPUT;
    const name = fields.name ?? '';
    const scope = this.list(guildId);
    const same = scope.find((c) => c.type === type && c.name === name);
    if (type === CommandType.PRIMARY_ENTRY_POINT) {
      if (guildId !== null)
        throw fieldError(
          'type',
          'APPLICATION_COMMAND_ENTRY_POINT_GUILD',
          'Entry point commands are global only',
        );
      if (!same && scope.some((c) => c.type === type)) {
        throw fieldError(
          'type',
          'APPLICATION_COMMAND_ENTRY_POINT_EXISTS',
          'An application has at most one entry point command',
        );
      }
    }
    if (!same && scope.filter((c) => c.type === type).length >= limitOf(type)) {
      throw new ApiError(400, 30032, `Maximum number of application commands reached (${limitOf(type)})`);
    }
    if (same) {
      this.update(same, fields);
      return { command: same, created: false };
    }
    const command: CommandRecord = {
      id: this.#store.nextId(),
      guildId,
      type,
      name,
      description: fields.description ?? '',
      options: fields.options ?? [],
      defaultMemberPermissions: fields.defaultMemberPermissions ?? null,
      // The document: the app's supported installation contexts when the command is created.
      integrationTypes: fields.integrationTypes ?? this.#supportedIntegrationTypes(),
      contexts: fields.contexts ?? [0, 1, 2],
      nsfw: fields.nsfw ?? false,
      handler: fields.handler ?? null,
      version: this.#store.nextId(),
    };
    this.#store.state.commands[command.id] = command;
    this.#log.line(
      'commands',
      `${guildId === null ? 'global' : `guild ${guildId}`} command ${name} (type ${type}) registered`,
    );
    return { command, created: true };
  }

  /** The installation contexts the application supports now (0 guild, 1 user), as integration types. */
  #supportedIntegrationTypes(): number[] {
    const { installContexts } = this.#store.state.application;
    const types: number[] = [];
    if (installContexts.guild !== undefined) types.push(0);
    if (installContexts.user !== undefined) types.push(1);
    return types;
  }

  /** Changes a command (its type stays); a rename onto another command of the scope is refused. */
  update(command: CommandRecord, fields: CommandFields): void {
    if (fields.name !== undefined && fields.name !== command.name) {
      const clash = this.list(command.guildId).some(
        (c) => c.id !== command.id && c.type === command.type && c.name === fields.name,
      );
      if (clash)
        throw fieldError(
          'name',
          'APPLICATION_COMMAND_ALREADY_EXISTS',
          'A command with that name already exists',
        );
    }
    const { type: _type, ...rest } = fields;
    Object.assign(command, rest, { version: this.#store.nextId() });
  }

  /** Deletes a command. */
  delete(command: CommandRecord): void {
    Reflect.deleteProperty(this.#store.state.commands, command.id);
    this.#log.line('commands', `command ${command.name} deleted`);
  }

  /**
   * Replaces a scope's commands with `list` (bulk overwrite): commands named again keep their ids, the rest
   * go. Every limit is checked before anything changes.
   */
  overwrite(guildId: string | null, list: CommandFields[]): CommandRecord[] {
    const counts = new Map<number, number>();
    const keys = new Set<string>();
    list.forEach((fields, i) => {
      const type = fields.type ?? CommandType.CHAT_INPUT;
      const key = `${type}:${fields.name ?? ''}`;
      if (keys.has(key)) {
        throw new ApiError(400, 50035, 'Invalid Form Body', {
          errors: {
            [i]: {
              name: {
                _errors: [
                  {
                    code: 'APPLICATION_COMMAND_ALREADY_EXISTS',
                    message: 'Command names must be unique per type',
                  },
                ],
              },
            },
          },
        });
      }
      keys.add(key);
      counts.set(type, (counts.get(type) ?? 0) + 1);
    });
    for (const [type, count] of counts) {
      if (type === CommandType.PRIMARY_ENTRY_POINT && guildId !== null) {
        throw fieldError(
          'type',
          'APPLICATION_COMMAND_ENTRY_POINT_GUILD',
          'Entry point commands are global only',
        );
      }
      if (count > limitOf(type as CommandRecord['type'])) {
        throw new ApiError(
          400,
          30032,
          `Maximum number of application commands reached (${limitOf(type as CommandRecord['type'])})`,
        );
      }
    }
    // Commands not named again go first, so the limits hold at every step of the upserts.
    for (const command of this.list(guildId))
      if (!keys.has(`${command.type}:${command.name}`)) this.delete(command);
    return list.map((fields) => this.upsert(guildId, fields).command);
  }
}
