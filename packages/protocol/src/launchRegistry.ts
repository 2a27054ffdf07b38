import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

// The launch command registry is an interface between two programs, not a module's detail: the game registers
// how to start it (Client's registerLaunchCommand), the desktop client (or the emulator playing it) reads it.

/** Where launch commands are registered; the platform's own place by default. */
export interface LaunchRegistryOptions {
  /** The directory of `.desktop` entries (Linux and other XDG systems). @defaultValue `$XDG_DATA_HOME/applications` */
  dir?: string;
  platform?: NodeJS.Platform;
}

const SNOWFLAKE = /^[0-9]{1,20}$/;

/** The XDG directory desktop entries live in. */
export function defaultLaunchRegistryDir(env: NodeJS.ProcessEnv = process.env): string {
  const dataHome =
    env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== ''
      ? env.XDG_DATA_HOME
      : path.join(homedir(), '.local', 'share');
  return path.join(dataHome, 'applications');
}

/**
 * A command as a desktop entry's Exec value: `\` doubled (string escapes) and `%` doubled (field codes), so the
 * command runs as given.
 */
function escapeExec(command: string): string {
  return command.replaceAll('\\', '\\\\').replaceAll('%', '%%');
}

/** Reverses {@link escapeExec}. */
function unescapeExec(value: string): string {
  return value.replaceAll('%%', '%').replaceAll('\\\\', '\\');
}

/** The desktop entry that makes `discord-<id>:` links start the game. */
function desktopEntry(applicationId: string, command: string): string {
  return [
    '[Desktop Entry]',
    `Name=Game ${applicationId}`,
    `Exec=${escapeExec(command)} %u`,
    'Type=Application',
    'NoDisplay=true',
    'Categories=Discord;Games;',
    `MimeType=x-scheme-handler/discord-${applicationId};`,
    '',
  ].join('\n');
}

/**
 * Registers how the desktop client starts the game when the player accepts an invite there: a
 * `discord-<applicationId>` URL handler (an XDG desktop entry; on Windows the registry key under
 * HKCU\Software\Classes). Throws on bad input or when the platform has no such mechanism.
 */
export function writeLaunchCommand(
  applicationId: string,
  command: string,
  options: LaunchRegistryOptions = {},
): string {
  if (!SNOWFLAKE.test(applicationId)) throw new RangeError('the application id must be a snowflake');
  if (command.trim() === '' || /[\r\n\0]/.test(command))
    throw new RangeError('the command must be one non-empty line');
  const platform = options.platform ?? process.platform;
  if (platform === 'win32' && options.dir === undefined) {
    const key = `HKCU\\Software\\Classes\\discord-${applicationId}`;
    execFileSync('reg', ['add', key, '/ve', '/d', `URL:Run game ${applicationId} protocol`, '/f']);
    execFileSync('reg', ['add', key, '/v', 'URL Protocol', '/d', '', '/f']);
    execFileSync('reg', ['add', `${key}\\shell\\open\\command`, '/ve', '/d', command, '/f']);
    return key;
  }
  if (platform === 'darwin' && options.dir === undefined) {
    throw new Error(
      'launch commands are not supported on macOS: declare the URL scheme in the game bundle’s Info.plist (CFBundleURLTypes)',
    );
  }
  const dir = options.dir ?? defaultLaunchRegistryDir();
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `discord-${applicationId}.desktop`);
  writeFileSync(file, desktopEntry(applicationId, command), { mode: 0o644 });
  return file;
}

/** The launch commands registered in a desktop-entry directory, by application id. */
export function readLaunchCommands(dir: string = defaultLaunchRegistryDir()): Record<string, string> {
  const commands: Record<string, string> = {};
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return commands;
  }
  for (const name of names) {
    const match = /^discord-([0-9]{1,20})\.desktop$/.exec(name);
    if (!match?.[1]) continue;
    const exec = /^Exec=(.*?)(?: %u)?$/m.exec(readFileSync(path.join(dir, name), 'utf8'));
    if (exec?.[1] !== undefined) commands[match[1]] = unescapeExec(exec[1]);
  }
  return commands;
}
