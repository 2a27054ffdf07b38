import { describe, expect, it } from 'vitest';

import { mediaType, parseUrlEncoded } from '../../../packages/emulator/src/http/body.js';
import { BodyError } from '../../../packages/emulator/src/http/errors.js';
import { escapeHtml } from '../../../packages/emulator/src/http/html.js';
import { parseGatewayQuery } from '../../../packages/emulator/src/gateway/GatewayServer.js';

describe('parseUrlEncoded', () => {
  it('decodes names and values, + as space, and empty values', () => {
    const fields = parseUrlEncoded('a=1&b=x+y%20z&c=&d&e=%E2%9C%93');
    expect([...fields]).toEqual([
      ['a', '1'],
      ['b', 'x y z'],
      ['c', ''],
      ['d', ''],
      ['e', '✓'],
    ]);
    expect(parseUrlEncoded('').size).toBe(0);
    expect(parseUrlEncoded('&&a=1&').get('a')).toBe('1');
  });

  it('refuses bad percent-encoding and repeated names', () => {
    expect(() => parseUrlEncoded('a=%zz')).toThrow(BodyError);
    expect(() => parseUrlEncoded('a=%E0%A4%A')).toThrow(BodyError);
    expect(() => parseUrlEncoded('a=1&a=2')).toThrow(/repeated/);
  });
});

describe('mediaType', () => {
  it('lowercases and drops parameters', () => {
    expect(mediaType('Application/X-WWW-Form-Urlencoded; charset=UTF-8')).toBe(
      'application/x-www-form-urlencoded',
    );
    expect(mediaType(undefined)).toBeUndefined();
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('parseGatewayQuery', () => {
  it('needs v=10, serves json only, and zlib-stream or no compression', () => {
    expect(parseGatewayQuery('v=10&encoding=json').ok).toBe(true);
    expect(parseGatewayQuery('v=10').ok).toBe(true);
    expect(parseGatewayQuery('v=10&encoding=json&compress=zlib-stream').ok).toBe(true);
    const v9 = parseGatewayQuery('v=9&encoding=json');
    expect(v9.ok ? '' : v9.reason).toMatch(/version/);
    expect(parseGatewayQuery('encoding=json').ok).toBe(false);
    const etf = parseGatewayQuery('v=10&encoding=etf');
    expect(etf.ok ? '' : etf.reason).toMatch(/only json/);
    expect(parseGatewayQuery('v=10&compress=zstd-stream').ok).toBe(false);
  });
});
