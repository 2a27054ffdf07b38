import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// These run the built package (dist/, made by `npm test`'s build step) as a game would import it.
describe('packaging', () => {
  it('works from CommonJS with require()', async () => {
    const script = `
      const sdk = require('sdkpp');
      const emu = require('@sdkpp/emulator');
      const bindings = require('sdkpp/bindings');
      const backend = require('sdkpp/backend');
      const out = {
        backend: typeof backend.GameBackend,
        client: typeof sdk.Client,
        scopes: sdk.Client.getDefaultCommunicationScopes(),
        verifier: sdk.createAuthorizationCodeVerifier().verifier.length,
        emulator: typeof emu.startEmulator,
        bindings: typeof bindings.AuthorizationArgs,
      };
      emu.startEmulator({ users: 1 }).then(async (e) => {
        const res = await fetch(e.api + '/gateway');
        out.gateway = (await res.json()).url === e.gateway;
        await e.close();
        console.log(JSON.stringify(out));
      });`;
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: process.cwd() });
    expect(JSON.parse(stdout)).toEqual({
      backend: 'function',
      client: 'function',
      scopes: 'openid sdk.social_layer',
      verifier: 43,
      emulator: 'function',
      bindings: 'function',
      gateway: true,
    });
  });

  it('works from ESM with import', async () => {
    const script = `
      const sdk = await import('sdkpp');
      const { startEmulator } = await import('@sdkpp/emulator');
      const { GameBackend } = await import('sdkpp/backend');
      console.log(JSON.stringify({
        client: typeof sdk.Client,
        emulator: typeof startEmulator,
        backend: typeof GameBackend,
      }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: process.cwd(),
    });
    expect(JSON.parse(stdout)).toEqual({ client: 'function', emulator: 'function', backend: 'function' });
  });
});
