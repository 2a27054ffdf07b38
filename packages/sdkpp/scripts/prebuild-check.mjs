// Finds the prebuilt addon that fits this Node (node-gyp-build's rules: prebuilds/<platform>-<arch>/,
// runtime, Node-API, libc) and checks it in a child process: it must load and pass its own self-tests.
// A child, because a .node file that crashes or hangs while loading must not take the caller with it.
//   import { checkPrebuild } from './prebuild-check.mjs'  →  { ok: true, file, engine } | { ok: false, reason }
//   node scripts/prebuild-check.mjs [packageRoot]        prints that as JSON; exit 0 when ok
import { execFile } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CHECK_TIMEOUT_MS = 30_000;

// Runs in the child. PREBUILDS_ONLY makes node-gyp-build ignore build/, so only a prebuild can answer.
const CHILD = `
const root = process.argv[1];
let file;
try {
  file = require(require.resolve('node-gyp-build', { paths: [root] })).path(root);
} catch (error) {
  console.log(JSON.stringify({ ok: false, reason: 'no prebuild fits ' + process.platform + '-' + process.arch }));
  process.exit(0);
}
let addon;
try {
  addon = require(file);
} catch (error) {
  console.log(JSON.stringify({ ok: false, file, reason: 'the prebuild did not load: ' + error.message.split('\\n')[0] }));
  process.exit(0);
}
const failed = ['cryptoSelfTest', 'transportSelfTest', 'daveSelfTest']
  .filter((name) => typeof addon[name] === 'function' && !addon[name]().ok);
const info = addon.engineInfo();
console.log(JSON.stringify(failed.length === 0
  ? { ok: true, file, engine: { version: info.version, abi: info.abi, opus: info.opus && info.opus.version } }
  : { ok: false, file, reason: 'self-tests failed: ' + failed.join(', ') }));
`;

/** Checks the prebuild of the package at `packageRoot` for this platform, without loading it here. */
export function checkPrebuild(packageRoot) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-e', CHILD, packageRoot],
      { env: { ...process.env, PREBUILDS_ONLY: '1' }, timeout: CHECK_TIMEOUT_MS },
      (error, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout.trim().split('\n').pop() ?? ''));
        } catch {
          const why = error?.signal ? `killed by ${error.signal}` : (stderr.trim().split('\n')[0] ?? '');
          resolve({ ok: false, reason: `the prebuild did not load (${why || 'no output'})` });
        }
      },
    );
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const result = await checkPrebuild(root);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exitCode = result.ok ? 0 : 1;
}
