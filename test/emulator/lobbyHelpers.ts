import { afterEach, expect } from 'vitest';

import { startEmulator, type Emulator, type EmulatorOptions } from '../../packages/emulator/src/index.js';
import { signIn, TestGateway, type Payload } from './helpers.js';

/**
 * Registers an `afterEach` that runs what the test pushed to `cleanups` (in order), then closes every
 * emulator in `running`; returns both lists.
 */
export function closeAfterEach(): { running: Emulator[]; cleanups: (() => void)[] } {
  const running: Emulator[] = [];
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) cleanup();
    await Promise.all(running.splice(0).map((e) => e.close()));
  });
  return { running, cleanups };
}

/**
 * Starts an emulator with auto consent that writes its log lines into `logs`, and adds it to `running` (the
 * list a test file's `afterEach` closes). `options` win over those defaults.
 */
export async function loggedEmulator(
  running: Emulator[],
  options: EmulatorOptions = {},
): Promise<{ emu: Emulator; logs: string[] }> {
  const logs: string[] = [];
  const emu = await startEmulator({ autoConsent: true, log: (line) => logs.push(line), ...options });
  running.push(emu);
  return { emu, logs };
}

/** A JSON reply (`J`: how the test reads the body). */
export interface Reply<J = Record<string, unknown> & unknown[]> {
  status: number;
  headers: Headers;
  json: J;
}

/**
 * Calls the API, with an Authorization header unless `auth` is null; a string body is sent as is (for
 * malformed JSON).
 */
export async function call<J = Record<string, unknown> & unknown[]>(
  emu: Emulator,
  auth: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply<J>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (auth !== null) headers.Authorization = auth;
  const response = await fetch(`${emu.api}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: (text ? JSON.parse(text) : null) as J };
}

/** Registers the global slash command `/score` as the bot (with `body`'s fields on top) and checks it was made. */
export async function withCommand(emu: Emulator, body: Record<string, unknown> = {}): Promise<void> {
  const made = await call(emu, `Bot ${emu.botToken}`, 'POST', `/applications/${emu.applicationId}/commands`, {
    name: 'score',
    description: 'Show the score',
    ...body,
  });
  expect(made.status).toBe(201);
}

/** A signed-in player: Authorization header, user id, and a way to open gateway sessions. */
export interface Player {
  auth: string;
  id: string;
  /** Opens a gateway session; resolves with it and its READY. */
  connect(): Promise<{ gw: TestGateway; ready: Record<string, unknown> }>;
}

/** The usual cast of a lobby test: the bot's Authorization header, and alice, bob and carol signed in. */
export interface BotAndThree {
  bot: string;
  alice: Player;
  bob: Player;
  carol: Player;
}

/** Signs in alice, bob and carol; with the bot's Authorization header. */
export async function botAndThree(emu: Emulator): Promise<BotAndThree> {
  return {
    bot: `Bot ${emu.botToken}`,
    alice: await player(emu, 'alice'),
    bob: await player(emu, 'bob'),
    carol: await player(emu, 'carol'),
  };
}

/** Signs in a seeded user (full `sdk.social_layer` grant unless a scope is given). */
export async function player(emu: Emulator, username: string, scope?: string): Promise<Player> {
  const auth = `Bearer ${(await signIn(emu, username, scope)).access_token}`;
  const id = emu.users.find((u) => u.username === username)?.id ?? '';
  return {
    auth,
    id,
    async connect() {
      const gw = await TestGateway.connect(emu);
      const ready = (await gw.identify(auth)).d as Record<string, unknown>;
      return { gw, ready };
    },
  };
}

/** The `d` of a payload as an object. */
export const data = (p: Payload): Record<string, unknown> => p.d as Record<string, unknown>;

/** The next dispatch `t` whose `d` matches `pick` (other payloads stay queued). */
export function nextWhere(
  gw: TestGateway,
  t: string,
  pick: (d: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return gw.next((p) => p.op === 0 && p.t === t && pick(p.d as Record<string, unknown>)).then(data);
}

/** Names of the dispatches a session has received and not yet taken, in order. */
export function pendingEvents(gw: TestGateway): string[] {
  return gw.pending().flatMap((p) => (p.op === 0 && p.t !== null ? [p.t] : []));
}

/** Closes a gateway socket and waits for the close (the session ends: close code 1000). */
export async function closeGateway(gw: TestGateway): Promise<void> {
  gw.ws.close(1000);
  await gw.closed;
}

/** Polls `check` until it holds; rejects with `what` after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Closes one of a player's gateway sockets and waits until the emulator has ended that session. */
export async function disconnect(emu: Emulator, gw: TestGateway, userId: string): Promise<void> {
  const before = emu.gatewaySessions(userId).length;
  await closeGateway(gw);
  await until(() => emu.gatewaySessions(userId).length < before, 'the session to end');
}
