import { afterEach, describe, expect, it } from 'vitest';

import { exitOf, firstLine, killChildren, output, runCli } from './cliProcess.js';

afterEach(killChildren);

const CHILD = '1500000000000000001';

describe('sdkpp emulator: publisher children and OIDC issuers from the command line', () => {
  it('--child-app makes a child application whose accepted scopes narrow the child token', async () => {
    const child = runCli([
      'emulator',
      '--port',
      '0',
      '--json',
      '--no-rpc',
      '--child-app',
      `${CHILD}=openid,sdk.social_layer_presence`,
    ]);
    try {
      const info = JSON.parse(await firstLine(child)) as { api: string; applicationId: string };
      const provisional = await fetch(`${info.api}/partner-sdk/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: info.applicationId,
          external_auth_type: 'STEAM_SESSION_TICKET',
          external_auth_token: 'cli-ticket',
        }),
      });
      const parent = (await provisional.json()) as { access_token: string };
      const exchange = await fetch(`${info.api}/partner-sdk/child-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ child_application_id: CHILD, parent_access_token: parent.access_token }),
      });
      const body = (await exchange.json()) as { scope: string; refresh_token?: string; token_type: string };
      expect(exchange.status).toBe(200);
      expect(body).toMatchObject({ scope: 'sdk.social_layer_presence', token_type: 'Bearer' });
      expect(body.refresh_token).toBeUndefined();
    } finally {
      child.kill('SIGINT');
      await exitOf(child);
    }
    const bad = runCli(['emulator', '--port', '0', '--child-app', 'not-an-id']);
    expect(await exitOf(bad)).toBe(2);
  });

  it('--oidc-issuer refuses a loopback issuer unless --allow-loopback-oidc-issuers is given', async () => {
    const refused = runCli(['emulator', '--port', '0', '--no-rpc', '--oidc-issuer', 'http://127.0.0.1:9']);
    const streams = output(refused);
    expect(await exitOf(refused)).not.toBe(0);
    expect(streams.stderr()).toContain('EmulatorOptions.oidcProviders[0].issuer must use https');
    const allowed = runCli([
      'emulator',
      '--port',
      '0',
      '--json',
      '--no-rpc',
      '--oidc-issuer',
      'http://127.0.0.1:9=game',
      '--allow-loopback-oidc-issuers',
    ]);
    try {
      expect(JSON.parse(await firstLine(allowed))).toHaveProperty('api');
    } finally {
      allowed.kill('SIGINT');
      await exitOf(allowed);
    }
  });
});
