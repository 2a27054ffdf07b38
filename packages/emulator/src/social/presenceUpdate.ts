import { keepActivityFields } from '../bodies/knownFields.js';
import { readSupportedPlatforms } from './activityPlatforms.js';
import type { PresenceStatus, StoredActivity } from './PresenceService.js';

/** A validated Update Presence (op 3) payload. */
export interface PresenceUpdate {
  status: PresenceStatus;
  activities: StoredActivity[];
}

const STATUSES: ReadonlySet<string> = new Set(['online', 'idle', 'dnd', 'invisible', 'offline']);
/** The platform shows at most this many activities per session. */
const MAX_ACTIVITIES = 10;
const MAX_NAME = 128;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads op 3's `d`, or returns why it is invalid. Each activity gets the server's `created_at`, and an
 * OAuth2 session's activities are always attributed to the application the token belongs to.
 */
export function parsePresenceUpdate(
  data: unknown,
  context: { applicationId: string; applicationName: string; parentApplicationId?: string; now: number },
): PresenceUpdate | string {
  if (!isObject(data)) return 'Update Presence needs an object';
  const status = data.status ?? 'online';
  if (typeof status !== 'string' || !STATUSES.has(status))
    return 'status must be online, idle, dnd, invisible or offline';
  const activities = data.activities ?? [];
  if (!Array.isArray(activities)) return '"activities" must be an array';
  if (activities.length > MAX_ACTIVITIES) return `at most ${MAX_ACTIVITIES} activities`;
  const parsed: StoredActivity[] = [];
  for (const activity of activities) {
    if (!isObject(activity)) return 'each activity must be an object';
    // The SDK may leave the name out; the platform then shows the application's name.
    const name = activity.name ?? context.applicationName;
    const type = activity.type;
    if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME) {
      return `an activity name must be 1–${MAX_NAME} characters`;
    }
    if (typeof type !== 'number' || !Number.isInteger(type) || type < 0 || type > 6) {
      return 'an activity type must be an integer 0–6';
    }
    const platforms = readSupportedPlatforms(activity.supported_platforms);
    if (typeof platforms === 'string') return platforms;
    // supported_platforms and parent_application_id are not among the kept fields: the first is the checked
    // list below, the second the platform's own (a client's is never taken).
    parsed.push({
      ...keepActivityFields(activity),
      name,
      ...(platforms ? { supported_platforms: platforms } : {}),
      application_id: context.applicationId,
      // The platform names the publisher itself; what a client sends is not trusted.
      ...(context.parentApplicationId ? { parent_application_id: context.parentApplicationId } : {}),
      created_at: context.now,
    });
  }
  return { status: status as PresenceStatus, activities: parsed };
}
