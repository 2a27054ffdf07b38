/** The first seed usernames; later seed users are `player9`, `player10`, … */
export const SEED_USERNAMES: readonly string[] = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
];

/** The n-th (0-based) seed username. */
export function seedUsername(index: number): string {
  return SEED_USERNAMES[index] ?? `player${index + 1}`;
}

/** The index `seedUsername` gives `name` at, or undefined when `name` is not a seed username. */
export function seedUsernameIndex(name: string): number | undefined {
  const listed = SEED_USERNAMES.indexOf(name);
  if (listed >= 0) return listed;
  const match = /^player([1-9][0-9]{0,8})$/.exec(name);
  const index = match ? Number(match[1]) - 1 : -1;
  return index >= SEED_USERNAMES.length ? index : undefined;
}

/** `alice` → `Alice`: the default display name of a seed user. */
export function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Usernames as the platform allows them now: 2–32 of lowercase letters, digits, `_` and `.`. */
export function isValidUsername(name: string): boolean {
  return /^[a-z0-9_.]{2,32}$/.test(name) && !name.includes('..');
}

/** A display name: 1–32 characters, not only spaces. */
export function isValidGlobalName(name: string): boolean {
  return name.length >= 1 && name.length <= 32 && name.trim().length > 0;
}
