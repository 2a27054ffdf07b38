import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import {
  defaultLaunchRegistryDir,
  readLaunchCommands,
  writeLaunchCommand,
} from '../../../packages/protocol/src/launchRegistry.js';

const APP = '1234567890123456789';

describe('launch commands as XDG desktop entries', () => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-launch-unit-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('lives in $XDG_DATA_HOME/applications, or ~/.local/share/applications', () => {
    expect(defaultLaunchRegistryDir({ XDG_DATA_HOME: '/data' })).toBe(path.join('/data', 'applications'));
    expect(defaultLaunchRegistryDir({ XDG_DATA_HOME: '' })).toBe(
      path.join(homedir(), '.local', 'share', 'applications'),
    );
    expect(defaultLaunchRegistryDir({})).toBe(path.join(homedir(), '.local', 'share', 'applications'));
  });

  it('writes a discord-<id> URL handler with the command, creating the directory', () => {
    const dir = path.join(tempDir(), 'nested', 'applications');
    const file = writeLaunchCommand(APP, '/opt/game/run --from-invite', { dir, platform: 'linux' });
    expect(file).toBe(path.join(dir, `discord-${APP}.desktop`));
    const entry = readFileSync(file, 'utf8');
    expect(entry.split('\n')).toEqual(
      expect.arrayContaining([
        '[Desktop Entry]',
        'Exec=/opt/game/run --from-invite %u',
        'Type=Application',
        `MimeType=x-scheme-handler/discord-${APP};`,
      ]),
    );
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(readLaunchCommands(dir)).toEqual({ [APP]: '/opt/game/run --from-invite' });
  });

  it('keeps % and backslashes of a command through the desktop entry', () => {
    const dir = tempDir();
    const command = String.raw`C:\Games\run.exe --progress=100% --arg=%u`;
    writeLaunchCommand(APP, command, { dir });
    expect(readFileSync(path.join(dir, `discord-${APP}.desktop`), 'utf8')).toContain(
      String.raw`Exec=C:\\Games\\run.exe --progress=100%% --arg=%%u %u`,
    );
    expect(readLaunchCommands(dir)).toEqual({ [APP]: command });
  });

  it('refuses bad ids, multi-line or empty commands, and macOS without a directory', () => {
    const dir = tempDir();
    expect(() => writeLaunchCommand('abc', 'x', { dir })).toThrow(RangeError);
    expect(() => writeLaunchCommand(APP, '  ', { dir })).toThrow(RangeError);
    expect(() => writeLaunchCommand(APP, 'a\nExec=evil', { dir })).toThrow(RangeError);
    expect(() => writeLaunchCommand(APP, 'run', { platform: 'darwin' })).toThrow(/not supported on macOS/);
    expect(readLaunchCommands(dir)).toEqual({});
  });

  it('reads only discord-<id>.desktop entries and tolerates a missing directory', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'firefox.desktop'), '[Desktop Entry]\nExec=firefox %u\n');
    writeFileSync(path.join(dir, 'discord-12.desktop'), '[Desktop Entry]\nName=no exec\n');
    writeLaunchCommand('42', 'game', { dir });
    expect(readLaunchCommands(dir)).toEqual({ '42': 'game' });
    expect(readLaunchCommands(path.join(dir, 'missing'))).toEqual({});
  });
});
