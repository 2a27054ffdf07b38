/** Snowflakes (decimal strings) in time order: a shorter one is older, equal lengths compare as text. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
