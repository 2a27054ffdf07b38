import path from 'node:path';
import { tmpdir } from 'node:os';

import { describe, expect, it } from 'vitest';

import {
  AuthenticationExternalAuthType,
  AuthorizationTokenType,
  Client,
  ClientResult,
  DeviceAuthorizationArgs,
  ErrorType,
  ResetCallbacks,
} from '../../packages/sdkpp/bindings/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { allSecrets, emulatorFor, eventually, userAt } from './helpers.js';
import { pumpUntil } from './bindingsHelpers.js';
import { answerDeviceCode } from './deviceHelpers.js';

type TokenAnswer = [ClientResult, string, string, AuthorizationTokenType, number, string];

/** A bindings client that finds the emulator's desktop client; destroyed by the test that made it. */
function deviceClient(emulator: Emulator): Client {
  const client = new Client({
    apiBase: emulator.api,
    webBase: emulator.http,
    localClient: {
      socketPaths: () => [
        path.join(tmpdir(), 'sdkpp-no-such-dir', 'discord-ipc-0'),
        emulator.rpcSocket ?? '',
      ],
      reconnectDelayMs: () => 50,
    },
  });
  client.SetApplicationId(emulator.applicationId);
  return client;
}

function deviceArgs(
  emulator: Emulator,
  scopes = Client.GetDefaultCommunicationScopes(),
): DeviceAuthorizationArgs {
  const args = new DeviceAuthorizationArgs();
  args.SetClientId(emulator.applicationId);
  args.SetScopes(scopes);
  return args;
}

describe('bindings: device sign-in', () => {
  it('GetTokenFromDevice shows the code on the device screen, and the callbacks come through RunCallbacks', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ deviceCodeIntervalSeconds: 1 });
    const bob = userAt(emulator, 1);
    const client = deviceClient(emulator);
    let closed = 0;
    client.SetAuthorizeDeviceScreenClosedCallback(() => {
      closed += 1;
    });
    const args = deviceArgs(emulator, 'openid sdk.social_layer');
    expect(args.ClientId()).toBe(BigInt(emulator.applicationId));
    expect(new DeviceAuthorizationArgs(args).Scopes()).toBe('openid sdk.social_layer');
    let answer: TokenAnswer | undefined;
    client.GetTokenFromDevice(args, (...received) => {
      answer = received;
    });
    await eventually(() => emulator.rpcDeviceScreen() !== null, 5_000, 'the device screen');
    const userCode = emulator.rpcDeviceScreen()?.userCode ?? '';
    expect(await answerDeviceCode(emulator, userCode, { approveAs: bob.id })).toContain('Device connected');
    // Nothing is delivered until the game pumps.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(answer).toBeUndefined();
    await pumpUntil(() => answer !== undefined && closed === 1);
    const [result, accessToken, refreshToken, tokenType, expiresIn, scopes] = answer as TokenAnswer;
    allSecrets.add(accessToken).add(refreshToken);
    expect(result.Successful()).toBe(true);
    expect(tokenType).toBe(AuthorizationTokenType.Bearer);
    expect(expiresIn).toBeGreaterThan(0);
    expect(scopes).toBe('openid sdk.social_layer');
    const me = await fetch(`${emulator.api}/users/@me`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(((await me.json()) as { id: string }).id).toBe(bob.id);
    expect(emulator.rpcDeviceScreen()).toBeNull();
    client.Disconnect();
  });

  it('AbortGetTokenFromDevice ends it with a failed ClientResult; nullobj is refused', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ deviceCodeIntervalSeconds: 1 });
    const client = deviceClient(emulator);
    let answer: TokenAnswer | undefined;
    client.GetTokenFromDevice(deviceArgs(emulator), (...received) => {
      answer = received;
    });
    await eventually(() => emulator.rpcDeviceScreen() !== null, 5_000, 'the device screen');
    client.AbortGetTokenFromDevice();
    await pumpUntil(() => answer !== undefined);
    expect(answer?.[0].Successful()).toBe(false);
    expect(answer?.[0].Error()).toMatch(/aborted/);
    expect(answer?.[1]).toBe('');
    // The flow closed its screen on the way out.
    await eventually(() => emulator.rpcDeviceScreen() === null, 5_000, 'the screen to close');

    let refused: TokenAnswer | undefined;
    client.GetTokenFromDevice(DeviceAuthorizationArgs.nullobj, (...received) => {
      refused = received;
    });
    await pumpUntil(() => refused !== undefined);
    expect(refused?.[0].Successful()).toBe(false);
    expect(() => {
      DeviceAuthorizationArgs.nullobj.SetScopes('identify');
    }).toThrow(TypeError);
    client.Disconnect();
  });

  it('GetTokenFromDeviceProvisionalMerge merges; Open/CloseAuthorizeDeviceScreen drive the screen', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ deviceCodeIntervalSeconds: 1 });
    const alice = userAt(emulator, 0);
    const client = deviceClient(emulator);
    let provisional: TokenAnswer | undefined;
    client.GetProvisionalToken(
      emulator.applicationId,
      AuthenticationExternalAuthType.SteamSessionTicket,
      'bindings-device-ticket',
      (...received) => {
        provisional = received;
      },
    );
    await pumpUntil(() => provisional !== undefined);
    allSecrets.add(provisional?.[1] ?? '');
    let merged: TokenAnswer | undefined;
    client.GetTokenFromDeviceProvisionalMerge(
      deviceArgs(emulator),
      AuthenticationExternalAuthType.SteamSessionTicket,
      'bindings-device-ticket',
      (...received) => {
        merged = received;
      },
    );
    await eventually(() => emulator.rpcDeviceScreen() !== null, 5_000, 'the device screen');
    await answerDeviceCode(emulator, emulator.rpcDeviceScreen()?.userCode ?? '', { approveAs: alice.id });
    await pumpUntil(() => merged !== undefined);
    expect(merged?.[0].Successful()).toBe(true);
    allSecrets.add(merged?.[1] ?? '').add(merged?.[2] ?? '');
    const old = await fetch(`${emulator.api}/users/@me`, {
      headers: { Authorization: `Bearer ${provisional?.[1] ?? ''}` },
    });
    expect(old.status).toBe(401);

    let closed = 0;
    client.SetAuthorizeDeviceScreenClosedCallback(() => {
      closed += 1;
    });
    client.OpenAuthorizeDeviceScreen(emulator.applicationId, 'MNPQ-RSTV');
    await eventually(() => emulator.rpcDeviceScreen()?.userCode === 'MNPQ-RSTV', 5_000, 'the screen');
    client.CloseAuthorizeDeviceScreen();
    await eventually(() => emulator.rpcDeviceScreen() === null, 5_000, 'the screen to close');
    await pumpUntil(() => closed === 1);
    // A denied code: the callback gets the platform's access_denied.
    let denied: TokenAnswer | undefined;
    client.GetTokenFromDevice(deviceArgs(emulator), (...received) => {
      denied = received;
    });
    await eventually(() => emulator.rpcDeviceScreen() !== null, 5_000, 'the device screen');
    await answerDeviceCode(emulator, emulator.rpcDeviceScreen()?.userCode ?? '', 'deny');
    await pumpUntil(() => denied !== undefined);
    expect(denied?.[0].Successful()).toBe(false);
    expect(denied?.[0].Type()).toBe(ErrorType.AuthorizationFailed);
    client.Disconnect();
  });
});
