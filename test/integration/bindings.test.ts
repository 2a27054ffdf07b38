import { describe, expect, it } from 'vitest';

import {
  AuthorizationArgs,
  AuthorizationCodeChallenge,
  AuthorizationTokenType,
  Client,
  ClientCreateOptions,
  ClientResult,
  ClientStatus,
  ErrorType,
  IntegrationType,
  ResetCallbacks,
  UserHandle,
} from '../../packages/sdkpp/bindings/index.js';
import { emulatorFor } from './helpers.js';
import { failedRefresh, pumpUntil } from './bindingsHelpers.js';

describe('bindings: AuthorizationArgs and friends', () => {
  it('has a getter and Set<Field> per field, a copy constructor and nullobj', () => {
    const args = new AuthorizationArgs();
    expect(args.IsValid()).toBe(true);
    expect(args.ClientId()).toBe(0n);
    args.SetClientId('1234567890123456789');
    args.SetScopes(Client.GetDefaultPresenceScopes());
    args.SetState('s1');
    args.SetNonce('n1');
    const challenge = new AuthorizationCodeChallenge();
    challenge.SetChallenge('c'.repeat(43));
    args.SetCodeChallenge(challenge);
    args.SetIntegrationType(IntegrationType.UserInstall);
    args.SetCustomSchemeParam('mygame');
    const copy = new AuthorizationArgs(args);
    args.SetState(undefined);
    expect(copy.ClientId()).toBe(1234567890123456789n);
    expect(copy.Scopes()).toBe('openid sdk.social_layer_presence');
    expect(copy.State()).toBe('s1');
    expect(args.State()).toBeUndefined();
    expect(copy.Nonce()).toBe('n1');
    expect(copy.CodeChallenge()?.Challenge()).toBe('c'.repeat(43));
    expect(copy.IntegrationType()).toBe(IntegrationType.UserInstall);
    expect(copy.CustomSchemeParam()).toBe('mygame');
    expect(AuthorizationArgs.nullobj.IsValid()).toBe(false);
    expect(() => {
      AuthorizationArgs.nullobj.SetScopes('x');
    }).toThrow(/nullobj/);
    expect(() => {
      args.SetClientId('not-an-id');
    }).toThrow(TypeError);
    expect(ClientResult.nullobj.IsValid()).toBe(false);
    expect(UserHandle.nullobj.IsValid()).toBe(false);
    expect(Client.StatusToString(ClientStatus.Ready)).toBe('Ready');
    expect(Client.GetDefaultCommunicationScopes()).toBe('openid sdk.social_layer');
  });
});

describe('bindings: the C++ getting-started flow, line for line', () => {
  it('Authorize → GetToken → UpdateToken → Connect → Ready, callbacks through RunCallbacks', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor();
    const options = new ClientCreateOptions();
    options.SetApiBase(emulator.api);
    options.SetWebBase(emulator.http);
    const client = new Client({
      apiBase: options.ApiBase(),
      webBase: options.WebBase(),
      openUrl: emulator.browserAs('alice'),
    });
    client.SetApplicationId(emulator.applicationId);
    const statuses: ClientStatus[] = [];
    client.SetStatusChangedCallback((status) => statuses.push(status));

    const verifier = client.CreateAuthorizationCodeVerifier();
    const args = new AuthorizationArgs();
    args.SetClientId(emulator.applicationId);
    args.SetScopes(Client.GetDefaultCommunicationScopes());
    args.SetCodeChallenge(verifier.Challenge());

    let authorized: { result: ClientResult; code: string; redirectUri: string } | undefined;
    client.Authorize(args, (result, code, redirectUri) => {
      authorized = { result, code, redirectUri };
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(authorized).toBeUndefined(); // nothing is delivered until the game pumps callbacks
    await pumpUntil(() => authorized !== undefined);
    expect(authorized?.result.Successful()).toBe(true);

    let accessToken = '';
    client.GetToken(
      emulator.applicationId,
      authorized?.code ?? '',
      verifier.Verifier(),
      authorized?.redirectUri ?? '',
      (result, token, _refresh, type, expiresIn, scopes) => {
        expect(result.Successful()).toBe(true);
        expect(type).toBe(AuthorizationTokenType.Bearer);
        expect(expiresIn).toBe(604800);
        expect(scopes).toBe('openid sdk.social_layer');
        accessToken = token;
      },
    );
    await pumpUntil(() => accessToken !== '');

    let updated: ClientResult | undefined;
    client.UpdateToken(AuthorizationTokenType.Bearer, accessToken, (result) => {
      updated = result;
      client.Connect();
    });
    await pumpUntil(() => updated !== undefined && statuses.includes(ClientStatus.Ready));
    expect(updated?.Successful()).toBe(true);
    expect(statuses).toEqual([ClientStatus.Connecting, ClientStatus.Connected, ClientStatus.Ready]);
    const me = client.GetCurrentUserV2();
    expect(me?.Username()).toBe('alice');
    expect(me?.Id()).toBe(BigInt(emulator.users[0]?.id ?? '0'));
    client.Disconnect();
    await pumpUntil(() => client.GetStatus() === ClientStatus.Disconnected);
    expect(client.GetCurrentUser().IsValid()).toBe(false);
  });

  it('failures arrive as ClientResult with the platform error', async () => {
    const { emulator, client, result } = await failedRefresh();
    expect(result.Successful()).toBe(false);
    expect(result.Type()).toBe(ErrorType.HTTPError);
    expect(result.Status()).toBe(400);
    expect(result.Error()).toMatch(/invalid_grant/);
    expect(result.ResponseBody()).toContain('invalid_grant');

    let validation: ClientResult | undefined;
    client.GetToken(emulator.applicationId, 'code', 'bad', 'http://127.0.0.1:1/cb', (r) => {
      validation = r;
    });
    await pumpUntil(() => validation !== undefined);
    expect(validation?.Type()).toBe(ErrorType.ValidationError);
  });
});
