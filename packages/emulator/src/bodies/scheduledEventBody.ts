import { FieldErrors, isRecord, optionalInteger, optionalString } from './fieldErrors.js';

/** What a scheduled event body may set, as checked (absent fields are left as they are). */
export interface ScheduledEventFields {
  name?: string;
  description?: string | null;
  startsAt?: number;
  endsAt?: number | null;
  entityType?: 1 | 2 | 3;
  channelId?: string | null;
  location?: string | null;
  status?: 1 | 2 | 3 | 4;
}

/** An ISO 8601 time at `field`, or undefined (absent or null reads as `null` when `nullable`). */
function readTime(errors: FieldErrors, field: string, value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) {
    errors.add([field], 'DATE_TYPE_PARSE', 'Could not parse the ISO8601 timestamp.');
    return undefined;
  }
  return ms;
}

/**
 * Reads the fields of a Create or Modify Guild Scheduled Event body, each checked alone (lengths, kinds,
 * `privacy_level` 2 GUILD_ONLY, the only one). The rules between fields (what each entity type needs) are
 * {@link checkScheduledEvent}'s, applied to the event as it would be after the change.
 */
export function readScheduledEventBody(
  errors: FieldErrors,
  b: Record<string, unknown>,
): ScheduledEventFields {
  const name = optionalString(errors, ['name'], b.name, 100, 1);
  const description = optionalString(errors, ['description'], b.description, 1000);
  const entityType = optionalInteger(errors, ['entity_type'], b.entity_type, 1, 3) as 1 | 2 | 3 | undefined;
  const status = optionalInteger(errors, ['status'], b.status, 1, 4) as 1 | 2 | 3 | 4 | undefined;
  // GUILD_ONLY (2) is the only privacy level left; anything else is a field error.
  optionalInteger(errors, ['privacy_level'], b.privacy_level, 2, 2);
  const startsAt = readTime(errors, 'scheduled_start_time', b.scheduled_start_time);
  if (startsAt === null) errors.add(['scheduled_start_time'], 'BASE_TYPE_REQUIRED', 'This field is required');
  const endsAt = readTime(errors, 'scheduled_end_time', b.scheduled_end_time);
  let channelId: string | null | undefined;
  if (b.channel_id === null) channelId = null;
  else if (b.channel_id !== undefined) {
    if (typeof b.channel_id === 'string' && /^[0-9]{1,20}$/.test(b.channel_id)) channelId = b.channel_id;
    else errors.add(['channel_id'], 'NUMBER_TYPE_COERCE', 'Value is not snowflake.');
  }
  let location: string | null | undefined;
  if (b.entity_metadata === null) location = null;
  else if (b.entity_metadata !== undefined) {
    if (!isRecord(b.entity_metadata)) {
      errors.add(['entity_metadata'], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    } else {
      location = optionalString(errors, ['entity_metadata', 'location'], b.entity_metadata.location, 100, 1);
    }
  }
  return {
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? (b.description === null ? { description: null } : {}) : { description }),
    ...(typeof startsAt === 'number' ? { startsAt } : {}),
    ...(endsAt === undefined ? {} : { endsAt }),
    ...(entityType === undefined ? {} : { entityType }),
    ...(channelId === undefined ? {} : { channelId }),
    ...(location === undefined ? {} : { location }),
    ...(status === undefined ? {} : { status }),
  };
}

/** The event as it would be: what {@link checkScheduledEvent} judges. */
export interface ScheduledEventShape {
  name: string | undefined;
  startsAt: number | undefined;
  endsAt: number | null;
  entityType: 1 | 2 | 3 | undefined;
  channelId: string | null;
  location: string | null;
}

/**
 * The rules between fields: a name, a start time and an entity type; STAGE_INSTANCE (1) and VOICE (2) a
 * channel of that kind (`channelKind` tells a channel's type, undefined when not the guild's) and no location;
 * EXTERNAL (3) no channel, a location and an end time; an end after the start. Checks a start in the future
 * only when `newStart` (a create, or a change of the start time).
 */
export function checkScheduledEvent(
  errors: FieldErrors,
  e: ScheduledEventShape,
  channelKind: (id: string) => number | undefined,
  now: number,
  newStart: boolean,
): void {
  if (e.name === undefined) errors.add(['name'], 'BASE_TYPE_REQUIRED', 'This field is required');
  if (e.entityType === undefined) errors.add(['entity_type'], 'BASE_TYPE_REQUIRED', 'This field is required');
  if (e.startsAt === undefined) {
    errors.add(['scheduled_start_time'], 'BASE_TYPE_REQUIRED', 'This field is required');
  } else if (newStart && e.startsAt <= now) {
    errors.add(
      ['scheduled_start_time'],
      'GUILD_SCHEDULED_EVENT_SCHEDULE_PAST',
      'Cannot schedule event in the past.',
    );
  }
  if (e.endsAt !== null && e.startsAt !== undefined && e.endsAt <= e.startsAt) {
    errors.add(
      ['scheduled_end_time'],
      'GUILD_SCHEDULED_EVENT_END_BEFORE_START',
      'The end must follow the start.',
    );
  }
  if (e.entityType === 3) {
    if (e.channelId !== null)
      errors.add(['channel_id'], 'GUILD_SCHEDULED_EVENT_CHANNEL', 'Must be null for EXTERNAL.');
    if (e.location === null) {
      errors.add(['entity_metadata', 'location'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    if (e.endsAt === null) errors.add(['scheduled_end_time'], 'BASE_TYPE_REQUIRED', 'This field is required');
  } else if (e.entityType !== undefined) {
    const wanted = e.entityType === 1 ? 13 : 2;
    if (e.channelId === null) errors.add(['channel_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    else if (channelKind(e.channelId) !== wanted) {
      errors.add(
        ['channel_id'],
        'GUILD_SCHEDULED_EVENT_CHANNEL',
        e.entityType === 1
          ? 'Must be a stage channel of the guild.'
          : 'Must be a voice channel of the guild.',
      );
    }
    if (e.location !== null) {
      errors.add(
        ['entity_metadata'],
        'GUILD_SCHEDULED_EVENT_METADATA',
        'Only EXTERNAL events have a location.',
      );
    }
  }
}
