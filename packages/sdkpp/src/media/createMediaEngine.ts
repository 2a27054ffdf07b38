import { loadNativeAddon, type NativeAddonLoadResult } from './addon/loader.js';
import { JsMediaEngine } from './js/JsMediaEngine.js';
import type { MediaEngine, MediaEngineInfo } from './MediaEngine.js';
import { MediaEngineError } from './MediaEngineError.js';
import { NativeMediaEngine } from './native/NativeMediaEngine.js';

/**
 * Which engine to use. `'auto'` takes the native addon when it loads and the JS engine otherwise;
 * `'native'` insists on the addon; `'js'` never touches it.
 */
export type MediaEnginePreference = 'auto' | 'native' | 'js';

/**
 * The code of the process warning (`process.emitWarning`) that {@link createMediaEngine} emits, once per
 * process, when `'auto'` falls back to the JS engine. Silence it with `node --disable-warning=SDKPP_JS_ENGINE`.
 */
export const JS_ENGINE_WARNING_CODE = 'SDKPP_JS_ENGINE';

/** Where {@link createMediaEngine} also reports that it fell back to the JS engine. */
export interface MediaEngineLog {
  /** Receives one line naming the reason and the fixing command; never any key material. */
  warn(message: string): void;
}

/** Options of {@link createMediaEngine}. */
export interface CreateMediaEngineOptions {
  /**
   * Which engine to use; see {@link MediaEnginePreference}.
   * @defaultValue `'auto'`
   */
  readonly prefer?: MediaEnginePreference;
  /**
   * Told once per process when `'auto'` falls back to the JS engine, besides the process warning
   * {@link JS_ENGINE_WARNING_CODE} that is emitted in any case.
   */
  readonly log?: MediaEngineLog;
  /**
   * Test seam: replaces the addon loader, e.g. `() => loadNativeAddon({ searchPaths: [...] })` or a
   * fixed `{ ok: false, … }`.
   * @defaultValue `loadNativeAddon` with the package's build folders
   * @internal
   */
  readonly loadNativeAddon?: () => NativeAddonLoadResult;
}

// Per process, like the addon itself: a game that creates many engines hears about the fallback once.
let fallbackReported = false;
let defaultEngine: MediaEngine | undefined;

/**
 * Creates a media engine as `prefer` says. When `'auto'` falls back to the JS engine, the first time in the
 * process it emits a process warning (code {@link JS_ENGINE_WARNING_CODE}) naming the reason and the command
 * that fixes it, and tells `log` the same.
 *
 * @throws MediaEngineError `ERR_NATIVE_ADDON_UNAVAILABLE` when `prefer` is `'native'` and the addon does
 *   not load; the message names the reason and the fixing command.
 */
export function createMediaEngine(options: CreateMediaEngineOptions = {}): MediaEngine {
  const prefer = options.prefer ?? 'auto';
  if (prefer === 'js') return new JsMediaEngine();

  const loaded = (options.loadNativeAddon ?? loadNativeAddon)();
  if (loaded.ok) return new NativeMediaEngine(loaded.addon, { path: loaded.path, origin: loaded.origin });

  if (prefer === 'native') {
    throw new MediaEngineError(
      'ERR_NATIVE_ADDON_UNAVAILABLE',
      `The native media engine is unavailable: ${loaded.reason}. To fix it, ${loaded.remedy}.`,
    );
  }
  if (!fallbackReported) {
    fallbackReported = true;
    const message = `sdkpp: using the JS media engine because ${loaded.reason}. For the faster native engine, ${loaded.remedy}.`;
    // A process warning reaches stderr without any setup, where a log callback may not be set (or not yet).
    if (typeof process.emitWarning === 'function') {
      process.emitWarning(message, { code: JS_ENGINE_WARNING_CODE });
    }
    options.log?.warn(message);
  }
  return new JsMediaEngine({ fallbackReason: loaded.reason });
}

/**
 * The process's shared engine, created with `prefer: 'auto'` on first use and reused after, so that
 * asking which engine runs never builds a second one. `log` only matters on the call that creates it.
 */
export function getDefaultMediaEngine(options: Pick<CreateMediaEngineOptions, 'log'> = {}): MediaEngine {
  defaultEngine ??= createMediaEngine(options);
  return defaultEngine;
}

/**
 * The {@link MediaEngineInfo} of the process's shared engine (created with `prefer: 'auto'` on first use),
 * the one a client with `mediaEngine: 'auto'` uses.
 */
export function getMediaEngineInfo(options: Pick<CreateMediaEngineOptions, 'log'> = {}): MediaEngineInfo {
  return getDefaultMediaEngine(options).info;
}
