import { describe, expect, it } from 'vitest';

import {
  rpcSocketCandidates,
  rpcSocketDirectory,
  rpcSocketPath,
} from '../../../packages/protocol/src/rpcPaths.js';

describe('RPC socket paths', () => {
  it.each([
    [{ XDG_RUNTIME_DIR: '/run/user/1000/', TMPDIR: '/var/tmp' }, '/run/user/1000'],
    [{ TMPDIR: '/var/folders/xy/T/' }, '/var/folders/xy/T'],
    [{ TMP: '/tmp2' }, '/tmp2'],
    [{ TEMP: '/temp3' }, '/temp3'],
    [{ XDG_RUNTIME_DIR: '', TEMP: '/temp3' }, '/temp3'],
    [{}, '/tmp'],
  ])('picks the first set variable of %j', (env, expected) => {
    expect(rpcSocketDirectory(env)).toBe(expected);
  });

  it('names the Unix sockets discord-ipc-0 … 9 and the Windows pipes likewise', () => {
    const unix = rpcSocketCandidates({ platform: 'linux', env: { XDG_RUNTIME_DIR: '/run/user/7' } });
    expect(unix).toHaveLength(10);
    expect(unix[0]).toBe('/run/user/7/discord-ipc-0');
    expect(unix[9]).toBe('/run/user/7/discord-ipc-9');
    expect(rpcSocketPath(3, { platform: 'win32', env: {} })).toBe('\\\\?\\pipe\\discord-ipc-3');
    expect(() => rpcSocketPath(10)).toThrow(RangeError);
  });
});
