import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = 'scripts/bindings-coverage.mjs';

interface Entry {
  name: string;
  status?: string;
  why?: string;
  cpp?: string;
  static?: boolean;
}
interface Coverage {
  functions: Entry[];
  enums: Entry[];
  classes: Array<{ name: string; status?: string; methods: Entry[] }>;
}

const coverage = JSON.parse(readFileSync('packages/sdkpp/bindings/coverage.json', 'utf8')) as Coverage;

/** Runs the generator; resolves with its exit code and output instead of throwing on a failure. */
async function generator(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('docs/bindings-coverage.md', () => {
  it('is current, and every claim of bindings/coverage.json holds for the built bindings', async () => {
    const result = await generator('--check');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/checked docs\/bindings-coverage\.md: \d+ implemented/);
  });

  it('lists the whole C++ SDK: 32 classes, Client’s 156 methods, 27 public enums', () => {
    expect(coverage.classes).toHaveLength(32);
    const client = coverage.classes.find((c) => c.name === 'Client');
    // Entries without a C++ counterpart (extensions, `operator bool` as IsValid) are not C++ methods.
    const cppMethods = client?.methods.filter((m) => m.status !== 'extension' && m.cpp === undefined);
    // The 1.9.16441 header's 154, and GetUserApplicationProfiles with its NoLock variant from the change log.
    expect(cppMethods).toHaveLength(156);
    expect(coverage.enums).toHaveLength(27);
    for (const cls of coverage.classes) {
      for (const method of cls.methods) {
        const status = method.status ?? cls.status;
        expect(['implemented', 'extension', 'not-applicable', 'planned']).toContain(status);
      }
    }
  });

  it('--check fails on a false claim, a missing method, a stale entry and a stale page', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-coverage-'));
    const page = path.join(dir, 'page.md');
    copyFileSync('docs/bindings-coverage.md', page);
    const tampered = structuredClone(coverage);
    const client = tampered.classes.find((c) => c.name === 'Client');
    if (!client) throw new Error('no Client in the list');
    // A method the bindings lack claimed as done, a done one claimed as planned, one dropped from the list.
    // Every Client method is built or not applicable now, so the false claim is made of a not-applicable one.
    const planned = client.methods.find((m) => m.status === 'planned' || m.status === 'not-applicable');
    const connect = client.methods.find((m) => m.name === 'Connect');
    if (!planned || !connect) throw new Error('the list has no unbuilt Client method, or lost Connect');
    planned.status = 'implemented';
    connect.status = 'planned';
    connect.why = 'pretend';
    client.methods = client.methods.filter((m) => m.name !== 'Disconnect');
    const data = path.join(dir, 'coverage.json');
    writeFileSync(data, JSON.stringify(tampered));

    const result = await generator('--check', '--data', data, '--page', page);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Client.${planned.name} is marked implemented but the bindings class has no such method`,
    );
    expect(result.stderr).toContain('Client.Connect is marked planned but the bindings class has it');
    expect(result.stderr).toContain('Client.Disconnect is on the bindings class but not in the list');
    expect(result.stderr).toMatch(/page\.md is stale/);
  });
});
