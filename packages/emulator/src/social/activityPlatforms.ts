/**
 * The platforms an activity can be joined on, as the wire names them (the C++ SDK's `ActivityGamePlatforms`
 * flags, in bit order: Desktop 1, Xbox 2, Samsung 4, IOS 8, Android 16, Embedded 32, PS4 64, PS5 128).
 */
export const ACTIVITY_GAME_PLATFORMS: readonly string[] = [
  'desktop',
  'xbox',
  'samsung',
  'ios',
  'android',
  'embedded',
  'ps4',
  'ps5',
];

const KNOWN: ReadonlySet<string> = new Set(ACTIVITY_GAME_PLATFORMS);

/**
 * Reads an activity's `supported_platforms`: absent stays absent (joinable wherever the game runs), else a
 * non-empty list of known platform names, duplicates dropped, in the platforms' order. Returns the problem as
 * a string for anything else.
 */
export function readSupportedPlatforms(value: unknown): string[] | undefined | string {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > ACTIVITY_GAME_PLATFORMS.length * 2) {
    return `"supported_platforms" must be a non-empty array of ${ACTIVITY_GAME_PLATFORMS.join(', ')}`;
  }
  for (const platform of value) {
    if (typeof platform !== 'string' || !KNOWN.has(platform)) {
      return `"supported_platforms" holds an unknown platform (${ACTIVITY_GAME_PLATFORMS.join(', ')} are known)`;
    }
  }
  return ACTIVITY_GAME_PLATFORMS.filter((p) => value.includes(p));
}

/** Whether an activity stored with these platforms can be joined from a desktop client or SDK game. */
export function joinableOnDesktop(activity: Record<string, unknown>): boolean {
  const platforms = activity.supported_platforms;
  return !Array.isArray(platforms) || platforms.includes('desktop');
}
