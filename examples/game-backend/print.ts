/** Readable walkthrough lines: `[backend]   created …`, padded so the columns line up. */
export function say(who: string, message: string): void {
  process.stdout.write(`${`[${who}]`.padEnd(12)} ${message}\n`);
}

/** A heading for each step of the walkthrough. */
export function step(title: string): void {
  process.stdout.write(`\n== ${title}\n`);
}

/** A usage problem: printed to stderr, and the process exits with status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `{ a: 'b', c: 'd' }` as `a=b, c=d`. */
export function pairs(record: Readonly<Record<string, string>>): string {
  const entries = Object.entries(record);
  return entries.length === 0 ? '(none)' : entries.map(([k, v]) => `${k}=${v}`).join(', ');
}
