/** Readable progress lines: `[alice]   linked …`, padded so the columns line up. */
export function say(who: string, message: string): void {
  process.stdout.write(`${`[${who}]`.padEnd(12)} ${message}\n`);
}

/** A duration in seconds as words, e.g. `7 days`. */
export function humanSeconds(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} days`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} hours`;
  return `${seconds} s`;
}
