import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import {
  exitOf,
  hasStackTrace,
  killChildren,
  runToEnd,
  startWithState,
  type EmulatorLine,
} from './cliProcess.js';
import { postForm, postJson, signIn } from './helpers.js';

afterEach(killChildren);
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-state-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `sdkpp emulator --state file`; resolves with its JSON line and a way to stop it. */
async function start(
  file: string,
  extra: string[] = [],
): Promise<{ info: EmulatorLine; stop: () => Promise<number | null> }> {
  const { child, info } = await startWithState(file, extra);
  return {
    info,
    stop: async () => {
      child.kill('SIGTERM');
      return exitOf(child);
    },
  };
}

function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

describe('sdkpp emulator --state', () => {
  it('keeps users, tokens, friends, messages and lobbies across a restart', async () => {
    const file = path.join(dir, 'world.json');
    const first = await start(file, ['--users', '3']);
    const emu = first.info as unknown as Emulator;
    const alice = await signIn(emu, 'alice');
    const bob = await signIn(emu, 'bob');
    const [, bobUser] = first.info.users;
    expect(
      (await postJson(`${emu.api}/users/@me/relationships`, { username: 'bob' }, bearer(alice.access_token)))
        .status,
    ).toBe(204);
    const aliceId = first.info.users[0]?.id ?? '';
    const accept = await fetch(`${emu.api}/users/@me/relationships/${aliceId}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', ...bearer(bob.access_token) },
      body: '{}',
    });
    expect(accept.status).toBe(204);
    const dm = await postJson(
      `${emu.api}/users/${bobUser?.id ?? ''}/messages`,
      { content: 'see you tomorrow' },
      bearer(alice.access_token),
    );
    expect(dm.status).toBe(200);
    const lobby = await postJson(
      `${emu.api}/lobbies`,
      { metadata: { map: 'harbour' } },
      { Authorization: `Bot ${first.info.botToken}` },
    );
    expect(lobby.status).toBe(201);
    const lobbyId = ((await lobby.json()) as { id: string }).id;
    expect(await first.stop()).toBe(0);

    // Written atomically (no temporary file left), readable only by its owner, versioned; the voice
    // gateway's certificate authority is kept beside it, its folder and keys the owner's alone.
    expect(readdirSync(dir).sort()).toEqual(['world.json', 'world.json.ca']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.info.voiceCaFile).toBe(path.join(`${file}.ca`, 'authority', 'ca.pem'));
    expect(statSync(`${file}.ca`).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(`${file}.ca`, 'authority', 'ca-key.pem')).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { format: string; version: number };
    expect(saved).toMatchObject({ format: 'sdkpp-emulator-state', version: 2 });

    const second = await start(file, ['--users', '5']);
    try {
      const { info } = second;
      expect(info.applicationId).toBe(first.info.applicationId);
      expect(info.botToken).toBe(first.info.botToken);
      // The saved users, not five new ones.
      expect(info.users).toEqual(first.info.users);
      const me = await fetch(`${info.api}/users/@me`, { headers: bearer(alice.access_token) });
      expect(((await me.json()) as { username: string }).username).toBe('alice');
      const friends = await fetch(`${info.api}/users/@me/relationships`, {
        headers: bearer(alice.access_token),
      });
      expect(
        ((await friends.json()) as Array<{ id: string; type: number }>).map((r) => [r.id, r.type]),
      ).toEqual([[bobUser?.id, 1]]);
      const history = await fetch(`${info.api}/users/${bobUser?.id ?? ''}/messages`, {
        headers: bearer(alice.access_token),
      });
      expect(((await history.json()) as Array<{ content: string }>).map((m) => m.content)).toEqual([
        'see you tomorrow',
      ]);
      const kept = await fetch(`${info.api}/lobbies/${lobbyId}`, {
        headers: { Authorization: `Bot ${info.botToken}` },
      });
      expect(((await kept.json()) as { metadata: Record<string, string> }).metadata).toEqual({
        map: 'harbour',
      });
      // The refresh token a game saved still works.
      const refreshed = await postForm(`${info.api}/oauth2/token`, {
        grant_type: 'refresh_token',
        client_id: info.applicationId,
        refresh_token: bob.refresh_token,
      });
      expect(refreshed.status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('refuses a damaged file, a later version, or another application, with a clear message', async () => {
    const damaged = path.join(dir, 'damaged.json');
    writeFileSync(damaged, '{"format":"sdkpp-emulator-state","vers');
    const later = path.join(dir, 'later.json');
    writeFileSync(
      later,
      JSON.stringify({ format: 'sdkpp-emulator-state', version: 3, savedAt: '', data: {} }),
    );
    const other = path.join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ hello: 'world' }));
    const cases: Array<[string, string[], string]> = [
      [damaged, [], 'is not valid JSON'],
      [later, [], 'version 3, written by a later sdkpp; this one reads version 2'],
      [other, [], 'not a saved emulator state'],
    ];
    for (const [file, extra, message] of cases) {
      const run = await runToEnd(['emulator', '--port', '0', '--no-rpc', '--state', file, ...extra]);
      expect(run.code, file).toBe(1);
      expect(run.stderr).toContain(`the state file ${file}`);
      expect(run.stderr).toContain(message);
      expect(hasStackTrace(run.stderr)).toBe(false);
    }
    // A state of one application is not loaded as another.
    const mine = path.join(dir, 'mine.json');
    const made = await start(mine);
    expect(await made.stop()).toBe(0);
    const mismatch = await runToEnd([
      'emulator',
      '--port',
      '0',
      '--no-rpc',
      '--state',
      mine,
      '--app-id',
      '123456789012345678',
    ]);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain(
      `the saved state is of application ${made.info.applicationId}, not 123456789012345678`,
    );
  });

  it('saves the state when an exec command ends', async () => {
    const file = path.join(dir, 'exec.json');
    const run = await runToEnd([
      'emulator',
      'exec',
      '--port',
      '0',
      '--no-rpc',
      '--users',
      '4',
      '--state',
      file,
      '--',
      process.execPath,
      '-e',
      '',
    ]);
    expect(run.code).toBe(0);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      data: { users: Record<string, { username: string }> };
    };
    expect(Object.values(saved.data.users).map((u) => u.username)).toEqual(
      expect.arrayContaining(['alice', 'bob', 'carol', 'dave']),
    );
    const again = await runToEnd([
      'emulator',
      'exec',
      '--port',
      '0',
      '--no-rpc',
      '--state',
      file,
      '--',
      process.execPath,
      '-e',
      '',
    ]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`loaded the state saved `);
    expect(again.stderr).toMatch(/Users\s+alice \(\d+\), bob \(\d+\), carol \(\d+\), dave \(\d+\)/);
  });
});
