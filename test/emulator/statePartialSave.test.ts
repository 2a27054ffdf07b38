import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  describePartialSave,
  loadStateFile,
  saveEmulatorState,
  saveStateFile,
} from '../../packages/emulator/src/cli/stateFile.js';
import { startEmulator } from '../../packages/emulator/src/index.js';
import { EmulatorLog } from '../../packages/emulator/src/log.js';
import { SnowflakeGenerator } from '../../packages/emulator/src/snowflake.js';
import { ChannelMessages } from '../../packages/emulator/src/social/ChannelMessages.js';
import { exportStoreState, importStoreState } from '../../packages/emulator/src/store/persist.js';
import { EmulatorStore } from '../../packages/emulator/src/store/Store.js';
import { closeAfterEach } from './lobbyHelpers.js';

const { running } = closeAfterEach();
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-partial-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a save that fails for some records', () => {
  it('leaves out and names each, writes the rest beside the state file, and keeps the previous state', async () => {
    const emu = await startEmulator({ users: 3, rpc: false });
    running.push(emu);
    const channel = emu.guilds()[0]?.channels.find((c) => c.name === 'general');
    if (!channel) throw new Error('no channel');
    const kept = emu.postChannelMessage(channel.id, 'alice', 'kept across the save');
    const file = path.join(dir, 'world.json');
    await saveStateFile(file, emu.exportState());
    const previous = readFileSync(file, 'utf8');

    // The world of that run, with two messages no JSON can hold, stored through the emulator's own
    // services: one nested past what JSON.stringify survives, one carrying a BigInt.
    const now = (): number => Date.now();
    const store = new EmulatorStore(
      importStoreState(emu.exportState(), now()),
      new SnowflakeGenerator(now),
      now,
    );
    const lines: string[] = [];
    const messages = new ChannelMessages(store, new EmulatorLog((line) => lines.push(line)));
    const record = store.state.channels[channel.id];
    if (!record) throw new Error('no channel record');
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    const input = { authorId: emu.applicationId, content: '', fromLobbyId: null };
    const tooDeep = messages.create(record, { ...input, embeds: [{ title: 't', deep }] });
    const bigInt = messages.create(record, { ...input, embeds: [{ title: 't', count: 10n }] });
    const fine = messages.create(record, { ...input, content: 'written after them' });

    const result = await saveEmulatorState(file, () => exportStoreState(store.state, now()));
    if (result.kind !== 'partial') throw new Error('the save was whole');
    expect(result.omitted.map((o) => [o.collection, o.id])).toEqual([
      ['channelMessages', tooDeep.id],
      ['channelMessages', bigInt.id],
    ]);
    expect(result.omitted[0]?.reason).toContain('Maximum call stack size exceeded');
    expect(result.omitted[1]?.reason).toContain('BigInt');
    // The previous state is untouched; the rest sits beside it, owner-only, and says where it is.
    expect(readFileSync(file, 'utf8')).toBe(previous);
    expect(path.dirname(result.partialPath)).toBe(dir);
    expect(path.basename(result.partialPath)).toMatch(/^world\.json\.partial-[0-9TZ-]+\.json$/);
    expect(readdirSync(dir)).toContain(path.basename(result.partialPath));
    expect(statSync(result.partialPath).mode & 0o777).toBe(0o600);
    const said = describePartialSave(result);
    for (const part of [
      `could not save 2 records of the state: channelMessages ${tooDeep.id} (`,
      `channelMessages ${bigInt.id} (`,
      `The rest was saved to ${result.partialPath}; ${file} still holds the state saved before`,
    ]) {
      expect(said).toContain(part);
    }

    // What was written loads, with everything but the two.
    const partial = await loadStateFile(result.partialPath);
    if (!partial) throw new Error('no partial state');
    const again = await startEmulator({ state: partial, rpc: false });
    running.push(again);
    expect(again.channelMessages(channel.id).map((m) => m.id)).toEqual([kept.id, fine.id]);
    expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false);
  });
});
