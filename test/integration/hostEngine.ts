import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What a game sees of its media engine in another host. */
export interface HostEngineSeen {
  /** `typeof Bun` or `typeof Deno` inside the host: `'object'` when the host is the one meant. */
  runtime: string;
  engine: string;
  crypto: { backend: string; version: string; linkage: string };
  selfTest: boolean;
}

/**
 * Imports the package's built dist/ in another host (`runner` plus its arguments before the script) and reports
 * the media engine a Client gets there, its crypto and its self-test.
 */
export async function engineSeenIn(
  runner: string,
  args: string[],
  hostGlobal: 'Bun' | 'Deno',
  env: NodeJS.ProcessEnv = process.env,
): Promise<HostEngineSeen> {
  const script = `
    const { Client } = await import(${JSON.stringify(path.resolve('packages/sdkpp/dist/index.js'))});
    const client = new Client({ localClient: false });
    const info = client.getMediaEngineInfo();
    console.log(JSON.stringify({ runtime: typeof ${hostGlobal}, engine: info.engine, crypto: info.crypto, selfTest: client.runMediaSelfTest().ok }));
    await client.destroy();`;
  const { stdout } = await run(runner, [...args, script], { timeout: 60_000, env });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as HostEngineSeen;
}
