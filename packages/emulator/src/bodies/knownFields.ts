import { isRecord } from './fieldErrors.js';

/**
 * What a stored object keeps of what a client sent: `value` a string, number, boolean or null; `values` an
 * array of those; a nested shape; `{ list: shape }` an array of such objects; `component(s)` one component or
 * a list of them, each kept by its own type's shape; `options` a list of command options, each kept by the
 * option's shape; `locales` a localizations map (locale → text).
 */
type Field =
  'value' | 'values' | 'locales' | 'component' | 'components' | 'options' | Shape | { list: Shape };
interface Shape {
  readonly [key: string]: Field;
}

const IMAGE: Shape = { url: 'value', proxy_url: 'value', height: 'value', width: 'value' };
const MEDIA: Shape = { ...IMAGE, content_type: 'value', attachment_id: 'value' };
const EMOJI: Shape = { id: 'value', name: 'value', animated: 'value' };

/** The embed object's fields, as the document lists them. */
const EMBED: Shape = {
  title: 'value',
  type: 'value',
  description: 'value',
  url: 'value',
  timestamp: 'value',
  color: 'value',
  footer: { text: 'value', icon_url: 'value', proxy_icon_url: 'value' },
  image: IMAGE,
  thumbnail: IMAGE,
  video: IMAGE,
  provider: { name: 'value', url: 'value' },
  author: { name: 'value', url: 'value', icon_url: 'value', proxy_icon_url: 'value' },
  fields: { list: { name: 'value', value: 'value', inline: 'value' } },
};

const OPTION: Shape = {
  label: 'value',
  value: 'value',
  description: 'value',
  emoji: EMOJI,
  default: 'value',
};
const SELECT: Shape = {
  custom_id: 'value',
  placeholder: 'value',
  min_values: 'value',
  max_values: 'value',
  required: 'value',
  disabled: 'value',
  default_values: { list: { id: 'value', type: 'value' } },
};

/** Each component type's fields beyond `type` and `id`, by the platform's type number. */
const COMPONENTS: Readonly<Record<number, Shape>> = {
  1: { components: 'components' },
  2: {
    style: 'value',
    label: 'value',
    emoji: EMOJI,
    custom_id: 'value',
    sku_id: 'value',
    url: 'value',
    disabled: 'value',
  },
  3: { ...SELECT, options: { list: OPTION } },
  4: {
    custom_id: 'value',
    style: 'value',
    label: 'value',
    min_length: 'value',
    max_length: 'value',
    required: 'value',
    value: 'value',
    placeholder: 'value',
  },
  5: SELECT,
  6: SELECT,
  7: SELECT,
  8: { ...SELECT, channel_types: 'values' },
  9: { components: 'components', accessory: 'component' },
  10: { content: 'value' },
  11: { media: MEDIA, description: 'value', spoiler: 'value' },
  12: { items: { list: { media: MEDIA, description: 'value', spoiler: 'value' } } },
  13: { file: MEDIA, spoiler: 'value', name: 'value', size: 'value' },
  14: { divider: 'value', spacing: 'value' },
  17: { components: 'components', accent_color: 'value', spoiler: 'value' },
  18: { label: 'value', description: 'value', component: 'component' },
  19: {
    custom_id: 'value',
    min_values: 'value',
    max_values: 'value',
    required: 'value',
    file_types: 'values',
  },
  21: { custom_id: 'value', options: { list: OPTION }, required: 'value' },
  22: {
    custom_id: 'value',
    options: { list: OPTION },
    required: 'value',
    min_values: 'value',
    max_values: 'value',
  },
  23: { custom_id: 'value', default: 'value' },
};

/** An application command option (and a sub-command's, recursively), as the document lists its fields. */
const COMMAND_OPTION: Shape = {
  type: 'value',
  name: 'value',
  name_localizations: 'locales',
  description: 'value',
  description_localizations: 'locales',
  required: 'value',
  choices: { list: { name: 'value', name_localizations: 'locales', value: 'value' } },
  options: 'options',
  channel_types: 'values',
  min_value: 'value',
  max_value: 'value',
  min_length: 'value',
  max_length: 'value',
  autocomplete: 'value',
  file_types: 'values',
};

/** An activity of a gateway presence update (op 3), as the document lists its fields. */
const ACTIVITY: Shape = {
  name: 'value',
  type: 'value',
  url: 'value',
  state: 'value',
  state_url: 'value',
  details: 'value',
  details_url: 'value',
  status_display_type: 'value',
  timestamps: { start: 'value', end: 'value' },
  emoji: EMOJI,
  party: { id: 'value', size: 'values', privacy: 'value' },
  assets: {
    large_image: 'value',
    large_text: 'value',
    large_url: 'value',
    small_image: 'value',
    small_text: 'value',
    small_url: 'value',
    invite_cover_image: 'value',
  },
  secrets: { join: 'value', spectate: 'value', match: 'value' },
  instance: 'value',
  flags: 'value',
  platform: 'value',
  buttons: { list: { label: 'value', url: 'value' } },
};

/** A locale as the platform spells them: `fr`, `en-US`, `es-419`. */
const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,3})?$/;

function keepLocales(value: unknown): Record<string, string> | null | undefined {
  if (value === null) return null;
  if (!isRecord(value)) return undefined;
  const kept: Record<string, string> = {};
  for (const [locale, text] of Object.entries(value)) {
    // The key test also keeps out `__proto__`, which an assignment would take as the object's prototype.
    if (LOCALE.test(locale) && typeof text === 'string') kept[locale] = text;
  }
  return kept;
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function keepField(field: Field, value: unknown): unknown {
  if (field === 'value') return isScalar(value) ? value : undefined;
  if (field === 'values') return Array.isArray(value) ? value.filter(isScalar) : undefined;
  if (field === 'locales') return keepLocales(value);
  if (field === 'options') return Array.isArray(value) ? keepCommandOptionFields(value) : undefined;
  if (field === 'component') return keepComponent(value);
  if (field === 'components') return Array.isArray(value) ? value.map(keepComponent) : undefined;
  if ('list' in field && typeof field.list === 'object') {
    const shape = field.list;
    return Array.isArray(value) ? value.map((item) => keepShape(shape, item)) : undefined;
  }
  return keepShape(field, value);
}

function keepShape(shape: Shape, value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    if (!Object.hasOwn(value, key)) continue;
    const v = keepField(field, value[key]);
    if (v !== undefined) kept[key] = v;
  }
  return kept;
}

function keepComponent(value: unknown): unknown {
  if (!isRecord(value) || typeof value.type !== 'number') return undefined;
  const kept = keepShape(COMPONENTS[value.type] ?? {}, value) ?? {};
  return { type: value.type, ...(typeof value.id === 'number' ? { id: value.id } : {}), ...kept };
}

/**
 * A message's checked `embeds` with only the fields an embed has: what a client adds besides is dropped, not
 * stored or echoed back (the platform keeps only its own fields, and an unknown field could hold anything).
 */
export function keepEmbedFields(embeds: readonly unknown[]): Record<string, unknown>[] {
  return embeds.map((embed) => keepShape(EMBED, embed) ?? {});
}

/** Checked components with only each type's own fields, nested components included (see keepEmbedFields). */
export function keepComponentFields(components: readonly unknown[]): unknown[] {
  return components.map(keepComponent);
}

/** Checked command options with only an option's own fields, sub-commands' options included. */
export function keepCommandOptionFields(options: readonly unknown[]): Record<string, unknown>[] {
  return options.map((option) => keepShape(COMMAND_OPTION, option) ?? {});
}

/**
 * A presence update's activity with only an activity's own fields: what a session adds besides would be
 * stored, fanned out to every friend and saved, while meaning nothing to anyone.
 */
export function keepActivityFields(activity: unknown): Record<string, unknown> {
  return keepShape(ACTIVITY, activity) ?? {};
}
