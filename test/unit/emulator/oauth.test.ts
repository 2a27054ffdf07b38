import { describe, expect, it } from 'vitest';

import {
  checkConsentToken,
  makeConsentToken,
  CONSENT_FORM_TTL_MS,
} from '../../../packages/emulator/src/oauth/csrf.js';
import {
  ExternalTokenError,
  readExternalToken,
} from '../../../packages/emulator/src/oauth/externalIdentity.js';
import {
  isWellFormedS256Challenge,
  isWellFormedVerifier,
  s256Challenge,
  verifierMatches,
} from '../../../packages/emulator/src/oauth/pkce.js';
import {
  isLoopbackHttpUrl,
  isRegisteredRedirectUri,
  withQueryParams,
} from '../../../packages/emulator/src/oauth/redirectUris.js';
import { generateApplicationKey } from '../../../packages/emulator/src/store/applicationKey.js';
import { portalDefaults } from '../../../packages/emulator/src/store/migrate.js';
import type { ApplicationRecord } from '../../../packages/emulator/src/store/types.js';

describe('PKCE', () => {
  it('matches the RFC 7636 appendix B vector and the 00..1f vector', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    expect(s256Challenge('AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8')).toBe(
      '6oZqdX5MOLq_qBJ8vppAnT4fk6AP8UiP9zX8-Rev_9A',
    );
    expect(
      verifierMatches(
        'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
        'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      ),
    ).toBe(true);
    expect(
      verifierMatches(
        'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj',
        'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      ),
    ).toBe(false);
  });

  it('checks verifier and challenge forms', () => {
    expect(isWellFormedVerifier('a'.repeat(43))).toBe(true);
    expect(isWellFormedVerifier('a'.repeat(128))).toBe(true);
    expect(isWellFormedVerifier('a'.repeat(42))).toBe(false);
    expect(isWellFormedVerifier('a'.repeat(129))).toBe(false);
    expect(isWellFormedVerifier(`${'a'.repeat(42)}~`)).toBe(true);
    expect(isWellFormedVerifier(`${'a'.repeat(42)}+`)).toBe(false);
    expect(isWellFormedS256Challenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(isWellFormedS256Challenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM=')).toBe(false);
  });
});

describe('redirect URIs', () => {
  const app: ApplicationRecord = {
    id: '42',
    name: 'x',
    clientSecret: 's',
    botToken: 'b',
    customSchemes: ['mygame'],
    privilegedIntents: 0,
    channelObfuscation: false,
    signatureKey: generateApplicationKey(),
    ...portalDefaults(),
    interactionsEndpointUrl: null,
  };

  it('registers loopback http URIs on any port and path, and exact custom-scheme URIs', () => {
    for (const uri of [
      'http://127.0.0.1/callback',
      'http://127.0.0.1:8080/callback',
      'http://localhost:1/a/b?x=1',
      'http://[::1]:9/cb',
      'discord-42:/authorize/callback',
      'mygame:/authorize/callback',
    ]) {
      expect(isRegisteredRedirectUri(uri, app), uri).toBe(true);
    }
    for (const uri of [
      'https://127.0.0.1/callback',
      'http://127.0.0.2/callback',
      'http://evil.example/callback',
      'http://user:pw@127.0.0.1/callback',
      'http://127.0.0.1/callback#frag',
      'discord-43:/authorize/callback',
      'discord-42:/authorize/callback?x=1',
      'mygame://authorize/callback',
      'not a uri',
    ]) {
      expect(isRegisteredRedirectUri(uri, app), uri).toBe(false);
    }
  });

  it('adds query parameters to both kinds, keeping existing ones', () => {
    expect(withQueryParams('http://127.0.0.1:1/cb?keep=1', { code: 'c', state: undefined })).toBe(
      'http://127.0.0.1:1/cb?keep=1&code=c',
    );
    expect(withQueryParams('discord-42:/authorize/callback', { code: 'a b', state: 's' })).toBe(
      'discord-42:/authorize/callback?code=a+b&state=s',
    );
    expect(isLoopbackHttpUrl('http://localhost:3/x')).toBe(true);
    expect(isLoopbackHttpUrl('discord-42:/authorize/callback')).toBe(false);
  });
});

describe('consent tokens', () => {
  const key = Buffer.alloc(32, 7);
  const params = new Map([
    ['client_id', '42'],
    ['state', 's'],
  ]);

  it('binds to the parameters (in any order) and expires', () => {
    const token = makeConsentToken(key, params, 1000);
    const reordered = new Map([...params].reverse());
    expect(checkConsentToken(key, token, reordered, 1000)).toBe(true);
    expect(checkConsentToken(key, token, new Map([...params, ['state', 't']]), 1000)).toBe(false);
    expect(checkConsentToken(key, token, params, 1000 + CONSENT_FORM_TTL_MS)).toBe(false);
    expect(checkConsentToken(Buffer.alloc(32, 8), token, params, 1000)).toBe(false);
    expect(checkConsentToken(key, 'garbage', params, 1000)).toBe(false);
    expect(checkConsentToken(key, '.x', params, 1000)).toBe(false);
  });
});

describe('external tokens', () => {
  const jwt = (claims: Record<string, unknown>): string =>
    `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

  it('reads JWT claims without keeping the token', () => {
    expect(
      readExternalToken(
        'OIDC',
        jwt({ sub: 'abc', preferred_username: 'Hero', iss: 'https://id.example' }),
        0,
      ),
    ).toEqual({
      provider: 'OIDC',
      subject: 'abc',
      issuer: 'https://id.example',
      displayName: 'Hero',
    });
    expect(
      readExternalToken('OIDC', jwt({ sub: 'abc', preferred_username: 'x'.repeat(33) }), 0).displayName,
    ).toBeNull();
  });

  it('refuses a JWT without sub (530020) or past its exp (530001)', () => {
    expect(() => readExternalToken('OIDC', jwt({ iss: 'x' }), 0)).toThrow(ExternalTokenError);
    try {
      readExternalToken('APPLE_ID_TOKEN', jwt({ sub: 'a', exp: 10 }), 11_000);
      expect.unreachable();
    } catch (error) {
      expect((error as ExternalTokenError).code).toBe(530001);
    }
  });

  it('names an opaque token by a hash, per type', () => {
    const a = readExternalToken('STEAM_SESSION_TICKET', 'secret-ticket', 0);
    expect(a.subject).not.toContain('secret-ticket');
    expect(readExternalToken('STEAM_SESSION_TICKET', 'secret-ticket', 0).subject).toBe(a.subject);
    expect(readExternalToken('UNITY_SERVICES_ID_TOKEN', 'secret-ticket', 0).subject).not.toBe(a.subject);
  });
});
