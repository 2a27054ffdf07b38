import path from 'node:path';
import { tmpdir } from 'node:os';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import {
  AbortedError,
  AuthenticationExternalAuthType,
  AuthorizationError,
  type DeviceUserCode,
} from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { systemClock, type Clock } from '../../packages/protocol/src/base/Clock.js';
import { act, pageToken } from '../emulator/dashboardHelpers.js';
import { sharedChromium } from '../setup/browser.js';
import { allLogLines, allSecrets, clientFor, emulatorFor, eventually, userAt } from './helpers.js';

// Device sign-in (RFC 8628) end to end: the SDK asks for a code and polls; a player in a real headless
// Chromium opens the verification page, enters the code and approves or denies.

const browser = sharedChromium();

/** The player: opens the verification page, types the code, picks who signs in and answers. */
async function playerAnswers(
  emulator: Emulator,
  userCode: string,
  answer: { approveAs: string } | 'deny',
): Promise<string> {
  const page: Page = await browser().newPage();
  try {
    await page.goto(`${emulator.http}/activate`);
    // Typed as a player might: lower case, no dash.
    await page.fill('#user_code', userCode.toLowerCase().replace('-', ''));
    await page.click('button[type=submit]');
    await page.waitForSelector('ul.scopes');
    if (answer === 'deny') await page.click('button[value=deny]');
    else {
      await page.selectOption('#user_id', answer.approveAs);
      await page.click('button[value=approve]');
    }
    return (await page.textContent('h1')) ?? '';
  } finally {
    await page.close();
  }
}

/** Resolves with the code the SDK hands the game. */
function codeCatcher(): { onUserCode: (code: DeviceUserCode) => void; code: Promise<DeviceUserCode> } {
  let deliver: (code: DeviceUserCode) => void = () => undefined;
  const code = new Promise<DeviceUserCode>((resolve) => {
    deliver = resolve;
  });
  return { onUserCode: (c) => deliver(c), code };
}

describe('getTokenFromDevice', () => {
  it('signs a player in: the code goes to the game, the player approves in Chromium, tokens come back', async () => {
    const emulator = await emulatorFor({ deviceCodeIntervalSeconds: 1 });
    const bob = userAt(emulator, 1);
    const client = clientFor(emulator);
    const { onUserCode, code } = codeCatcher();
    const tokens = client.getTokenFromDevice({ scopes: 'openid sdk.social_layer' }, { onUserCode });
    const shown = await code;
    expect(shown.userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(shown.verificationUri).toBe(`${emulator.http}/activate`);
    expect(shown.verificationUriComplete).toContain(shown.userCode);
    expect(shown.expiresIn).toBe(300);
    expect(await playerAnswers(emulator, shown.userCode, { approveAs: bob.id })).toBe('Device connected');
    const result = await tokens;
    allSecrets.add(result.accessToken).add(result.refreshToken).add(shown.userCode);
    expect(result.scopes).toBe('openid sdk.social_layer');
    expect(result.idToken).toBeDefined();
    expect((await client.fetchCurrentUser(result.accessToken)).id).toBe(bob.id);
    // A refresh works as for any linked account.
    const refreshed = await client.refreshToken({ refreshToken: result.refreshToken });
    allSecrets.add(refreshed.accessToken).add(refreshed.refreshToken);
    expect(allLogLines.some((line) => line.includes('device sign-in: the player approved'))).toBe(true);
  });

  it('rejects with AuthorizationError access_denied when the player denies', async () => {
    const emulator = await emulatorFor({ deviceCodeIntervalSeconds: 1 });
    const client = clientFor(emulator);
    const { onUserCode, code } = codeCatcher();
    const tokens = client.getTokenFromDevice({}, { onUserCode });
    const failure = tokens.catch((error: unknown) => error);
    expect(await playerAnswers(emulator, (await code).userCode, 'deny')).toBe('Request denied');
    const error = await failure;
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).code).toBe('access_denied');
  });

  it('rejects with expired_token when nobody approves in time', async () => {
    const emulator = await emulatorFor({ deviceCodeIntervalSeconds: 1, deviceCodeTtlSeconds: 2 });
    const client = clientFor(emulator);
    const started = Date.now();
    const error = await client
      .getTokenFromDevice({}, { onUserCode: () => undefined })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).code).toBe('expired_token');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops at once on abort: by signal, by abortGetTokenFromDevice, and on destroy', async () => {
    const emulator = await emulatorFor({ deviceCodeIntervalSeconds: 1 });
    const client = clientFor(emulator);
    const controller = new AbortController();
    const first = codeCatcher();
    const bySignal = client.getTokenFromDevice(
      {},
      { onUserCode: first.onUserCode, signal: controller.signal },
    );
    await first.code;
    // One at a time.
    await expect(client.getTokenFromDevice({}, { onUserCode: () => undefined })).rejects.toThrow(
      /in progress/,
    );
    controller.abort();
    await expect(bySignal).rejects.toBeInstanceOf(AbortedError);

    const second = codeCatcher();
    const byMethod = client.getTokenFromDevice({}, { onUserCode: second.onUserCode });
    await second.code;
    client.abortGetTokenFromDevice();
    await expect(byMethod).rejects.toBeInstanceOf(AbortedError);

    const third = codeCatcher();
    const byDestroy = client.getTokenFromDevice({}, { onUserCode: third.onUserCode });
    await third.code;
    await client.destroy();
    await expect(byDestroy).rejects.toThrow(/destroyed/);
    // Invalid arguments are refused before any request.
    const other = clientFor(emulator);
    await expect(other.getTokenFromDevice({ scopes: 'bad scope!' })).rejects.toThrow(/scopes/);
    expect(emulator.deviceAuthorizations()).toHaveLength(3);
  });

  it('slows down when the platform answers slow_down, and still signs in', async () => {
    const emulator = await emulatorFor({ deviceCodeIntervalSeconds: 1 });
    const alice = userAt(emulator, 0);
    // The game's second wait of one interval comes back early, as a device with a fast clock would poll.
    let intervals = 0;
    const hastyClock: Clock = {
      now: () => systemClock.now(),
      clearTimeout: (handle) => systemClock.clearTimeout(handle),
      setTimeout: (callback, ms, options) => {
        if (ms === 1_000) intervals += 1;
        return systemClock.setTimeout(callback, ms === 1_000 && intervals === 2 ? 50 : ms, options);
      },
    };
    const client = clientFor(emulator, { clock: hastyClock });
    const { onUserCode, code } = codeCatcher();
    const tokens = client.getTokenFromDevice({}, { onUserCode });
    const shown = await code;
    await eventually(
      () => emulator.deviceAuthorizations()[0]?.intervalSeconds === 6,
      5_000,
      'the emulator to slow the device down',
    );
    await eventually(
      () => allLogLines.some((line) => line.includes('asked to slow down; polling every 6 s')),
      1_000,
      'the SDK to follow',
    );
    await playerAnswers(emulator, shown.userCode, { approveAs: alice.id });
    const result = await tokens;
    allSecrets.add(result.accessToken).add(result.refreshToken);
    expect((await client.fetchCurrentUser(result.accessToken)).id).toBe(alice.id);
    // After the slow_down the device kept to the longer interval: no second slow_down.
    expect(allLogLines.filter((line) => line.includes('asked to slow down'))).toHaveLength(1);
  }, 20_000);

  it('merges a provisional account into the approving player (getTokenFromDeviceProvisionalMerge)', async () => {
    const emulator = await emulatorFor({ deviceCodeIntervalSeconds: 1 });
    const carol = userAt(emulator, 1);
    const client = clientFor(emulator);
    const external = {
      externalAuthType: AuthenticationExternalAuthType.SteamSessionTicket,
      externalAuthToken: 'device-ticket',
    };
    const provisional = await client.getProvisionalToken(external);
    allSecrets.add(provisional.accessToken);
    const { onUserCode, code } = codeCatcher();
    const tokens = client.getTokenFromDeviceProvisionalMerge({}, external, { onUserCode });
    await playerAnswers(emulator, (await code).userCode, { approveAs: carol.id });
    const merged = await tokens;
    allSecrets.add(merged.accessToken).add(merged.refreshToken);
    expect((await client.fetchCurrentUser(merged.accessToken)).id).toBe(carol.id);
    await expect(client.fetchCurrentUser(provisional.accessToken)).rejects.toThrow();
  });
});

describe("the desktop client's device authorization screen", () => {
  function withDesktopClient(emulator: Emulator): ReturnType<typeof clientFor> {
    return clientFor(emulator, {
      localClient: {
        socketPaths: () => [
          path.join(tmpdir(), 'sdkpp-no-such-dir', 'discord-ipc-0'),
          emulator.rpcSocket ?? '',
        ],
        reconnectDelayMs: () => 50,
      },
    });
  }

  it('shows the code there when the game gives no onUserCode, and closes on approval', async () => {
    const emulator = await emulatorFor({ deviceCodeIntervalSeconds: 1 });
    const bob = userAt(emulator, 1);
    const client = withDesktopClient(emulator);
    let closed = 0;
    await client.setAuthorizeDeviceScreenClosedCallback(() => {
      closed += 1;
    });
    const tokens = client.getTokenFromDevice();
    await eventually(() => emulator.rpcDeviceScreen() !== null, 5_000, 'the screen to open');
    const screen = emulator.rpcDeviceScreen();
    expect(screen?.clientId).toBe(emulator.applicationId);
    await playerAnswers(emulator, screen?.userCode ?? '', { approveAs: bob.id });
    const result = await tokens;
    allSecrets.add(result.accessToken).add(result.refreshToken);
    await eventually(() => closed === 1, 5_000, 'the closed callback');
    expect(emulator.rpcDeviceScreen()).toBeNull();
  });

  it('opens and closes on request; a close by the player calls the callback', async () => {
    const emulator = await emulatorFor();
    const client = withDesktopClient(emulator);
    const reasons: unknown[] = [];
    client.on('localClientEvent', (evt, data) => {
      if (evt === 'AUTHORIZE_DEVICE_SCREEN_CLOSED') reasons.push(data);
    });
    let closed = 0;
    await client.setAuthorizeDeviceScreenClosedCallback(() => {
      closed += 1;
    });
    await client.openAuthorizeDeviceScreen(emulator.applicationId, 'bcdf-ghjk');
    expect(emulator.rpcDeviceScreen()).toMatchObject({ userCode: 'BCDF-GHJK' });
    // The tester closes it from the dashboard, as the player would close it.
    const headers = { 'X-Dashboard-Token': await pageToken(emulator) };
    const closing = await act(emulator, 'local-client/device-screen/close', {}, headers);
    expect(closing).toEqual({ status: 200, json: { closed: 'BCDF-GHJK' } });
    await eventually(() => closed === 1, 5_000, 'the closed callback');
    expect(emulator.closeRpcDeviceScreen()).toBe(false);
    expect((await act(emulator, 'local-client/device-screen/close', {}, headers)).status).toBe(404);
    await client.openAuthorizeDeviceScreen(emulator.applicationId, 'BCDF-GHJK');
    await client.closeAuthorizeDeviceScreen();
    expect(emulator.rpcDeviceScreen()).toBeNull();
    await eventually(() => closed === 2, 5_000, 'the second closed callback');
    expect(reasons).toEqual([{ reason: 'closed' }, { reason: 'closed' }]);
    // A code that is not a device code, or another application's id, is refused by the desktop client.
    await expect(client.openAuthorizeDeviceScreen(emulator.applicationId, '0000-0000')).rejects.toThrow(
      /user_code/,
    );
    await expect(client.openAuthorizeDeviceScreen('1', 'BCDF-GHJK')).rejects.toThrow(/client_id/);
    // Without a desktop client, getTokenFromDevice with no onUserCode has nowhere to show the code.
    const alone = clientFor(emulator);
    await expect(alone.getTokenFromDevice()).rejects.toThrow(/desktop client/);
  });
});
