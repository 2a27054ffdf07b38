import { describe, expect, it } from 'vitest';

import { GatewaySession, REPLAY_BUFFER_SIZE } from '../../../packages/emulator/src/gateway/GatewaySession.js';
import { SlidingWindowLimiter } from '../../../packages/emulator/src/gateway/RateLimiter.js';
import { renderConsentPage } from '../../../packages/emulator/src/http/consentPage.js';
import { resolveOptions } from '../../../packages/emulator/src/options.js';
import {
  PLATFORM_EPOCH_MS,
  SnowflakeGenerator,
  isSnowflake,
  snowflakeTimestamp,
} from '../../../packages/emulator/src/snowflake.js';
import { expandScopes, parseScopeParam } from '../../../packages/emulator/src/store/scopes.js';
import { errorPageMessage, parseConsentForm } from '../../../packages/emulator/src/testing/browser.js';
import { errorPage } from '../../../packages/emulator/src/http/html.js';

describe('scopes', () => {
  it('expands the presence and communication bundles', () => {
    expect(expandScopes(['openid', 'sdk.social_layer_presence'])).toEqual([
      'openid',
      'sdk.social_layer_presence',
      'activities.invites.write',
      'activities.read',
      'activities.write',
      'application_identities.write',
      'gateway.connect',
      'identify',
      'relationships.read',
      'relationships.write',
    ]);
    const full = expandScopes(['sdk.social_layer']);
    expect(full).toHaveLength(15);
    expect(full).toEqual(
      expect.arrayContaining([
        'gateway.connect',
        'lobbies.write',
        'guilds.channels.read',
        'dm_channels.messages.write',
      ]),
    );
    expect(parseScopeParam('  openid  openid sdk.social_layer ')).toEqual(['openid', 'sdk.social_layer']);
  });
});

describe('snowflakes', () => {
  it('are increasing strings carrying their time', () => {
    let now = PLATFORM_EPOCH_MS + 1_000_000;
    const ids = new SnowflakeGenerator(() => now);
    const a = ids.next();
    const b = ids.next();
    now -= 5; // a clock step back must not produce a smaller id
    const c = ids.next();
    expect(BigInt(b) > BigInt(a)).toBe(true);
    expect(BigInt(c) > BigInt(b)).toBe(true);
    expect(snowflakeTimestamp(a)).toBe(PLATFORM_EPOCH_MS + 1_000_000);
    expect(isSnowflake(a)).toBe(true);
    expect(isSnowflake('12a')).toBe(false);
    expect(isSnowflake('99999999999999999999')).toBe(false);
  });
});

describe('GatewaySession', () => {
  it('numbers dispatches and replays what came after a seq', () => {
    const session = new GatewaySession('s', {
      userId: 'u',
      kind: 'oauth',
      scopes: [],
      intents: 0,
      capabilities: 0,
    });
    for (let i = 0; i < 5; i += 1) session.record('E', { i });
    expect(session.seq).toBe(5);
    expect(session.replayAfter(5)).toEqual([]);
    expect(session.replayAfter(2)?.map((d) => d.s)).toEqual([3, 4, 5]);
    expect(JSON.parse(session.replayAfter(4)?.[0]?.frame ?? '')).toEqual({
      op: 0,
      d: { i: 4 },
      s: 5,
      t: 'E',
    });
  });

  it('keeps a bounded buffer and refuses replays that fell out of it', () => {
    const session = new GatewaySession('s', {
      userId: 'u',
      kind: 'oauth',
      scopes: [],
      intents: 0,
      capabilities: 0,
    });
    for (let i = 0; i < REPLAY_BUFFER_SIZE + 10; i += 1) session.record('E', i);
    expect(session.replayAfter(10)).toHaveLength(REPLAY_BUFFER_SIZE);
    expect(session.replayAfter(9)).toBeNull();
  });
});

describe('SlidingWindowLimiter', () => {
  it('allows count events per window', () => {
    const limiter = new SlidingWindowLimiter(2, 100);
    expect(limiter.take(0)).toBe(true);
    expect(limiter.take(50)).toBe(true);
    expect(limiter.take(99)).toBe(false);
    expect(limiter.take(100)).toBe(true);
  });
});

describe('consent page', () => {
  it('round-trips hidden fields through escaping', () => {
    const params = new Map([
      ['state', `"<&>'`],
      ['redirect_uri', 'http://127.0.0.1:1/cb?a=1&b=2'],
    ]);
    const html = renderConsentPage({
      applicationName: 'Game <1>',
      request: {
        params,
        redirectUri: 'http://127.0.0.1:1/cb?a=1&b=2',
        scopes: ['openid'],
        state: `"<&>'`,
        codeChallenge: 'c',
        nonce: undefined,
        prompt: undefined,
        loginHint: undefined,
        integrationType: undefined,
      },
      users: [],
      selectedUserId: undefined,
      csrfToken: 't.k',
    });
    expect(html).toContain('Game &lt;1&gt;');
    const form = parseConsentForm(html);
    expect(form?.action).toBe('/oauth2/authorize');
    expect(form?.fields.get('state')).toBe(`"<&>'`);
    expect(form?.fields.get('redirect_uri')).toBe('http://127.0.0.1:1/cb?a=1&b=2');
    expect(form?.fields.get('csrf_token')).toBe('t.k');
    expect(html).toMatch(/value="authorize" disabled/);
    expect(errorPageMessage(errorPage('T', 'bad <thing>'))).toBe('bad <thing>');
  });
});

describe('resolveOptions', () => {
  it('applies the documented defaults', () => {
    expect(resolveOptions()).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      users: 2,
      autoConsent: false,
      applicationName: 'sdkpp Demo Game',
      heartbeatIntervalMs: 41_250,
      codeTtlMs: 100_000,
      accessTokenTtlSeconds: 604_800,
      resumeWindowMs: 180_000,
      gatewayRateLimit: { count: 120, windowMs: 60_000 },
    });
  });

  it('refuses bad values', () => {
    expect(() => resolveOptions({ users: -1 })).toThrow(RangeError);
    expect(() => resolveOptions({ heartbeatIntervalMs: 0 })).toThrow(RangeError);
    expect(() => resolveOptions({ botToken: 'has space' })).toThrow(RangeError);
    expect(() => resolveOptions({ customSchemes: ['1bad'] })).toThrow(RangeError);
  });
});
