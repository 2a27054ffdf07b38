#!/usr/bin/env node
// Makes the prebuilt addon that ships in the package: prebuilds/<platform>-<arch>/node.napi.<libc>.node,
// built by prebuildify (one Node-API build serves every Node ≥ 20 and Electron), stripped, and then
// checked: it must load in a fresh process and pass its self-tests. The loader (src/media/addon/loader.ts)
// prefers it to a local build, so a user with no compiler, or whose npm skipped install scripts, still
// gets the native engine.
//   npm run native:prebuild (npm pack's prepack step)  for this machine (here: linux-x64, glibc)
//   node scripts/prebuild.mjs --cwd <dir>              for a copy of the package
// Like scripts/build-native.mjs, node-gyp gets the running Node's own headers (npm_config_nodedir), so
// nothing is downloaded, and libopus 1.4 is built from source first and linked in statically.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { staticCrypto } from './crypto-config.mjs';
import { checkPrebuild } from './prebuild-check.mjs';

const { values } = parseArgs({ options: { cwd: { type: 'string' } } });
const packageRoot = path.resolve(values.cwd ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));

function fail(message) {
  process.stderr.write(`sdkpp prebuild: ${message}\n`);
  process.exit(1);
}

// A prebuild ships to every consumer, Electron and Bun games included: it must carry its own crypto.
const crypto = staticCrypto();
if (!crypto) {
  fail(
    'no static libcrypto to link (Debian: apt-get install libssl-dev); a prebuild on the host OpenSSL would not load in Electron or Bun',
  );
}

const opus = spawnSync(process.execPath, [path.join(packageRoot, 'scripts', 'opus-build.mjs')], {
  stdio: 'inherit',
});
if (opus.status !== 0) fail('the libopus build script failed');

// prebuildify hands node-gyp a copy of process.env (an `env` option is ignored), so the settings go there.
process.env.npm_config_nodedir ??= path.resolve(process.execPath, '../..');
process.env.npm_config_jobs ??= process.env.JOBS ?? '2';
const prebuildify = createRequire(import.meta.url)('prebuildify');
const started = performance.now();
await new Promise((resolve) => {
  prebuildify(
    {
      cwd: packageRoot,
      napi: true,
      strip: true,
      tagLibc: true,
      targets: [],
    },
    (error) => (error ? fail(`prebuildify failed: ${error.message ?? error}`) : resolve()),
  );
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);

// prebuildify moves build/Release's addon into prebuilds/; a copy stays, so the local build is unchanged.
const localBuild = path.join(packageRoot, 'build', 'Release', 'sdkpp_native.node');
const check = await checkPrebuild(packageRoot);
if (check.ok && !existsSync(localBuild)) {
  mkdirSync(path.dirname(localBuild), { recursive: true });
  copyFileSync(check.file, localBuild);
}
if (!check.ok) fail(`the prebuild does not work: ${check.reason}`);
process.stdout.write(
  `sdkpp prebuild: ${path.relative(packageRoot, check.file)} built in ${seconds} s and checked ` +
    `(engine ${check.engine.version}, ABI ${check.engine.abi}, ${check.engine.opus ?? 'no libopus'}, ` +
    `static OpenSSL ${crypto.version})\n`,
);
