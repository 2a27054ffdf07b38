import { ValidationError } from '@sdkpp/protocol';
import { ActivityGamePlatforms, SETTABLE_ACTIVITY_TYPES, type Activity } from './Activity.js';

/** Limits from the platform's activity rules (wire-protocols §1.10, §3.5). */
const LIMITS = {
  text: 128,
  url: 256,
  buttonLabel: 32,
  buttonUrl: 512,
  buttons: 2,
  partyId: [2, 128],
} as const;
/** Below this a timestamp is taken to be in seconds (the guides pass `time(nullptr)`); above, in ms. */
const SECONDS_THRESHOLD = 1e12;

function text(field: string, value: string | undefined, min = 1, max: number = LIMITS.text): void {
  // An empty string means "not set", as the serialisation omits it.
  if (value === undefined || value === '') return;
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    throw new ValidationError(`activity.${field} must be ${min}–${max} characters`);
  }
}

function url(field: string, value: string | undefined, max: number = LIMITS.url): void {
  if (value === undefined || value === '') return;
  text(field, value, 1, max);
  if (!/^https?:\/\/[^\s]+$/i.test(value))
    throw new ValidationError(`activity.${field} must be an http(s) URL`);
}

function timestamp(field: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0)
    throw new ValidationError(`activity.timestamps.${field} must be a Unix time`);
  return value < SECONDS_THRESHOLD ? Math.round(value * 1000) : Math.round(value);
}

/** The wire names of {@link ActivityGamePlatforms}, by flag. */
const PLATFORM_NAMES: readonly [ActivityGamePlatforms, string][] = [
  [ActivityGamePlatforms.Desktop, 'desktop'],
  [ActivityGamePlatforms.Xbox, 'xbox'],
  [ActivityGamePlatforms.Samsung, 'samsung'],
  [ActivityGamePlatforms.IOS, 'ios'],
  [ActivityGamePlatforms.Android, 'android'],
  [ActivityGamePlatforms.Embedded, 'embedded'],
  [ActivityGamePlatforms.PS4, 'ps4'],
  [ActivityGamePlatforms.PS5, 'ps5'],
];
const ALL_PLATFORMS = PLATFORM_NAMES.reduce((all, [flag]) => all | flag, 0);

/** The wire list of platform flags (`supported_platforms`). */
export function platformsToWire(flags: number): string[] {
  return PLATFORM_NAMES.filter(([flag]) => (flags & flag) !== 0).map(([, name]) => name);
}

/** Platform flags from a wire list; unknown names are left out, and a list of none gives undefined. */
export function platformsFromWire(value: unknown): number | undefined {
  if (!Array.isArray(value)) return undefined;
  const flags = PLATFORM_NAMES.reduce((all, [flag, name]) => (value.includes(name) ? all | flag : all), 0);
  return flags === 0 ? undefined : flags;
}

/** Checks an activity against the platform's rules; throws {@link ValidationError} before any I/O. */
export function validateActivity(activity: Activity): void {
  if (activity === null || typeof activity !== 'object') {
    throw new ValidationError(
      `the activity must be an object such as { type: ActivityTypes.Playing, details: 'Ranked match' }, not ${activity === null ? 'null' : typeof activity}; clearRichPresence() clears it`,
    );
  }
  for (const key of ['assets', 'party', 'timestamps', 'secrets'] as const) {
    const value: unknown = activity[key];
    if (value !== undefined && (value === null || typeof value !== 'object'))
      throw new ValidationError(`activity.${key} must be an object when given`);
  }
  if (activity.buttons !== undefined && !Array.isArray(activity.buttons))
    throw new ValidationError('activity.buttons must be an array when given');
  if (!SETTABLE_ACTIVITY_TYPES.has(activity.type)) {
    throw new ValidationError(
      `activity.type ${String(activity.type)} cannot be set; use Playing (0), Listening (2), Watching (3) or Competing (5)`,
    );
  }
  text('name', activity.name);
  text('state', activity.state);
  text('details', activity.details);
  url('stateUrl', activity.stateUrl);
  url('detailsUrl', activity.detailsUrl);
  const assets = activity.assets;
  if (assets) {
    for (const key of ['largeImage', 'largeText', 'smallImage', 'smallText', 'inviteCoverImage'] as const) {
      text(`assets.${key}`, assets[key], 1, 256);
    }
    url('assets.largeUrl', assets.largeUrl);
    url('assets.smallUrl', assets.smallUrl);
  }
  const party = activity.party;
  if (party) {
    text('party.id', party.id, LIMITS.partyId[0], LIMITS.partyId[1]);
    const { currentSize, maxSize } = party;
    if (
      !Number.isInteger(currentSize) ||
      !Number.isInteger(maxSize) ||
      currentSize < 0 ||
      maxSize < 1 ||
      currentSize > maxSize
    ) {
      throw new ValidationError(
        'activity.party sizes must be integers with 0 ≤ currentSize ≤ maxSize and maxSize ≥ 1',
      );
    }
  }
  text('secrets.join', activity.secrets?.join);
  const buttons = activity.buttons ?? [];
  if (buttons.length > LIMITS.buttons)
    throw new ValidationError(`activity.buttons holds at most ${LIMITS.buttons} buttons`);
  buttons.forEach((button, i) => {
    text(`buttons[${i}].label`, button.label, 1, LIMITS.buttonLabel);
    url(`buttons[${i}].url`, button.url, LIMITS.buttonUrl);
  });
  timestamp('start', activity.timestamps?.start);
  timestamp('end', activity.timestamps?.end);
  const platforms = activity.supportedPlatforms;
  if (
    platforms !== undefined &&
    (!Number.isInteger(platforms) || platforms <= 0 || (platforms & ~ALL_PLATFORMS) !== 0)
  ) {
    throw new ValidationError(
      'activity.supportedPlatforms must combine ActivityGamePlatforms flags (Desktop | IOS | …)',
    );
  }
  for (const key of ['applicationId', 'parentApplicationId'] as const) {
    const id = activity[key];
    if (id !== undefined && (typeof id !== 'string' || !/^[0-9]{1,20}$/.test(id)))
      throw new ValidationError(`activity.${key} must be an application id`);
  }
}

/** Drops undefined, null, empty strings, empty arrays and empty objects, recursively (SDK 1.4 behaviour). */
export function omitEmpty(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(omitEmpty).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).flatMap(([k, v]) => {
      const kept = omitEmpty(v);
      return kept === undefined ? [] : [[k, kept] as const];
    });
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  return value === null || value === '' ? undefined : value;
}

/** The activity in the gateway's and RPC's shape, validated, with null and empty keys omitted. */
export function activityToWire(activity: Activity): Record<string, unknown> {
  validateActivity(activity);
  const { assets, party, timestamps } = activity;
  const wire = {
    name: activity.name,
    type: activity.type,
    state: activity.state,
    state_url: activity.stateUrl,
    details: activity.details,
    details_url: activity.detailsUrl,
    status_display_type: activity.statusDisplayType,
    assets: assets && {
      large_image: assets.largeImage,
      large_text: assets.largeText,
      large_url: assets.largeUrl,
      small_image: assets.smallImage,
      small_text: assets.smallText,
      small_url: assets.smallUrl,
      invite_cover_image: assets.inviteCoverImage,
    },
    party: party && { id: party.id, size: [party.currentSize, party.maxSize], privacy: party.privacy },
    secrets: activity.secrets && { join: activity.secrets.join },
    timestamps: timestamps && {
      start: timestamp('start', timestamps.start),
      end: timestamp('end', timestamps.end),
    },
    buttons: activity.buttons?.map((b) => ({ label: b.label, url: b.url })),
    supported_platforms:
      activity.supportedPlatforms === undefined ? undefined : platformsToWire(activity.supportedPlatforms),
  };
  return (omitEmpty(wire) ?? { type: activity.type }) as Record<string, unknown>;
}
