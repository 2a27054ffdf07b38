/** Activity types a game may set through the local client (wire-protocols §3.5). */
const SETTABLE_TYPES: ReadonlySet<unknown> = new Set([0, 2, 3, 5]);

function text(activity: Record<string, unknown>, key: string, min: number, max: number): string | undefined {
  const value = activity[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    return `"${key}" must be ${min}–${max} characters`;
  }
  return undefined;
}

/** A 2.1 URL field: 1–256 characters of an http(s) URL (the clients link it). */
function link(fields: Record<string, unknown>, key: string): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  const length = text(fields, key, 1, 256);
  if (length || typeof value !== 'string') return length;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  return url && (url.protocol === 'https:' || url.protocol === 'http:')
    ? undefined
    : `"${key}" must be an http(s) URL`;
}

/**
 * Checks a SET_ACTIVITY activity the way the desktop client does: the type (Playing, Listening, Watching or
 * Competing), field lengths, the URL fields of Embedded App SDK 2.1 (`state_url`, `details_url`,
 * `assets.large_url`, `assets.small_url`), the party and at most two buttons. Returns the problem, or undefined.
 */
export function activityProblem(activity: unknown): string | undefined {
  if (typeof activity !== 'object' || activity === null || Array.isArray(activity)) {
    return '"activity" must be an object or null';
  }
  const a = activity as Record<string, unknown>;
  if (!SETTABLE_TYPES.has(a.type ?? 0)) return 'activity type must be 0, 2, 3 or 5';
  const problems = [
    text(a, 'name', 1, 128),
    text(a, 'state', 2, 128),
    text(a, 'details', 2, 128),
    link(a, 'state_url'),
    link(a, 'details_url'),
  ];
  const assets = a.assets as Record<string, unknown> | undefined | null;
  if (assets !== undefined && assets !== null) {
    if (typeof assets !== 'object' || Array.isArray(assets)) return '"assets" must be an object';
    problems.push(link(assets, 'large_url'), link(assets, 'small_url'));
  }
  const party = a.party as Record<string, unknown> | undefined;
  if (party !== undefined) {
    if (typeof party !== 'object' || party === null) return '"party" must be an object';
    problems.push(text(party, 'id', 2, 128));
  }
  if (
    a.buttons !== undefined &&
    (!Array.isArray(a.buttons) || a.buttons.length < 1 || a.buttons.length > 2)
  ) {
    return 'an activity has 1 or 2 buttons';
  }
  return problems.find((p) => p !== undefined);
}
