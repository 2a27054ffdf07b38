import { describe, expect, it } from 'vitest';

import {
  jsonDepthExceeds,
  MAX_JSON_DEPTH,
  parseBoundedJson,
} from '../../../packages/protocol/src/base/boundedJson.js';

describe('parseBoundedJson', () => {
  it('parses JSON up to the depth bound and refuses one level more, with a typed problem', () => {
    const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(parseBoundedJson(nested(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    expect(() => parseBoundedJson(nested(MAX_JSON_DEPTH + 1))).toThrow(
      expect.objectContaining({ name: 'JsonBoundsError', problem: 'too_deep' }) as Error,
    );
    expect(() => parseBoundedJson('{"a":')).toThrow(expect.objectContaining({ problem: 'invalid' }) as Error);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[" and \\\\', c: [['x']] });
    expect(jsonDepthExceeds(text, 3)).toBe(false);
    expect(jsonDepthExceeds(text, 2)).toBe(true);
    expect(parseBoundedJson(text, 3)).toEqual(JSON.parse(text));
  });

  it('stops counting as soon as the bound is passed, whatever follows', () => {
    // A 4 MB prefix of brackets never closed: refused as too deep, not parsed.
    expect(() => parseBoundedJson('['.repeat(4_000_000))).toThrow(
      expect.objectContaining({ problem: 'too_deep' }) as Error,
    );
  });
});
