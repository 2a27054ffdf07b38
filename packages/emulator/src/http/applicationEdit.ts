import { imageField } from '../bodies/imageField.js';
import { EDITABLE_APPLICATION_FLAGS } from '../store/applicationFlags.js';
import { ALL_PERMISSIONS } from '../platform/permissions.js';
import { isKnownScope } from '../store/scopes.js';
import { MAX_APPLICATION_DESCRIPTION, MAX_APPLICATION_TAG, MAX_APPLICATION_TAGS } from '../store/schema.js';
import type { ApplicationRecord, InstallParamsRecord } from '../store/types.js';
import {
  FieldErrors,
  isRecord,
  optionalArray,
  optionalInteger,
  optionalString,
  requireObjectBody,
  shown,
  type FieldPath,
} from '../bodies/fieldErrors.js';

/** The largest icon or cover image Edit Current Application takes, decoded. */
export const MAX_APPLICATION_IMAGE_BYTES = 1024 * 1024;
/** The longest URL field. */
const MAX_URL = 2048;
/** How many scopes an install link may ask for. */
const MAX_INSTALL_SCOPES = 16;

/**
 * Fields the platform takes that the emulator cannot honour through this endpoint: refused by name rather
 * than dropped as unknown, so a test never believes such a setting took. The webhook events URL is the
 * `webhookEventsUrl` option (`--webhook-events-url`).
 */
const REFUSED_FIELDS = ['event_webhooks_url', 'event_webhooks_status', 'event_webhooks_types'] as const;

/** The application record's fields an edit sets: those the body named and that passed the checks. */
export type ApplicationEdit = Partial<
  Pick<
    ApplicationRecord,
    | 'description'
    | 'icon'
    | 'coverImage'
    | 'tags'
    | 'customInstallUrl'
    | 'roleConnectionsVerificationUrl'
    | 'installParams'
    | 'installContexts'
    | 'interactionsEndpointUrl'
  >
> & {
  /** The new application flags, when the body set them (the route turns them into privileged intents). */
  flags?: number;
};

/** A URL field: an http: or https: URL, or null (or `''`) to clear it; undefined when absent or bad. */
function urlField(errors: FieldErrors, name: string, value: unknown): string | null | undefined {
  if (value === null || value === '') return null;
  const text = optionalString(errors, [name], value, MAX_URL, 1);
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    errors.add([name], 'URL_TYPE_INVALID_URL', 'Not a well formed URL.');
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const scheme = url.protocol.slice(0, -1);
    errors.add(
      [name],
      'URL_TYPE_INVALID_SCHEME',
      `Scheme "${shown(scheme)}" is not supported. Scheme must be one of ('http', 'https').`,
    );
    return undefined;
  }
  return url.href;
}

function tagsField(errors: FieldErrors, value: unknown): string[] | undefined {
  if (value === null) return [];
  const list = optionalArray(errors, ['tags'], value, MAX_APPLICATION_TAGS);
  if (list === undefined) return undefined;
  const tags: string[] = [];
  list.forEach((tag, i) => {
    // optionalString reads null as absent; a null tag is a wrong type here.
    if (tag === null) {
      errors.add(['tags', i], 'BASE_TYPE_STRING', 'Must be a string.');
      return;
    }
    const text = optionalString(errors, ['tags', i], tag, MAX_APPLICATION_TAG, 1);
    if (text !== undefined) tags.push(text);
  });
  return tags.length === list.length ? tags : undefined;
}

/**
 * An install link's `{scopes, permissions}` at `path`: known scopes (`bot` not for a user install, which has
 * no server to add a bot to), and a bitfield of known permissions. Other fields are dropped.
 */
function installParamsAt(
  errors: FieldErrors,
  path: FieldPath,
  value: unknown,
  context: 'guild' | 'user' | 'any',
): InstallParamsRecord | undefined {
  if (!isRecord(value)) {
    errors.add(path, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    return undefined;
  }
  const before = errors.count;
  const list = optionalArray(errors, [...path, 'scopes'], value.scopes ?? [], MAX_INSTALL_SCOPES, 1);
  const scopes: string[] = [];
  list?.forEach((scope, i) => {
    if (typeof scope !== 'string' || !isKnownScope(scope)) {
      errors.add(
        [...path, 'scopes', i],
        'BASE_TYPE_CHOICES',
        `Value "${shown(scope)}" is not a valid scope.`,
      );
    } else if (scope === 'bot' && context === 'user') {
      errors.add([...path, 'scopes', i], 'BASE_TYPE_CHOICES', 'A user install cannot add a bot.');
    } else if (!scopes.includes(scope)) scopes.push(scope);
  });
  const bits = value.permissions ?? '0';
  const permissions =
    typeof bits === 'string' && /^[0-9]{1,20}$/.test(bits)
      ? BigInt(bits)
      : typeof bits === 'number' && Number.isSafeInteger(bits) && bits >= 0
        ? BigInt(bits)
        : undefined;
  if (permissions === undefined || (permissions & ~ALL_PERMISSIONS) !== 0n) {
    errors.add(
      [...path, 'permissions'],
      'NUMBER_TYPE_COERCE',
      `Value "${shown(bits)}" is not a bitfield of known permissions.`,
    );
  }
  if (errors.count > before || permissions === undefined) return undefined;
  return { scopes, permissions: permissions.toString() };
}

/** `integration_types_config`: keys `0` (guild install) and `1` (user install), at least one. */
function contextsField(
  errors: FieldErrors,
  value: unknown,
): ApplicationRecord['installContexts'] | undefined {
  if (!isRecord(value)) {
    errors.add(
      ['integration_types_config'],
      'DICT_TYPE_CONVERT',
      'Only dictionaries may be used in a DictType',
    );
    return undefined;
  }
  const before = errors.count;
  const contexts: ApplicationRecord['installContexts'] = {};
  for (const [key, config] of Object.entries(value)) {
    const context = key === '0' ? 'guild' : key === '1' ? 'user' : undefined;
    const path = ['integration_types_config', key];
    if (context === undefined) {
      errors.add(path, 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1).');
      continue;
    }
    if (config !== null && !isRecord(config)) {
      errors.add(path, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
      continue;
    }
    const params = config?.oauth2_install_params;
    if (params === undefined || params === null) contexts[context] = null;
    else {
      const checked = installParamsAt(errors, [...path, 'oauth2_install_params'], params, context);
      if (checked) contexts[context] = checked;
    }
  }
  if (errors.count === before && contexts.guild === undefined && contexts.user === undefined) {
    errors.add(['integration_types_config'], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
  }
  return errors.count > before ? undefined : contexts;
}

/**
 * Flags: only the limited intent flags may change (the platform's rule); the other bits must be as they are,
 * so a client that sends back the flags it read with one bit toggled is understood.
 */
function flagsField(errors: FieldErrors, value: unknown, current: number): number | undefined {
  const flags = optionalInteger(errors, ['flags'], value, 0, 2 ** 31 - 1);
  if (flags === undefined) return undefined;
  if (((flags ^ current) & ~EDITABLE_APPLICATION_FLAGS) !== 0) {
    errors.add(
      ['flags'],
      'BASE_TYPE_CHOICES',
      'Only GATEWAY_PRESENCE_LIMITED, GATEWAY_GUILD_MEMBERS_LIMITED and GATEWAY_MESSAGE_CONTENT_LIMITED may change.',
    );
    return undefined;
  }
  return flags;
}

/**
 * Reads an Edit Current Application body: the fields the platform lets an application edit, each checked,
 * every problem reported together as 400 50035. Fields it does not know are dropped; those it knows but the
 * emulator cannot set here are refused. `interactions_endpoint_url` is only read here: the route checks the
 * endpoint before it is set. `flags` is against `currentFlags`, the application's flags now.
 */
export function readApplicationEdit(body: unknown, currentFlags: number): ApplicationEdit {
  const b = requireObjectBody(body);
  const errors = new FieldErrors();
  const edit: ApplicationEdit = {};
  const has = (name: string): boolean => Object.hasOwn(b, name) && b[name] !== undefined;
  for (const name of REFUSED_FIELDS) {
    if (has(name)) {
      errors.add(
        [name],
        'BASE_TYPE_CHOICES',
        'The emulator sets the webhook events URL at start (--webhook-events-url), not through this endpoint.',
      );
    }
  }
  if (has('description')) {
    const text =
      b.description === null
        ? ''
        : optionalString(errors, ['description'], b.description, MAX_APPLICATION_DESCRIPTION);
    if (text !== undefined) edit.description = text;
  }
  for (const [name, key] of [
    ['icon', 'icon'],
    ['cover_image', 'coverImage'],
  ] as const) {
    if (!has(name)) continue;
    const hash = imageField(errors, [name], b[name], MAX_APPLICATION_IMAGE_BYTES);
    if (hash !== undefined) edit[key] = hash;
  }
  if (has('tags')) {
    const tags = tagsField(errors, b.tags);
    if (tags !== undefined) edit.tags = tags;
  }
  for (const [name, key] of [
    ['custom_install_url', 'customInstallUrl'],
    ['role_connections_verification_url', 'roleConnectionsVerificationUrl'],
    ['interactions_endpoint_url', 'interactionsEndpointUrl'],
  ] as const) {
    if (!has(name)) continue;
    const url = urlField(errors, name, b[name]);
    if (url !== undefined) edit[key] = url;
  }
  if (has('install_params')) {
    const params =
      b.install_params === null ? null : installParamsAt(errors, ['install_params'], b.install_params, 'any');
    if (params !== undefined) edit.installParams = params;
  }
  if (has('integration_types_config')) {
    const contexts = contextsField(errors, b.integration_types_config);
    if (contexts !== undefined) edit.installContexts = contexts;
  }
  if (has('flags')) {
    const flags = flagsField(errors, b.flags, currentFlags);
    if (flags !== undefined) edit.flags = flags;
  }
  errors.finish();
  return edit;
}
