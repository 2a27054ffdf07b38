#!/usr/bin/env node
// Builds the benches' Opus peer, @discordjs/opus (the binding @discordjs/voice uses through prism-media),
// from its npm tarball. It cannot be a dependency: its install script first downloads a prebuilt binary
// from GitHub, which this project's installs never do. Here only the registry tarball is fetched (`npm
// pack`, checked against the pinned sha512) and its own binding.gyp is compiled by our node-gyp against
// the running Node's headers: the same native code its from-source install builds (libopus 1.3.1, their
// flags). `npm run bench` calls this; without a registry or compiler the benches fall back to @evan/opus.
//
//   node scripts/bench-peers.mjs     prints the path of the built opus.node, or exits 1 saying why
// It also writes a NODE_PATH folder holding @discordjs/opus as a package (see discordjsOpusNodePath), for
// the bench that runs @discordjs/voice itself (bench/mainThread.ts).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const PEER = Object.freeze({
  npmPackage: '@discordjs/opus@0.10.0',
  integrity:
    'sha512-HHEnSNrSPmFEyndRdQBJN2YE6egyXS9JUnJWyP6jficK0Y+qKMEZXyYTgmzpjrxXP1exM/hKaNP7BRBUEWkU5w==',
});

const require = createRequire(import.meta.url);
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const peerRoot = path.join(packageRoot, 'build-deps', 'bench-peers', 'discordjs-opus');
const moduleDir = path.join(peerRoot, 'module');
/** The built binding: what @discordjs/opus's lib/index.js loads through node-pre-gyp. */
export const discordjsOpusBinary = path.join(moduleDir, 'opus.node');
/**
 * A folder for NODE_PATH that holds `@discordjs/opus` as a package whose index loads the built binding (what
 * the real lib/index.js does once node-pre-gyp found it), so that prism-media's `require('@discordjs/opus')`
 * inside @discordjs/voice finds it in a bench process, as it would in a bot's install.
 */
export const discordjsOpusNodePath = path.join(peerRoot, 'node-path');
const stampFile = path.join(peerRoot, 'stamp.json');

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`;
    throw new Error(
      `${path.basename(command)} ${args.slice(0, 2).join(' ')} failed:\n${output.trim().split('\n').slice(-12).join('\n')}`,
    );
  }
  return result.stdout;
}

/** Writes the NODE_PATH package of {@link discordjsOpusNodePath}. */
function writeNodePathPackage() {
  const dir = path.join(discordjsOpusNodePath, '@discordjs', 'opus');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: '@discordjs/opus', version: PEER.npmPackage.split('@').pop(), main: 'index.js' })}\n`,
  );
  writeFileSync(
    path.join(dir, 'index.js'),
    `module.exports = require(${JSON.stringify(discordjsOpusBinary)});\n`,
  );
}

function build() {
  const stamp = JSON.stringify({ ...PEER, node: process.version });
  if (existsSync(discordjsOpusBinary) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    writeNodePathPackage();
    return;
  }
  rmSync(peerRoot, { recursive: true, force: true });
  mkdirSync(peerRoot, { recursive: true });
  const npm = process.env.npm_execpath?.endsWith('.js')
    ? [process.execPath, [process.env.npm_execpath]]
    : ['npm', []];
  const name = run(
    npm[0],
    [...npm[1], 'pack', PEER.npmPackage, '--pack-destination', peerRoot, '--silent'],
    peerRoot,
  )
    .trim()
    .split('\n')
    .pop();
  const tarball = path.join(peerRoot, name);
  const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (digest !== PEER.integrity) throw new Error(`${name} does not match the pinned sha512 (got ${digest})`);
  run('tar', ['xzf', tarball, '-C', peerRoot], peerRoot);
  const source = path.join(peerRoot, 'package');
  // Its binding.gyp asks node-addon-api for include dirs; ours (a newer major with the same C++ API) serves.
  const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');
  const nodeDir = path.resolve(process.execPath, '../..');
  run(
    process.execPath,
    [
      nodeGyp,
      'rebuild',
      `--jobs=${process.env.JOBS || '2'}`,
      ...(existsSync(path.join(nodeDir, 'include', 'node', 'node_api.h')) ? [`--nodedir=${nodeDir}`] : []),
      '--module_name=opus',
      `--module_path=${moduleDir}`,
      '--napi_build_version=8',
    ],
    source,
  );
  if (!existsSync(discordjsOpusBinary)) throw new Error('node-gyp finished without building opus.node');
  writeNodePathPackage();
  writeFileSync(stampFile, stamp);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    build();
    process.stdout.write(`${discordjsOpusBinary}\n`);
  } catch (error) {
    process.stderr.write(
      `bench peers: @discordjs/opus was not built (${error instanceof Error ? error.message : String(error)})\n`,
    );
    process.exitCode = 1;
  }
}
