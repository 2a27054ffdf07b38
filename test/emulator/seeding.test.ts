import { describe, expect, it } from 'vitest';

import { startEmulator } from '../../packages/emulator/src/index.js';

// How long 10 000 users take is measured in cli.test.ts, in a child process: a cubic store would block this
// process, and vitest's timeout with it.
describe('seeding users', () => {
  it('reuses a seed username freed by a rename, and skips one that is taken', async () => {
    const emulator = await startEmulator({ users: 3, rpc: false, seedGuild: false });
    try {
      const bob = emulator.users[1];
      emulator.updateUser(bob?.id ?? '', { username: 'robert' });
      emulator.createUser({ username: 'dave' });
      expect(emulator.createUser().username).toBe('bob');
      expect(emulator.createUser().username).toBe('erin');
    } finally {
      await emulator.close();
    }
  });
});
