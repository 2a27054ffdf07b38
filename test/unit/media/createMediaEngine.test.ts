import { describe, expect, it, vi } from 'vitest';

import {
  createMediaEngine,
  getDefaultMediaEngine,
  getMediaEngineInfo,
  JS_ENGINE_WARNING_CODE,
  loadNativeAddon,
  MediaEngineError,
  type NativeAddonLoadResult,
} from '../../../packages/sdkpp/src/media/index.js';
import { thrownBy } from './reference.js';

const missingAddon = (): NativeAddonLoadResult => loadNativeAddon({ searchPaths: ['/nonexistent/x.node'] });

describe('createMediaEngine', () => {
  // First in the file on purpose: the fallback warning is once per process (per test file under vitest).
  it("falls back to the JS engine under 'auto' and warns once per process, with the remedy", () => {
    const warn = vi.fn<(message: string) => void>();
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const first = createMediaEngine({ loadNativeAddon: missingAddon, log: { warn } });
    const second = createMediaEngine({ prefer: 'auto', loadNativeAddon: missingAddon, log: { warn } });

    for (const engine of [first, second]) {
      expect(engine.info.engine).toBe('js');
      expect(engine.info.fallbackReason).toContain('/nonexistent/x.node');
    }
    expect(warn).toHaveBeenCalledTimes(1);
    const message = warn.mock.calls[0]?.[0] ?? '';
    expect(message).toContain('JS media engine');
    expect(message).toContain('/nonexistent/x.node');
    expect(message).toContain('npm run build:native');
    // The same line as a process warning, which needs no log callback (once, like the log's).
    expect(emitWarning).toHaveBeenCalledTimes(1);
    expect(emitWarning).toHaveBeenCalledWith(message, { code: JS_ENGINE_WARNING_CODE });
    emitWarning.mockRestore();
  });

  it("throws a coded error naming the fix when 'native' is required but missing", () => {
    const error = thrownBy(() => createMediaEngine({ prefer: 'native', loadNativeAddon: missingAddon }));
    expect(error).toBeInstanceOf(MediaEngineError);
    expect(error).toMatchObject({ code: 'ERR_NATIVE_ADDON_UNAVAILABLE' });
    expect((error as Error).message).toContain('npm run build:native');
  });

  it("never loads the addon for 'js'", () => {
    const loader = vi.fn(missingAddon);
    const engine = createMediaEngine({ prefer: 'js', loadNativeAddon: loader });
    expect(loader).not.toHaveBeenCalled();
    expect(engine.info.engine).toBe('js');
    expect(engine.info.fallbackReason).toBeUndefined();
  });

  it("takes the native engine under 'auto' when the addon is built", () => {
    const engine = createMediaEngine();
    expect(engine.info.fallbackReason).toBeUndefined();
    expect(engine.info.engine).toBe('native');
  });

  it('shares one default engine, so asking for its info never builds a second', () => {
    const engine = getDefaultMediaEngine();
    expect(getDefaultMediaEngine()).toBe(engine);
    expect(getMediaEngineInfo()).toBe(engine.info);
    expect(getMediaEngineInfo().engine).toBe('native');
  });
});
