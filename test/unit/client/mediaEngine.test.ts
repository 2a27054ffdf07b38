import { describe, expect, it } from 'vitest';

import { Client, LoggingSeverity } from '../../../packages/sdkpp/src/index.js';

describe('Client media engine', () => {
  it.each(['native', 'js'] as const)(
    'reports the %s engine when asked for it, and its self-test passes',
    (engine) => {
      const client = new Client({ mediaEngine: engine });
      const info = client.getMediaEngineInfo();
      expect(info.engine).toBe(engine);
      expect(info.features).toContain('aes-256-gcm');
      expect(client.runMediaSelfTest().ok).toBe(true);
    },
  );

  it("'auto' picks the native engine when the addon is built, with no warning", () => {
    const warnings: string[] = [];
    const client = new Client({
      logCallback: (line) => warnings.push(line),
      logSeverity: LoggingSeverity.Warning,
    });
    expect(client.getMediaEngineInfo().engine).toBe('native');
    expect(warnings).toEqual([]);
  });
});
