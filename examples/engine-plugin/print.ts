/** One line of the sample's output: `[social]  status changed: Ready`, padded so the columns line up. */
export function say(who: string, message: string): void {
  process.stdout.write(`${`[${who}]`.padEnd(11)} ${message}\n`);
}
