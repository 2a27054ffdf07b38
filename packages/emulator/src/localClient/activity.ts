import { readSupportedPlatforms } from '../social/activityPlatforms.js';

/** Activity types a game may set through the local client (wire-protocols §3.5). */
const SETTABLE_TYPES: ReadonlySet<unknown> = new Set([0, 2, 3, 5]);

type Fields = Record<string, unknown>;

/** Why an activity is refused; caught by {@link readActivity}. */
class ActivityProblem extends Error {}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Null stands for "not set" in the SDKs' schemas, as a missing key does. */
function given(fields: Fields, key: string): unknown {
  const value = fields[key];
  return value === null ? undefined : value;
}

function text(fields: Fields, key: string, min: number, max: number, label = key): string | undefined {
  const value = given(fields, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    throw new ActivityProblem(`"${label}" must be ${min}–${max} characters`);
  }
  return value;
}

/** A 2.1 URL field: an http(s) URL (the clients link it). */
function link(fields: Fields, key: string, max = 256, label = key): string | undefined {
  const value = text(fields, key, 1, max, label);
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ActivityProblem(`"${label}" must be an http(s) URL`);
  }
  return value;
}

function integer(fields: Fields, key: string, min: number, max: number, label = key): number | undefined {
  const value = given(fields, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ActivityProblem(`"${label}" must be an integer ${min}–${max}`);
  }
  return value;
}

function boolean(fields: Fields, key: string): boolean | undefined {
  const value = given(fields, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new ActivityProblem(`"${key}" must be true or false`);
  return value;
}

function object(fields: Fields, key: string): Fields | undefined {
  const value = given(fields, key);
  if (value === undefined) return undefined;
  if (!isFields(value)) throw new ActivityProblem(`"${key}" must be an object`);
  return value;
}

/** Keeps the keys whose value is set: the stored activity has no undefined members. */
function set(fields: Record<string, unknown>): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function timestamps(a: Fields): Fields | undefined {
  const t = object(a, 'timestamps');
  if (!t) return undefined;
  const time = (key: string): number | undefined => {
    const value = given(t, key);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ActivityProblem(`"timestamps.${key}" must be a Unix time`);
    }
    return value;
  };
  return set({ start: time('start'), end: time('end') });
}

function assets(a: Fields): Fields | undefined {
  const x = object(a, 'assets');
  if (!x) return undefined;
  const asset = (key: string): string | undefined => text(x, key, 1, 256, `assets.${key}`);
  return set({
    large_image: asset('large_image'),
    large_text: asset('large_text'),
    large_url: link(x, 'large_url', 256, 'assets.large_url'),
    small_image: asset('small_image'),
    small_text: asset('small_text'),
    small_url: link(x, 'small_url', 256, 'assets.small_url'),
    invite_cover_image: asset('invite_cover_image'),
  });
}

function party(a: Fields): Fields | undefined {
  const p = object(a, 'party');
  if (!p) return undefined;
  const size = given(p, 'size');
  if (
    size !== undefined &&
    !(
      Array.isArray(size) &&
      size.length === 2 &&
      size.every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0)
    )
  ) {
    throw new ActivityProblem('"party.size" must be [current, max]');
  }
  return set({
    id: text(p, 'id', 2, 128, 'party.id'),
    size: size === undefined ? undefined : [...(size as number[])],
    privacy: integer(p, 'privacy', 0, 1, 'party.privacy'),
  });
}

function secrets(a: Fields): Fields | undefined {
  const s = object(a, 'secrets');
  if (!s) return undefined;
  const secret = (key: string): string | undefined => text(s, key, 1, 128, `secrets.${key}`);
  return set({ join: secret('join'), spectate: secret('spectate'), match: secret('match') });
}

function buttons(a: Fields): Fields[] | undefined {
  const list = given(a, 'buttons');
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.length < 1 || list.length > 2) {
    throw new ActivityProblem('an activity has 1 or 2 buttons');
  }
  return list.map((button: unknown, i) => {
    if (!isFields(button)) throw new ActivityProblem(`"buttons[${i}]" must be an object`);
    const label = text(button, 'label', 1, 32, `buttons[${i}].label`);
    const url = link(button, 'url', 512, `buttons[${i}].url`);
    if (label === undefined || url === undefined) {
      throw new ActivityProblem(`"buttons[${i}]" needs a label and a url`);
    }
    return { label, url };
  });
}

function platforms(a: Fields): string[] | undefined {
  const read = readSupportedPlatforms(a.supported_platforms);
  if (typeof read === 'string') throw new ActivityProblem(read);
  return read;
}

/**
 * Reads a SET_ACTIVITY activity the way the desktop client does: the type (Playing, Listening, Watching or
 * Competing), field lengths, the URL fields of Embedded App SDK 2.1 (`state_url`, `details_url`,
 * `assets.large_url`, `assets.small_url`), the party, the secrets and at most two buttons. Returns a new
 * object of the fields the platform keeps, copied, or the problem. Fields it does not know are left out: they
 * would be stored, echoed and shown to others (however large or deep) while meaning nothing to anyone.
 */
export function readActivity(activity: unknown): { activity: Fields } | { problem: string } {
  if (!isFields(activity)) return { problem: '"activity" must be an object or null' };
  const a = activity;
  const type = given(a, 'type') ?? 0;
  if (!SETTABLE_TYPES.has(type)) return { problem: 'activity type must be 0, 2, 3 or 5' };
  try {
    return {
      activity: set({
        type,
        name: text(a, 'name', 1, 128),
        state: text(a, 'state', 2, 128),
        state_url: link(a, 'state_url'),
        details: text(a, 'details', 2, 128),
        details_url: link(a, 'details_url'),
        status_display_type: integer(a, 'status_display_type', 0, 2),
        timestamps: timestamps(a),
        assets: assets(a),
        party: party(a),
        secrets: secrets(a),
        instance: boolean(a, 'instance'),
        supported_platforms: platforms(a),
        flags: integer(a, 'flags', 0, 0x7fffffff),
        buttons: buttons(a),
      }),
    };
  } catch (error) {
    if (error instanceof ActivityProblem) return { problem: error.message };
    throw error;
  }
}
