import { describe, expect, it } from 'vitest';

import { startEmulator } from '../../packages/emulator/src/index.js';
import { closeAfterEach } from './lobbyHelpers.js';

const { running } = closeAfterEach();

describe('saved states from before guild roles (version 1)', () => {
  it('read back with every member keeping exactly the permissions it had', async () => {
    const first = await startEmulator({ users: 3, seedGuild: false });
    running.push(first);
    const guild = first.createGuild({
      name: 'Old',
      owner: 'alice',
      members: ['bob', { user: 'carol', permissions: 1n << 10n }],
    });
    const saved = first.exportState();
    // Rewrite the guild the way version 1 stored it: each member's permissions, no roles.
    const data = saved.data as { guilds: Record<string, Record<string, unknown>> };
    const old = data.guilds[guild.id] ?? {};
    old.members = guild.members;
    delete old.roles;
    const v1 = { ...saved, version: 1, data: { ...data } };
    const second = await startEmulator({ state: v1 });
    running.push(second);
    const restored = second.guilds().find((g) => g.id === guild.id);
    expect(restored?.members).toEqual(guild.members);
    expect(restored?.roles.map((r) => r.name)).toEqual(['@everyone', 'Member', `Permissions ${1n << 10n}`]);
    expect(second.exportState().version).toBe(2);
  });

  it('refuses a version 1 guild with a malformed member, naming it', async () => {
    const first = await startEmulator({ users: 2 });
    running.push(first);
    const saved = first.exportState();
    const data = saved.data as { guilds: Record<string, Record<string, unknown>> };
    const [id, guild] = Object.entries(data.guilds)[0] ?? [];
    if (!guild || id === undefined) throw new Error('no guild');
    guild.members = { [String(guild.ownerId)]: 'lots' };
    await expect(startEmulator({ state: { ...saved, version: 1 } })).rejects.toThrow(
      `guild ${id} has a malformed member`,
    );
  });
});
