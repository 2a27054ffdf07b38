import { describe, expect, it } from 'vitest';

import {
  IntegrationType,
  applicationSchemeRedirectUri,
  buildAuthorizeUrl,
  customSchemeRedirectUri,
  resolveAuthorizationArgs,
} from '../../../packages/sdkpp/src/auth/AuthorizationArgs.js';
import {
  AuthenticationCodeChallengeMethod,
  createAuthorizationCodeVerifier,
} from '../../../packages/sdkpp/src/auth/pkce.js';
import {
  getDefaultCommunicationScopes,
  getDefaultPresenceScopes,
} from '../../../packages/sdkpp/src/auth/scopes.js';
import { ValidationError } from '../../../packages/protocol/src/errors/index.js';

const defaults = { applicationId: '1234567890123456', generateState: () => 'generated-state-value' };

describe('AuthorizationArgs', () => {
  it('defaults: client id from the client, communication scopes, generated state', () => {
    const r = resolveAuthorizationArgs({}, defaults);
    expect(r.clientId).toBe('1234567890123456');
    expect(r.scopes).toBe('openid sdk.social_layer');
    expect(r.state).toBe('generated-state-value');
    expect(r.stateWasGenerated).toBe(true);
  });

  it('default scope helpers match the seed', () => {
    expect(getDefaultCommunicationScopes()).toBe('openid sdk.social_layer');
    expect(getDefaultPresenceScopes()).toBe('openid sdk.social_layer_presence');
  });

  it('keeps a given state and normalises scope whitespace', () => {
    const r = resolveAuthorizationArgs({ state: 'mine', scopes: '  openid   identify ' }, defaults);
    expect(r.state).toBe('mine');
    expect(r.stateWasGenerated).toBe(false);
    expect(r.scopes).toBe('openid identify');
  });

  it.each([
    [{ clientId: 'abc' }, /snowflake/],
    [{ scopes: '   ' }, /empty/],
    [{ scopes: 'openid bad<scope' }, /invalid scope/],
    [{ state: '' }, /state/],
    [{ nonce: 'x'.repeat(2000) }, /nonce/],
    [{ customSchemeParam: 'https' }, /custom URI scheme/],
    [{ customSchemeParam: '1game' }, /custom URI scheme/],
    [
      {
        codeChallenge: {
          method: 7 as unknown as AuthenticationCodeChallengeMethod,
          challenge: 'x'.repeat(43),
        },
      },
      /S256/,
    ],
    [
      { codeChallenge: { method: AuthenticationCodeChallengeMethod.S256, challenge: 'short' } },
      /43 base64url/,
    ],
    [{ integrationType: 9 as unknown as IntegrationType }, /IntegrationType/],
  ])('rejects %j before any I/O', (args, message) => {
    expect(() => resolveAuthorizationArgs(args, defaults)).toThrow(ValidationError);
    expect(() => resolveAuthorizationArgs(args, defaults)).toThrow(message);
  });

  it('needs an application id from somewhere', () => {
    expect(() => resolveAuthorizationArgs({}, { ...defaults, applicationId: undefined })).toThrow(
      /applicationId/,
    );
  });

  it('custom scheme redirects follow the seed', () => {
    expect(customSchemeRedirectUri('mygame')).toBe('mygame:/authorize/callback');
    expect(applicationSchemeRedirectUri('42')).toBe('discord-42:/authorize/callback');
  });

  it('builds the authorize URL with every parameter, spaces as %20', () => {
    const pkce = createAuthorizationCodeVerifier();
    const r = resolveAuthorizationArgs(
      { codeChallenge: pkce.challenge, nonce: 'n-1', integrationType: IntegrationType.UserInstall },
      defaults,
    );
    const url = buildAuthorizeUrl('http://127.0.0.1:9999', r, 'http://127.0.0.1:5555/callback');
    expect(url).toContain('scope=openid%20sdk.social_layer');
    const parsed = new URL(url);
    expect(parsed.pathname).toBe('/oauth2/authorize');
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      response_type: 'code',
      client_id: '1234567890123456',
      scope: 'openid sdk.social_layer',
      redirect_uri: 'http://127.0.0.1:5555/callback',
      state: 'generated-state-value',
      code_challenge: pkce.challenge.challenge,
      code_challenge_method: 'S256',
      nonce: 'n-1',
      integration_type: '1',
    });
  });
});
