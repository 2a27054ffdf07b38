import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';
import { expectDemoHeardEachOther } from './voiceSampleRuns.js';

const run = promisify(execFile);

describe('npm run demo', () => {
  it('links two players (one through the desktop client), befriends, invites, meets in a lobby, chats, talks in an encrypted call, and exits 0 by itself', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/demo/main.ts'], {
      timeout: 60_000,
    });
    expect(stdout).toMatch(/\[emulator\]\s+dashboard at http:\/\/127\.0\.0\.1:\d+\/dashboard/);
    expect(stdout).toMatch(/\[alice\]\s+Ready: signed in as Alice/);
    expect(stdout).toMatch(/\[bob\]\s+Ready: signed in as Bob/);
    expect(stdout).toMatch(/\[bob\]\s+authorized in the desktop client/);
    expect(stdout).toMatch(/\[alice\]\s+friends: Bob \(online\) — playing sdkpp Demo Game: In the main menu/);
    expect(stdout).toMatch(
      /\[bob\]\s+sees Alice \(online\) — playing sdkpp Demo Game: Ranked match \[party 1\/4\]/,
    );
    expect(stdout).toMatch(/\[bob\]\s+got the join secret/);
    expect(stdout).toMatch(/\[alice\]\s+opened lobby \d+ \(mode ranked, map harbour\)/);
    expect(stdout).toMatch(/\[bob\]\s+joined lobby \d+ by its secret: 2 members, map harbour/);
    expect(stdout).toMatch(/\[alice\]\s+bob joined the lobby; party now 2\/4/);
    expect(stdout).toMatch(
      /\[bob\]\s+sees Alice \(online\) — playing sdkpp Demo Game: Ranked match \[party 2\/4\]/,
    );
    expect(stdout).toMatch(/\[alice\]\s+sees bob in the lobby as "Sir Robin"/);
    expect(stdout).toMatch(
      /\[alice\]\s+lobby message from Bob as "Sir Robin": "ready when you are" \(team blue\)/,
    );
    expect(stdout).toMatch(/\[bob\]\s+lobby chat: "ready when you are", "launching the match"/);
    // The lobby voice call: end-to-end encrypted, generated speech each way, what was heard checked.
    expect(stdout).toMatch(
      /\[alice\]\s+in a voice call with bob: end-to-end encrypted, privacy code (\d{5} ){5}\d{5}\n/,
    );
    expect(stdout).toMatch(/\[bob\]\s+sees the same privacy code: yes/);
    // Bob's game watched his microphone: silent while Alice spoke, heard when he did.
    expect(stdout).toMatch(/\[bob\]\s+microphone \(threshold -50 dBFS\): silent → heard/);
    expect(stdout).toMatch(
      /\[media\]\s+native engine \S+ \((prebuild|local-build)\); crypto OpenSSL 3\S* .*\(carried in the addon\)/,
    );
    expect(stdout).toMatch(/\[alice\]\s+verification code with bob matches on both sides: yes/);
    expectDemoHeardEachOther(stdout, 0.9);
    expect(stdout).toMatch(/\[voice\]\s+mouth to ear, Alice to Bob: \d+ ms/);
    for (const file of ['alice-says.wav', 'bob-says.wav', 'alice-hears.wav', 'bob-hears.wav']) {
      expect(statSync(path.join('demo-output', file)).size).toBeGreaterThan(48_000);
    }
    expect(stdout).toMatch(/\[bob\]\s+DM from Alice: "gg! same time tomorrow\?"/);
    expect(stdout).toMatch(/\[alice\]\s+DM from Bob: "sure, send me an invite"/);
    expect(stdout).toMatch(/\[demo\]\s+done/);
    // The demo prints progress, never credentials.
    expect(stdout).not.toMatch(/access_token|refresh_token|code=|Bearer /);
  });
});
