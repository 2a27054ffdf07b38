/**
 * Publisher-level linking: Client.exchangeChildToken (public client), Client.ExchangeChildToken (bindings) and
 * GameBackend.exchangeChildToken (confidential client, server to server) against the emulator's
 * POST /partner-sdk/child-token over loopback; the child token then connects the child game to Ready.
 */
import { describe, expect, it } from 'vitest';

import {
  AuthorizationTokenType as BindingsTokenType,
  Client as BindingsClient,
  ClientResult,
  ResetCallbacks,
} from '../../packages/sdkpp/bindings/index.js';
import { GameBackend, HttpError, ValidationError } from '../../packages/sdkpp/src/backend/index.js';
import { ActivityTypes, AuthorizationTokenType, ClientStatus } from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { TestGateway } from '../emulator/helpers.js';
import { pumpUntil } from './bindingsHelpers.js';
import {
  allLogLines,
  allSecrets,
  clientFor,
  emulatorFor,
  eventually,
  linkAndConnect,
  userAt,
} from './helpers.js';

const CHILD = '1300000000000000001';
const NARROW_CHILD = '1300000000000000002';
const FOREIGN = '1300000000000000003';
const PREMIUM_ONLY = '1300000000000000004';
const CLIENT_SECRET = 'child-token-test-client-secret';
allSecrets.add(CLIENT_SECRET);

async function publisher(): Promise<Emulator> {
  return emulatorFor({
    clientSecret: CLIENT_SECRET,
    publisherApplications: [
      { id: CHILD, name: 'Child Game' },
      { id: NARROW_CHILD, scopes: ['openid', 'sdk.social_layer_presence'] },
      { id: FOREIGN, child: false },
      { id: PREMIUM_ONLY, scopes: ['identify.premium'] },
    ],
  });
}

async function httpErrorOf(run: () => Promise<unknown>): Promise<HttpError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('ExchangeChildToken (publisher-level linking)', () => {
  it('exchanges the parent token for a child token that connects the child game as the same player', async () => {
    const emulator = await publisher();
    const parent = await linkAndConnect(emulator, userAt(emulator, 0));
    const child = clientFor(emulator, { applicationId: CHILD });
    const result = await child.exchangeChildToken({
      parentApplicationToken: parent.accessToken,
      childApplicationId: CHILD,
    });
    allSecrets.add(result.accessToken);
    expect(result.tokenType).toBe(AuthorizationTokenType.Bearer);
    expect(result.accessToken).not.toBe(parent.accessToken);
    expect(result.scopes).toBe('openid sdk.social_layer');
    expect(result.expiresIn).toBeGreaterThan(0);
    expect(result.expiresIn).toBeLessThanOrEqual(604_800);
    await child.updateToken(AuthorizationTokenType.Bearer, result.accessToken);
    await child.connect();
    expect(child.getStatus()).toBe(ClientStatus.Ready);
    expect(child.getCurrentUser()?.id).toBe(userAt(emulator, 0).id);
    // The gateway's READY names the child application for a child token, the publisher for its own.
    for (const [token, id, name] of [
      [result.accessToken, CHILD, 'Child Game'],
      [parent.accessToken, emulator.applicationId, 'sdkpp Demo Game'],
    ] as const) {
      const gw = new TestGateway(`${emulator.gateway}?v=10&encoding=json`);
      try {
        await gw.next((p) => p.op === 10);
        gw.send(2, { token: `Bearer ${token}`, properties: {} });
        const ready = (await gw.dispatch('READY')).d as { application: { id: string; name: string } };
        expect(ready.application).toMatchObject({ id, name });
      } finally {
        gw.ws.close();
      }
    }
  });

  it("attributes a child game's rich presence to the child, with the publisher as its parent", async () => {
    const emulator = await publisher();
    emulator.befriend(userAt(emulator, 0).id, userAt(emulator, 1).id);
    const inChild = async (index: number) => {
      const parent = await linkAndConnect(emulator, userAt(emulator, index));
      const client = clientFor(emulator, { applicationId: CHILD });
      const { accessToken } = await client.exchangeChildToken({
        parentApplicationToken: parent.accessToken,
        childApplicationId: CHILD,
      });
      allSecrets.add(accessToken);
      await client.updateToken(AuthorizationTokenType.Bearer, accessToken);
      await client.connect();
      return client;
    };
    const alice = await inChild(0);
    const bob = await inChild(1);
    await alice.updateRichPresence({
      type: ActivityTypes.Playing,
      details: 'In the sequel',
      // A parent the game claims is not sent: the platform names it.
      parentApplicationId: '1300000000000000999',
    });
    await eventually(
      () => bob.getUser(userAt(emulator, 0).id)?.gameActivity?.details === 'In the sequel',
      5000,
      "Alice's activity in the child game",
    );
    const seen = bob.getUser(userAt(emulator, 0).id)?.gameActivity;
    expect(seen?.applicationId).toBe(CHILD);
    expect(seen?.parentApplicationId).toBe(emulator.applicationId);
    expect(seen?.name).toBe('Child Game');
  });

  it("narrows the child token to the child's scopes: the communication bundle becomes the presence bundle", async () => {
    const emulator = await publisher();
    const parent = await linkAndConnect(emulator, userAt(emulator, 0));
    const result = await parent.client.exchangeChildToken({
      parentApplicationToken: parent.accessToken,
      childApplicationId: NARROW_CHILD,
    });
    allSecrets.add(result.accessToken);
    expect(result.scopes).toBe('openid sdk.social_layer_presence');
    // A working token of the player: the presence scopes (identify among them) are in it.
    const user = await parent.client.fetchCurrentUser(result.accessToken);
    expect(user.id).toBe(userAt(emulator, 0).id);
  });

  it('refuses a child outside the publisher, an unknown application, and a child token used as the parent', async () => {
    const emulator = await publisher();
    const parent = await linkAndConnect(emulator, userAt(emulator, 0));
    const exchange = (childApplicationId: string, token = parent.accessToken) =>
      parent.client.exchangeChildToken({ parentApplicationToken: token, childApplicationId });
    const foreign = await httpErrorOf(() => exchange(FOREIGN));
    expect([foreign.status, foreign.code]).toEqual([403, 50001]);
    expect(foreign.responseBody).toContain(`application ${FOREIGN} is not a child of the publisher`);
    const unknown = await httpErrorOf(() => exchange('1300000000000000999'));
    expect([unknown.status, unknown.code]).toEqual([404, 10002]);
    const childToken = (await exchange(CHILD)).accessToken;
    allSecrets.add(childToken);
    const chained = await httpErrorOf(() => exchange(CHILD, childToken));
    expect([chained.status, chained.code]).toEqual([403, 50001]);
    await expect(exchange('not-an-id')).rejects.toBeInstanceOf(ValidationError);
    // Nothing the parent token holds is accepted by this child.
    const empty = await httpErrorOf(() => exchange(PREMIUM_ONLY));
    expect([empty.status, empty.code]).toEqual([400, 50035]);
  });

  it('refuses a revoked parent token, and revoking the parent kills the child tokens issued from it', async () => {
    const emulator = await publisher();
    const parent = await linkAndConnect(emulator, userAt(emulator, 0));
    const { accessToken: childToken } = await parent.client.exchangeChildToken({
      parentApplicationToken: parent.accessToken,
      childApplicationId: CHILD,
    });
    allSecrets.add(childToken);
    await parent.client.revokeToken({ token: parent.accessToken });
    const refused = await httpErrorOf(() =>
      parent.client.exchangeChildToken({
        parentApplicationToken: parent.accessToken,
        childApplicationId: CHILD,
      }),
    );
    expect([refused.status, refused.code]).toEqual([401, 50025]);
    const dead = await httpErrorOf(() => parent.client.fetchCurrentUser(childToken));
    expect(dead.status).toBe(401);
  });

  it('Client.ExchangeChildToken answers through its callback with the child token', async () => {
    const emulator = await publisher();
    const parent = await linkAndConnect(emulator, userAt(emulator, 0));
    const client = new BindingsClient({ apiBase: emulator.api, webBase: emulator.http, localClient: false });
    try {
      const answers: [ClientResult, string, BindingsTokenType, number, string][] = [];
      client.ExchangeChildToken(parent.accessToken, BigInt(CHILD), (...args) => answers.push(args));
      client.ExchangeChildToken(parent.accessToken, BigInt(FOREIGN), (...args) => answers.push(args));
      await pumpUntil(() => answers.length === 2);
      const [ok, refused] = answers;
      allSecrets.add(ok?.[1] ?? '');
      expect(ok?.[0].Successful()).toBe(true);
      expect(ok?.[1].length).toBeGreaterThan(20);
      expect(ok?.slice(2)).toEqual([BindingsTokenType.Bearer, expect.any(Number), 'openid sdk.social_layer']);
      expect(refused?.[0].Successful()).toBe(false);
      expect([refused?.[0].Status(), refused?.[0].ErrorCode()]).toEqual([403, 50001]);
      expect(refused?.slice(1)).toEqual(['', BindingsTokenType.Bearer, 0, '']);
    } finally {
      await client.core.destroy();
      ResetCallbacks();
    }
  });

  it('GameBackend.exchangeChildToken does it server to server with the parent client credentials', async () => {
    const emulator = await publisher();
    const parent = await linkAndConnect(emulator, userAt(emulator, 0));
    const backendWith = (clientSecret: string) =>
      new GameBackend({
        applicationId: emulator.applicationId,
        clientSecret,
        apiBase: emulator.api,
        logCallback: (line) => allLogLines.push(line),
      });
    const backend = backendWith(CLIENT_SECRET);
    const wrong = backendWith('not-the-client-secret');
    try {
      const result = await backend.exchangeChildToken(parent.accessToken, CHILD);
      allSecrets.add(result.accessToken);
      expect(result.scopes).toBe('openid sdk.social_layer');
      const child = clientFor(emulator, { applicationId: CHILD });
      expect((await child.fetchCurrentUser(result.accessToken)).id).toBe(userAt(emulator, 0).id);
      const refused = await httpErrorOf(() => wrong.exchangeChildToken(parent.accessToken, CHILD));
      expect([refused.status, refused.code]).toEqual([400, 530007]);
      const outside = await httpErrorOf(() => backend.exchangeChildToken(parent.accessToken, FOREIGN));
      expect(outside.status).toBe(403);
      // HTTP Basic with the parent's credentials is the same confidential client (RFC 6749 §2.3.1).
      const basic = (secret: string) =>
        fetch(`${emulator.api}/partner-sdk/child-token`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${emulator.applicationId}:${secret}`).toString('base64')}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ child_application_id: CHILD, parent_access_token: parent.accessToken }),
        });
      const viaBasic = await basic(CLIENT_SECRET);
      const viaBasicBody = (await viaBasic.json()) as { access_token: string; scope: string };
      allSecrets.add(viaBasicBody.access_token);
      expect([viaBasic.status, viaBasicBody.scope]).toEqual([200, 'openid sdk.social_layer']);
      const badBasic = await basic('wrong-secret');
      expect([badBasic.status, ((await badBasic.json()) as { code: number }).code]).toEqual([400, 530007]);
    } finally {
      await backend.close();
      await wrong.close();
    }
  });
});
