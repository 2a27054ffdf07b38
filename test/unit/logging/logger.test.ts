import { describe, expect, it } from 'vitest';

import {
  Logger,
  LoggingSeverity,
  REDACTED,
  SecretRedactor,
} from '../../../packages/sdkpp/src/logging/index.js';

function collect(logger: Logger, min = LoggingSeverity.Verbose): Array<[string, LoggingSeverity]> {
  const lines: Array<[string, LoggingSeverity]> = [];
  logger.addCallback((m, s) => lines.push([m, s]), min);
  return lines;
}

describe('Logger', () => {
  it('release mode delivers only Warning and Error, whatever the callback asks', () => {
    const logger = new Logger();
    const lines = collect(logger);
    const w = logger.writer('t');
    w.verbose('v');
    w.info('i');
    w.warn('w');
    w.error('e');
    expect(lines).toEqual([
      ['[t] w', LoggingSeverity.Warning],
      ['[t] e', LoggingSeverity.Error],
    ]);
  });

  it('debug mode says so once, then delivers every severity at or above the minimum', () => {
    const logger = new Logger({ debug: true });
    const lines = collect(logger, LoggingSeverity.Info);
    const second = collect(logger, LoggingSeverity.Verbose);
    logger.writer('x').verbose('detail');
    logger.writer('x').info('progress');
    expect(lines[0]?.[0]).toMatch(/debug build/);
    expect(lines.slice(1)).toEqual([['[x] progress', LoggingSeverity.Info]]);
    expect(second.map((l) => l[0])).toEqual(['[x] detail', '[x] progress']);
  });

  it('a throwing callback neither breaks logging nor other callbacks', () => {
    const logger = new Logger();
    logger.addCallback(() => {
      throw new Error('game bug');
    }, LoggingSeverity.Warning);
    const lines = collect(logger);
    logger.writer('').error('still here');
    expect(lines).toEqual([['still here', LoggingSeverity.Error]]);
  });

  it('the remover stops delivery', () => {
    const logger = new Logger();
    const lines: string[] = [];
    const remove = logger.addCallback((m) => lines.push(m), LoggingSeverity.Warning);
    logger.writer('').warn('one');
    remove();
    logger.writer('').warn('two');
    expect(lines).toEqual(['one']);
  });
});

describe('SecretRedactor', () => {
  it('replaces remembered secrets anywhere in a line', () => {
    const r = new SecretRedactor();
    r.remember('abcdefghijklmnop');
    expect(r.redact('token abcdefghijklmnop leaked twice: xabcdefghijklmnopx')).not.toContain(
      'abcdefghijklmnop',
    );
  });

  it.each([
    ['Authorization: Bearer eyJhbGciOi.abc.def', 'Bearer eyJ'],
    ['Bot MTAxNTI3.Gx9.abc', 'MTAxNTI3'],
    ['grant_type=authorization_code&code=SECRETCODE123&code_verifier=VERIFIERXYZ', 'SECRETCODE123'],
    ['grant_type=authorization_code&code=SECRETCODE123&code_verifier=VERIFIERXYZ', 'VERIFIERXYZ'],
    ['{"access_token":"AT-123456","refresh_token":"RT-654321"}', 'AT-123456'],
    ['{"access_token":"AT-123456","refresh_token":"RT-654321"}', 'RT-654321'],
    ['{"token": "Bearer zzz", "session_id": "s"}', 'zzz'],
    ['redirect?code=abc123xyz&state=st4t3', 'abc123xyz'],
    ['client_secret=hunter2hunter2', 'hunter2'],
  ])('scrubs credential-shaped text in %s', (line, secret) => {
    const out = new SecretRedactor().redact(line);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it('leaves ordinary text alone', () => {
    expect(new SecretRedactor().redact('status Connecting → Ready (session 4)')).toBe(
      'status Connecting → Ready (session 4)',
    );
  });

  it('keeps its memory bounded', () => {
    const r = new SecretRedactor();
    for (let i = 0; i < 2000; i++) r.remember(`secret-value-${i}`);
    expect(r.redact('secret-value-1999')).toBe(REDACTED);
  });
});
