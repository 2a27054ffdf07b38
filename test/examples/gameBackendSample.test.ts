import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';

// The game backend sample runs as its own process (as `npm run example:game-backend` runs it) against a real
// emulator over loopback. Embedded, its walkthrough is checked line by line; against an emulator this test
// owns, the effects are checked where they live: the emulator's lobbies and messages, and its users as the
// platform's API shows them.

const run = promisify(execFile);
const SAMPLE = ['--import', 'tsx', 'examples/game-backend/main.ts'];
/** The users' flag for a provisional account. */
const PROVISIONAL_FLAG = 1 << 23;

function sample(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [...SAMPLE, ...args], { timeout: 60_000, env: { ...process.env, ...env } });
}

/** The user id the sample printed for a player's provisional account. */
function printedId(stdout: string, name: string): string {
  const id = new RegExp(
    `\\[${name}\\]\\s+game: updateToken\\(Bearer, token\\), connect\\(\\) → Ready as ${name} \\(id (\\d+), provisional account\\)`,
  ).exec(stdout)?.[1];
  expect(id, `${name}'s Ready line`).toBeDefined();
  return id ?? '';
}

/** What the platform's API says about a game account, asked the way a game server would. */
async function asPlatformSees(
  emulator: Emulator,
  externalId: string,
): Promise<{ token: string; user: { id: string; flags: number; global_name: string } }> {
  const tokenReply = await fetch(`${emulator.api}/partner-sdk/token/bot`, {
    method: 'POST',
    headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ external_user_id: externalId }),
  });
  const token = ((await tokenReply.json()) as { access_token: string }).access_token;
  const me = await fetch(`${emulator.api}/users/@me`, { headers: { Authorization: `Bearer ${token}` } });
  return { token, user: (await me.json()) as { id: string; flags: number; global_name: string } };
}

describe('examples/game-backend', () => {
  it('with no emulator address: walks through provisional accounts, a server-managed lobby, bulk changes, history and moderation, and exits 0', async () => {
    const { stdout } = await sample([]);
    expect(stdout).toMatch(
      /\[backend\]\s+child token of Sunken Keep II \(application 1400000000000000001\) for Aria: scope "sdk\.social_layer", valid 7 days, no refresh token/,
    );
    expect(stdout).toMatch(
      new RegExp(
        `\\[Aria\\]\\s+Sunken Keep II: updateToken\\(Bearer, child token\\), connect\\(\\) → Ready as Aria \\(id ${printedId(stdout, 'Aria')}\\)`,
      ),
    );
    expect(stdout).toMatch(/\[emulator\]\s+platform emulator up at http:\/\/127\.0\.0\.1:\d+/);
    for (const [name, account] of [
      ['Aria', 'acct-1001'],
      ['Borin', 'acct-1002'],
      ['Cass', 'acct-1003'],
    ]) {
      expect(stdout).toMatch(
        new RegExp(
          `\\[backend\\]\\s+provisional account for game account ${account} \\("${name}"\\): token with scope "sdk.social_layer", valid 7 days`,
        ),
      );
      printedId(stdout, name ?? '');
    }
    expect(stdout).toMatch(
      new RegExp(
        `asked again for acct-1001: the same user ${printedId(stdout, 'Aria')} \\(find or create\\)`,
      ),
    );
    expect(stdout).toMatch(
      /\[backend\]\s+created server-managed lobby \d+: mode=raid, map=sunken-keep, region=eu-west; idle timeout 1 hour/,
    );
    expect(stdout).toMatch(
      /\[Aria\]\s+game sees lobby \d+: mode=raid, map=sunken-keep, region=eu-west; members: Aria as "Aria the Bold"\n/,
    );
    expect(stdout).toMatch(
      /\[backend\]\s+bulk change \(1 request\): added "Borin Stonefist" \(warrior\), "Cass Nightwhisper" \(rogue\)/,
    );
    expect(stdout).toMatch(
      /members: Aria as "Aria the Bold", Borin as "Borin Stonefist", Cass as "Cass Nightwhisper"\n/,
    );
    expect(stdout).toMatch(/\[Cass\]\s+game: the lobby is gone from Cass's list \(removed by the server\)/);
    expect(stdout).toMatch(/phase=boss; members: Aria as "Aria the Bold", Borin as "Borin the Unbroken"\n/);
    expect(stdout).toMatch(
      /\[Aria\]\s+game shows "Borin the Unbroken" \(Borin\): "shield wall at the gate, on me!"/,
    );
    expect(stdout).toMatch(
      /\[backend\]\s+lobby history, 3 messages, newest first:\n.*the application: "The boss awakens in 30 seconds\." \(metadata kind=system\)\n.*Aria as "Aria the Bold": "cheap gold/,
    );
    expect(stdout).toMatch(
      /\[Borin\]\s+game sees moderation on that message: verdict=spam, action=hidden, reviewer=automod/,
    );
    expect(stdout).toMatch(/\[Aria\]\s+game sees the review on the DM: verdict=ok, toxicity=0\.02/);
    expect(stdout).toMatch(/\[backend\]\s+member Aria as "Aria the Bold": online, can link a channel: yes/);
    // Step 8: the signed webhook events reach the server's endpoint, in order.
    const linked = stdout.indexOf('webhook APPLICATION_AUTHORIZED: dara linked');
    const unlinked = stdout.indexOf(
      'webhook APPLICATION_DEAUTHORIZED: dara unlinked; dropped the link and the linked-account badge',
    );
    expect(linked).toBeGreaterThan(0);
    expect(unlinked).toBeGreaterThan(linked);
    // Step 9: the perk granted on ENTITLEMENT_CREATE, kept while the canceled period runs, taken back after.
    const order = [
      'webhook ENTITLEMENT_CREATE: granted the Gold Pass perks (ends_at null: ongoing)',
      'check at login: perks kept until the period ends',
      'a month later the subscription is inactive',
      'check at login: the entitlement to the Gold Pass perks has ended; perk taken back',
    ].map((line) => stdout.indexOf(line));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(stdout).toMatch(/\[game-backend\] done/);
    expect(stdout).not.toMatch(/access_token|Bearer [A-Za-z0-9]|Bot [A-Za-z0-9]/);
  });

  it('against an emulator this test owns (--emulator): the lobby, its members, messages and moderation are really there', async () => {
    const emulator = await startEmulator({ users: 0, rpc: false });
    try {
      const { stdout } = await sample(['--emulator', emulator.http, '--app-id', emulator.applicationId], {
        SDKPP_BOT_TOKEN: emulator.botToken,
      });
      expect(stdout).not.toContain(emulator.botToken);
      const aria = printedId(stdout, 'Aria');
      const borin = printedId(stdout, 'Borin');
      const cass = printedId(stdout, 'Cass');

      // The users: provisional accounts of the game's accounts, found again by the same external ids.
      for (const [account, id, name] of [
        ['acct-1001', aria, 'Aria'],
        ['acct-1002', borin, 'Borin'],
        ['acct-1003', cass, 'Cass'],
      ] as const) {
        const { user } = await asPlatformSees(emulator, account);
        expect(user.id).toBe(id);
        expect(user.global_name).toBe(name);
        expect(user.flags & PROVISIONAL_FLAG).toBe(PROVISIONAL_FLAG);
      }

      // The lobby: server-managed, its metadata, and the members after the bulk changes.
      const lobbies = emulator.lobbies();
      expect(lobbies).toHaveLength(1);
      const lobby = lobbies[0];
      expect(lobby?.createdBy).toBe('bot');
      expect(lobby?.idleTimeoutSeconds).toBe(3600);
      expect(lobby?.metadata).toEqual({ mode: 'raid', map: 'sunken-keep', region: 'eu-west', phase: 'boss' });
      const members = new Map(lobby?.members.map((m) => [m.id, m]));
      expect([...members.keys()].sort()).toEqual([aria, borin].sort());
      expect(members.get(aria)?.additionalName).toBe('Aria the Bold');
      expect(members.get(aria)?.metadata).toEqual({ class: 'paladin', role: 'leader' });
      expect((members.get(aria)?.flags ?? 0) & 1).toBe(1);
      expect(members.get(borin)?.additionalName).toBe('Borin the Unbroken');
      expect(members.get(borin)?.metadata).toEqual({ class: 'warrior' });

      // The lobby's messages: character names kept with each, the spam marked by the backend.
      const messages = [...emulator.lobbyMessages(lobby?.id ?? '')].sort((a, b) => a.timestamp - b.timestamp);
      expect(messages.map((m) => m.content)).toEqual([
        'shield wall at the gate, on me!',
        'cheap gold at goldz4u dot example, DM me',
        'The boss awakens in 30 seconds.',
      ]);
      expect(messages[0]).toMatchObject({
        authorId: borin,
        additionalName: 'Borin the Unbroken',
        moderationMetadata: {},
      });
      expect(messages[1]).toMatchObject({
        authorId: aria,
        additionalName: 'Aria the Bold',
        moderationMetadata: { verdict: 'spam', action: 'hidden', reviewer: 'automod' },
      });
      expect(messages[2]?.metadata).toEqual({ kind: 'system' });

      // The direct message, read back through the API as Aria: the backend's review is on it.
      const { token } = await asPlatformSees(emulator, 'acct-1001');
      const reply = await fetch(`${emulator.api}/users/${borin}/messages?limit=10`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const dms = (await reply.json()) as {
        content: string;
        author: { id: string };
        moderation_metadata: Record<string, string>;
      }[];
      expect(dms).toHaveLength(1);
      expect(dms[0]).toMatchObject({
        content: 'nice tank, gg',
        author: { id: borin },
        moderation_metadata: { verdict: 'ok', toxicity: '0.02' },
      });
    } finally {
      await emulator.close();
    }
  });

  it('refuses --emulator without the bot token, with a message and exit status 2', async () => {
    const failure = await sample(['--emulator', 'http://127.0.0.1:9', '--app-id', '1'], {
      SDKPP_BOT_TOKEN: '',
    }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(/--emulator needs the application id and bot token/);
  });
});
