/** Readable progress lines: `[alice]     joined …`, padded so the columns line up. */
export function say(who: string, message: string): void {
  process.stdout.write(`${`[${who}]`.padEnd(12)} ${message}\n`);
}

/** A usage or input problem: printed to stderr, and the process exits with status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Groups a privacy code in fives, as players read it aloud to each other. */
export function groupDigits(code: string): string {
  return code.replace(/(\d{5})(?=\d)/g, '$1 ');
}
