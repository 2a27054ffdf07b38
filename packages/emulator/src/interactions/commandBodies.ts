import {
  FieldErrors,
  isRecord,
  optionalArray,
  optionalBoolean,
  optionalInteger,
  optionalString,
  type FieldPath,
  requireObjectBody,
} from '../bodies/fieldErrors.js';
import { checkFileTypes } from '../bodies/fileTypes.js';
import { keepCommandOptionFields } from '../bodies/knownFields.js';
import type { CommandRecord } from '../store/types.js';

/** Command types. */
export const CommandType = { CHAT_INPUT: 1, USER: 2, MESSAGE: 3, PRIMARY_ENTRY_POINT: 4 } as const;

/** Entry point command handlers (the document's constant names). */
export const EntryPointHandler = { APP_HANDLER: 1, DISCORD_LAUNCH_ACTIVITY: 2 } as const;

/** Option types of chat input commands. */
export const OptionType = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;

/** A chat input command's or option's name: lowercase letters, digits, `-` and `_`, 1–32 of them. */
const NAME = /^[-_'\p{Ll}\p{Lo}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** What a create or edit body holds once checked; absent fields stay undefined. */
export type CommandFields = Partial<Omit<CommandRecord, 'id' | 'guildId' | 'version'>>;

function checkOptions(
  errors: FieldErrors,
  value: unknown,
  path: FieldPath,
  depth: number,
): unknown[] | undefined {
  const list = optionalArray(errors, path, value, 25);
  if (!list) return undefined;
  const names = new Set<string>();
  let sawOptional = false;
  list.forEach((option, i) => {
    const at = [...path, i];
    if (!isRecord(option)) {
      errors.add(at, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
      return;
    }
    const type = optionalInteger(errors, [...at, 'type'], option.type, 1, 11);
    if (type === undefined && option.type === undefined)
      errors.add([...at, 'type'], 'BASE_TYPE_REQUIRED', 'This field is required');
    const name = optionalString(errors, [...at, 'name'], option.name, 32, 1);
    if (name === undefined && option.name === undefined)
      errors.add([...at, 'name'], 'BASE_TYPE_REQUIRED', 'This field is required');
    if (name !== undefined && !NAME.test(name)) {
      errors.add([...at, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    }
    if (name !== undefined && names.has(name)) {
      errors.add(
        [...at, 'name'],
        'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
        'Option names must be unique',
      );
    }
    if (name !== undefined) names.add(name);
    const description = optionalString(errors, [...at, 'description'], option.description, 100, 1);
    if (description === undefined && option.description === undefined) {
      errors.add([...at, 'description'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    const required = optionalBoolean(errors, [...at, 'required'], option.required) ?? false;
    if (required && sawOptional) {
      errors.add(
        [...at, 'required'],
        'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
        'Required options must be placed before non-required options',
      );
    }
    if (!required) sawOptional = true;
    if (type === OptionType.SUB_COMMAND || type === OptionType.SUB_COMMAND_GROUP) {
      if (depth >= 2 || (type === OptionType.SUB_COMMAND_GROUP && depth >= 1)) {
        errors.add(
          [...at, 'type'],
          'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
          'Sub-commands nest at most two levels',
        );
      }
      checkOptions(errors, option.options, [...at, 'options'], depth + 1);
    }
    optionalArray(errors, [...at, 'choices'], option.choices, 25);
    if (option.file_types !== undefined) {
      if (type !== OptionType.ATTACHMENT) {
        errors.add(
          [...at, 'file_types'],
          'APPLICATION_COMMAND_OPTIONS_FILE_TYPES_INVALID',
          'Only attachment options have file_types',
        );
      } else checkFileTypes(errors, [...at, 'file_types'], option.file_types);
    }
  });
  // Stored and echoed as the platform would: an option's own fields only, whatever else the client sent.
  return keepCommandOptionFields(list);
}

/**
 * Checks a command body the platform's way: names of 1–32 characters (lowercase for chat input), a 1–100
 * character description for chat input and none for context menus, ≤ 25 options with required ones first,
 * and the entry point's `handler`. `existing` is the command being edited (PATCH), whose type stays.
 */
export function checkCommandBody(body: unknown, existing?: CommandRecord): CommandFields {
  const b = requireObjectBody(body);
  const errors = new FieldErrors();
  const type = (existing?.type ??
    optionalInteger(errors, ['type'], b.type, 1, 4) ??
    CommandType.CHAT_INPUT) as CommandRecord['type'];
  const name = optionalString(errors, ['name'], b.name, 32, 1);
  if (!existing && name === undefined && b.name === undefined)
    errors.add(['name'], 'BASE_TYPE_REQUIRED', 'This field is required');
  if (name !== undefined && type === CommandType.CHAT_INPUT && !NAME.test(name)) {
    errors.add(['name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
  }
  let description: string | undefined;
  if (type === CommandType.CHAT_INPUT) {
    description = optionalString(errors, ['description'], b.description, 100, 1);
    if (!existing && description === undefined && b.description === undefined) {
      errors.add(['description'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
  } else if (type === CommandType.PRIMARY_ENTRY_POINT) {
    description = optionalString(errors, ['description'], b.description, 100);
  } else if (b.description !== undefined && b.description !== '' && b.description !== null) {
    errors.add(
      ['description'],
      'APPLICATION_COMMAND_DESCRIPTION_INVALID',
      'Only chat input commands have a description',
    );
  }
  const options =
    type === CommandType.CHAT_INPUT ? checkOptions(errors, b.options, ['options'], 0) : undefined;
  if (type !== CommandType.CHAT_INPUT && Array.isArray(b.options) && b.options.length > 0) {
    errors.add(['options'], 'APPLICATION_COMMAND_OPTIONS_INVALID', 'Only chat input commands have options');
  }
  let defaultMemberPermissions: string | null | undefined;
  if (Object.hasOwn(b, 'default_member_permissions')) {
    const v = b.default_member_permissions;
    if (v === null) defaultMemberPermissions = null;
    else if (typeof v === 'string' && /^[0-9]{1,20}$/.test(v)) defaultMemberPermissions = v;
    else
      errors.add(
        ['default_member_permissions'],
        'NUMBER_TYPE_COERCE',
        'Must be a permissions bitfield string or null.',
      );
  }
  const ints = (key: string, max: number): number[] | undefined => {
    const list = optionalArray(errors, [key], b[key], 3);
    if (!list) return undefined;
    list.forEach((v, i) => optionalInteger(errors, [key, i], v, 0, max));
    return list as number[];
  };
  const integrationTypes = ints('integration_types', 1);
  const contexts = ints('contexts', 2);
  const nsfw = optionalBoolean(errors, ['nsfw'], b.nsfw);
  let handler: 1 | 2 | null | undefined;
  if (type === CommandType.PRIMARY_ENTRY_POINT) {
    const h = optionalInteger(errors, ['handler'], b.handler, 1, 2);
    if (h === undefined && !existing)
      errors.add(['handler'], 'BASE_TYPE_REQUIRED', 'An entry point command needs a handler');
    handler = h as 1 | 2 | undefined;
  } else if (b.handler !== undefined) {
    errors.add(
      ['handler'],
      'APPLICATION_COMMAND_HANDLER_INVALID',
      'Only entry point commands have a handler',
    );
  }
  errors.finish();
  return {
    type,
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
    ...(options === undefined ? {} : { options }),
    ...(defaultMemberPermissions === undefined ? {} : { defaultMemberPermissions }),
    ...(integrationTypes === undefined ? {} : { integrationTypes }),
    ...(contexts === undefined ? {} : { contexts }),
    ...(nsfw === undefined ? {} : { nsfw }),
    ...(handler === undefined ? {} : { handler }),
  };
}
