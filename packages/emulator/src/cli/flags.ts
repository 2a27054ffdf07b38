/**
 * Command-line flags as a table: each flag is one entry that knows its name, its help line, its default and
 * how to apply its value. The `sdkpp` commands and the demo share this, so usage texts, `--help` and
 * "did you mean" behave the same everywhere.
 */
import { didYouMean } from '@sdkpp/protocol';

/** A mistake in the command line: the command prints it with the usage and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** One flag of a command; `T` is what the command collects the flags into. */
export interface Flag<T> {
  /** The long name, without the dashes: `port` for `--port`. */
  name: string;
  /** A one-letter alias, without the dash. */
  short?: string;
  /** The placeholder of the flag's value (`N`, `FILE`) for a flag that takes one; absent for a switch. */
  value?: string;
  /** The default, as the help shows it. */
  default?: string;
  /** What the flag does; `\n` starts a continuation line. */
  help: string;
  /**
   * Records the flag in `target`. A switch gets `''`. Throws {@link UsageError} for a bad value; the message
   * names the flag.
   */
  apply(target: T, value: string): void;
}

/** What {@link parseFlags} found besides the flags. */
export interface ParsedArgs {
  /** `-h` or `--help` was given. */
  help: boolean;
  /** The arguments after `--`, or from the first positional one on when the command takes a command line. */
  rest: string[];
}

/** How {@link parseFlags} treats the first argument that is not a flag. */
export interface ParseOptions {
  /** The first positional argument and everything after it is {@link ParsedArgs.rest} (as after `--`). */
  restFromPositional?: boolean;
}

function optionName(flag: Flag<unknown>): string {
  return `--${flag.name}`;
}

function unknownFlag(arg: string, names: string[]): UsageError {
  const name = arg.split('=')[0] ?? arg;
  const guess = didYouMean(name, names);
  return new UsageError(`unknown option ${name}${guess ? ` (did you mean ${guess}?)` : ''}`);
}

/**
 * Applies `args` to `target` through `flags`. Flags take `--name value` or `--name=value`; `--` ends them.
 * Throws {@link UsageError} for an unknown flag (with the closest known one), a missing value, or a
 * positional argument the command does not take.
 */
export function parseFlags<T>(
  flags: readonly Flag<T>[],
  args: readonly string[],
  target: T,
  options: ParseOptions = {},
): ParsedArgs {
  const byName = new Map<string, Flag<T>>();
  for (const flag of flags) {
    byName.set(optionName(flag), flag);
    if (flag.short !== undefined) byName.set(`-${flag.short}`, flag);
  }
  const names = [...byName.keys(), '--help'];
  let help = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '--') return { help, rest: args.slice(i + 1) };
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (options.restFromPositional) return { help, rest: args.slice(i) };
      throw new UsageError(`unexpected argument "${arg}"`);
    }
    const equals = arg.indexOf('=');
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    const flag = byName.get(name);
    if (!flag) throw unknownFlag(arg, names);
    if (flag.value === undefined) {
      if (equals > 0) throw new UsageError(`${optionName(flag)} takes no value`);
      flag.apply(target, '');
      continue;
    }
    let value: string | undefined;
    if (equals > 0) value = arg.slice(equals + 1);
    else {
      value = args[i + 1];
      i += 1;
    }
    if (value === undefined) throw new UsageError(`${optionName(flag)} needs a value (${flag.value})`);
    flag.apply(target, value);
  }
  return { help, rest: [] };
}

/** The width help lines keep within. */
const WIDTH = 100;

/** The help lines of `flags`, with their defaults, and `-h, --help` last. */
export function formatFlags(flags: readonly Flag<unknown>[]): string {
  const column = 22;
  const lines: string[] = [];
  const entry = (left: string, help: string): void => {
    const [first = '', ...more] = help.split('\n');
    if (left.length < column - 3) lines.push(`  ${left.padEnd(column - 2)}${first}`);
    else lines.push(`  ${left}`, `${' '.repeat(column)}${first}`);
    for (const line of more) lines.push(`${' '.repeat(column)}${line}`);
  };
  for (const flag of flags) {
    const names = flag.short === undefined ? optionName(flag) : `-${flag.short}, ${optionName(flag)}`;
    const left = flag.value === undefined ? names : `${names} ${flag.value}`;
    let help = flag.help;
    if (flag.default !== undefined) {
      const last = help.slice(help.lastIndexOf('\n') + 1);
      const note = `(default: ${flag.default})`;
      help += column + last.length + note.length + 1 <= WIDTH ? ` ${note}` : `\n${note}`;
    }
    entry(left, help);
  }
  entry('-h, --help', 'show this help');
  return `${lines.join('\n')}\n`;
}

/**
 * An integer flag value from `min` to `max`, or {@link UsageError} naming the flag.
 *
 * @param name - The flag's long name, without dashes.
 */
export function integerValue(name: string, value: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return Number(value);
}
