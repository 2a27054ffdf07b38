import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const coreDir = fileURLToPath(new URL('../../packages/sdkpp/native/core', import.meta.url));

// native/core is plain C++17 so that a C API, a wasm build or a gtest binary can reuse it; the Node glue
// lives in native/napi only.
const NODE_HEADERS = new Set([
  'napi.h',
  'napi-inl.h',
  'node_api.h',
  'js_native_api.h',
  'node.h',
  'v8.h',
  'uv.h',
]);

describe('native/core', () => {
  const files = readdirSync(coreDir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    /\.(h|hh|hpp|cc|cpp)$/.test(file),
  );

  it('has sources to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('includes no N-API, V8, libuv or Node header', () => {
    const offenders: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(coreDir, file), 'utf8');
      for (const match of text.matchAll(/^\s*#\s*include\s*[<"]([^>"]+)[>"]/gm)) {
        const header = path.posix.basename(match[1] ?? '');
        if (NODE_HEADERS.has(header)) offenders.push(`${file}: ${header}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
