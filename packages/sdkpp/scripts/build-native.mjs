#!/usr/bin/env node
// Builds native/ into build/Release/sdkpp_native.node with node-gyp, against the headers of the Node that
// runs this script, so that nothing is downloaded (a bare `node-gyp` would fetch headers from nodejs.org).
//
//   node scripts/build-native.mjs                 fail (non-zero) when the build fails
//   node scripts/build-native.mjs --if-possible   the package's install script: a prebuild for this platform
//                                                 that passes its self-tests is used as is (unless
//                                                 npm_config_build_from_source is set), and a failed build
//                                                 only means the JS media engine is used, so npm install goes on
// libopus is built from source first (scripts/opus-build.mjs). Other arguments go to node-gyp (e.g. `npm run build:native -- --debug`). JOBS sets the parallelism.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { staticCrypto } from './crypto-config.mjs';

import { checkPrebuild } from './prebuild-check.mjs';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ifPossible = process.argv.includes('--if-possible');
const extraArgs = process.argv.slice(2).filter((arg) => arg !== '--if-possible');

/** The running Node's own headers (they include OpenSSL's), else whatever npm was configured with. */
function findNodeDir() {
  const prefix = path.resolve(process.execPath, '../..');
  if (existsSync(path.join(prefix, 'include', 'node', 'node_api.h'))) return prefix;
  return process.env.npm_config_nodedir || undefined;
}

/** npm hands its own node-gyp to lifecycle scripts; outside npm, use the one in devDependencies. */
function findNodeGyp() {
  if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
  return createRequire(import.meta.url).resolve('node-gyp/bin/node-gyp.js');
}

function run(command, args) {
  return new Promise((resolve) => {
    const output = [];
    const child = spawn(command, args, { cwd: packageRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) =>
      resolve({ code: 1, output: `${Buffer.concat(output).toString()}${error.message}\n` }),
    );
    child.on('close', (code, signal) =>
      resolve({ code: code ?? 1, signal, output: Buffer.concat(output).toString() }),
    );
  });
}

function remedyParagraph(failure) {
  const fallback = ifPossible
    ? ' sdkpp still works: the pure-JS media engine (node:crypto) will be used instead of the native one.'
    : '';
  return (
    `sdkpp: the native addon was not built (${failure}).${fallback} ` +
    'To build it, run `npm run build:native` inside the sdkpp repository, or, in a project that depends on ' +
    'sdkpp, `npm install-scripts approve sdkpp && npm rebuild sdkpp` (npm rebuild re-runs this script; ' +
    'approving it keeps npm 11\'s allowScripts policy from skipping it, and an "sdkpp": false entry there must ' +
    'be removed first). Building needs python3, make and a C++17 compiler.\n'
  );
}

/** npm's own switch for packages with prebuilds: `npm install --build-from-source` or the env variable. */
function buildFromSource() {
  const setting = process.env.npm_config_build_from_source;
  return setting !== undefined && setting !== '' && setting !== 'false';
}

async function main() {
  // As the install script: a prebuild that loads and passes its self-tests makes compiling pointless.
  if (ifPossible && !buildFromSource()) {
    const prebuild = await checkPrebuild(packageRoot);
    if (prebuild.ok) {
      process.stdout.write(
        `sdkpp: using the prebuilt native addon ${path.relative(packageRoot, prebuild.file)} (self-tests ` +
          'passed); `npm rebuild sdkpp --build-from-source` builds one here instead\n',
      );
      return 0;
    }
  }
  const nodeDir = findNodeDir();
  let nodeGyp;
  try {
    nodeGyp = findNodeGyp();
  } catch {
    process.stderr.write(remedyParagraph('node-gyp was not found'));
    return ifPossible ? 0 : 1;
  }
  const jobs = process.env.JOBS || '2';
  // Inside a consumer's node_modules a compiler we never tested may warn; that must not cost the addon.
  const asDependency = packageRoot.split(path.sep).includes('node_modules');
  const args = [
    nodeGyp,
    'rebuild',
    `--jobs=${jobs}`,
    ...(nodeDir ? [`--nodedir=${nodeDir}`] : []),
    ...(asDependency ? ['--sdkpp_werror=false'] : []),
    ...extraArgs,
  ];

  // libopus from source first (it says why when it cannot, and never fails): binding.gyp links it.
  const opus = await run(process.execPath, [path.join(packageRoot, 'scripts', 'opus-build.mjs')]);
  process.stdout.write(opus.output);

  const headers = nodeDir ? path.join(nodeDir, 'include', 'node') : 'node-gyp default (may download)';
  const found = staticCrypto();
  const crypto = found
    ? `static OpenSSL ${found.version} from ${found.library}`
    : "the host's OpenSSL: Node only; Electron and Bun will use the JS engine (apt-get install libssl-dev, then npm run build:native, carries a static one)";
  process.stdout.write(
    `sdkpp: building the native addon (node-gyp --jobs=${jobs}, headers ${headers}; crypto: ${crypto}); about 3 min on 2 cores, the time it took is printed at the end\n`,
  );
  const started = performance.now();
  const result = await run(process.execPath, args);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  if (result.code === 0) {
    const built = path.join(
      'build',
      extraArgs.includes('--debug') ? 'Debug' : 'Release',
      'sdkpp_native.node',
    );
    process.stdout.write(`sdkpp: native addon built in ${seconds} s: ${built}\n`);
    return 0;
  }
  process.stderr.write(result.output);
  const failure = result.signal
    ? `node-gyp was stopped by ${result.signal}`
    : `node-gyp exited with code ${result.code}`;
  process.stderr.write(`\n${remedyParagraph(`${failure} after ${seconds} s; its output is above`)}`);
  return ifPossible ? 0 : result.code;
}

process.exitCode = await main();
