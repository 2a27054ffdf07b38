import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';

import { hasStackTrace, killChildren, ROOT, runToEnd } from './cliProcess.js';

afterEach(killChildren);

const EMULATOR_FLAGS = [
  '--port N',
  '--host H',
  '--users N',
  '--state FILE',
  '--auto-consent',
  '--app-id ID',
  '--bot-token T',
  '--no-rpc',
  '--rpc-user NAME',
  '--no-seed-guild',
  '--no-activity-csp',
  '--rate-limits P',
  '--http-latency MS',
  '--voice-port N',
  '--voice-udp-port N',
  '--voice-ca DIR|none',
  '--allow-non-dave',
  '--voice-impairment SPEC',
  '--child-app ID[=SCOPES]',
  '--oidc-issuer URL[=AUDIENCE]',
  '--allow-loopback-oidc-issuers',
  '--json',
  '--verbose',
  '-h, --help',
];

describe('sdkpp --version, --help and mistakes', () => {
  it('prints the package version for --version and -v', async () => {
    const { version } = JSON.parse(readFileSync(`${ROOT}packages/sdkpp/package.json`, 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-v']) {
      const run = await runToEnd([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
    }
  });

  it('answers --help on every command with its usage, every flag and the defaults', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const run = await runToEnd(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Usage: sdkpp <command>');
      expect(run.stdout).toMatch(/emulator\s+start the local platform emulator/);
      expect(run.stdout).toContain('-v, --version');
    }
    for (const args of [
      ['emulator', '--help'],
      ['help', 'emulator'],
      ['emulator', 'exec', '--help'],
      ['help', 'emulator', 'exec'],
    ]) {
      const run = await runToEnd(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toContain('Usage: sdkpp emulator');
      for (const flag of EMULATOR_FLAGS) expect(run.stdout, flag).toContain(`  ${flag}`);
      expect(run.stdout).toContain('(default: 24680)');
      expect(run.stdout).toContain('(default: 127.0.0.1)');
      expect(run.stdout).toContain('(default: 2: alice, bob)');
    }
    const exec = await runToEnd(['emulator', 'exec', '--help']);
    expect(exec.stdout).toContain('Usage: sdkpp emulator exec [options] [--] <command> [args…]');
    for (const name of [
      'SDKPP_EMULATOR_HTTP',
      'SDKPP_EMULATOR_API',
      'SDKPP_APPLICATION_ID',
      'SDKPP_BOT_TOKEN',
      'SDKPP_APP_PUBLIC_KEY',
      'SDKPP_CLIENT_SECRET',
      'NODE_EXTRA_CA_CERTS',
    ]) {
      expect(exec.stdout).toContain(name);
    }
  });

  it('suggests the closest command or flag, exits 2, and never prints a stack trace', async () => {
    const cases: Array<[string[], string]> = [
      [['emulatr'], 'unknown command "emulatr" (did you mean "emulator"?)'],
      [['--verison'], 'unknown option "--verison" (did you mean "--version"?)'],
      [['help', 'emulater'], 'unknown command "emulater" (did you mean "emulator"?)'],
      [['emulator', '--prot', '0'], 'unknown option --prot (did you mean --port?)'],
      [['emulator', '--auto-consnet'], 'unknown option --auto-consnet (did you mean --auto-consent?)'],
      [['emulator', '--user=3'], 'unknown option --user (did you mean --users?)'],
      [['emulator', 'exec', '--jsno', '--', 'true'], 'unknown option --jsno (did you mean --json?)'],
      [['emulator', 'exec', '--port', '0'], 'no command given'],
      [['emulator', 'serve'], 'unexpected argument "serve"'],
      [['emulator', '--port'], '--port needs a value (N)'],
    ];
    for (const [args, message] of cases) {
      const run = await runToEnd(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
      expect(hasStackTrace(run.stderr), run.stderr).toBe(false);
    }
  });

  it('answers --help of "emulator call" and its mistakes the same way', async () => {
    for (const args of [
      ['emulator', 'call', '--help'],
      ['help', 'emulator', 'call'],
    ]) {
      const run = await runToEnd(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toContain("Usage: sdkpp emulator call [--emulator URL] <hook> ['<JSON arguments>']");
      expect(run.stdout).toContain('       sdkpp emulator call --list [--json]');
      for (const flag of ['--emulator URL', '--list', '--json', '-h, --help']) {
        expect(run.stdout, flag).toContain(`  ${flag}`);
      }
      expect(run.stdout).toContain('(default: $SDKPP_EMULATOR, else the only one running)');
      expect(run.stdout).toContain('Exit codes: 0 done, 1 the emulator refused the call');
    }
    const emulatorHelp = await runToEnd(['emulator', '--help']);
    expect(emulatorHelp.stdout).toContain("sdkpp emulator call [--emulator URL] <hook> ['<JSON arguments>']");
    const cases: Array<[string[], string]> = [
      [['emulator', 'call', '--lst'], 'unknown option --lst (did you mean --list?)'],
      [['emulator', 'call', 'creatSku'], 'unknown hook "creatSku" (did you mean "createSku"?)'],
    ];
    for (const [args, message] of cases) {
      const run = await runToEnd(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
      expect(hasStackTrace(run.stderr), run.stderr).toBe(false);
    }
  });
});
