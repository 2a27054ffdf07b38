import { loadNativeAddon } from '../../packages/sdkpp/src/media/addon/loader.js';
import type { NativeAddon } from '../../packages/sdkpp/src/media/addon/types.js';

/**
 * The built addon, or an error naming the fix. Native suites fail rather than skip without it: CI builds
 * the addon during `npm install`, so its absence is a broken build, not an optional feature.
 */
export function requireNativeAddon(): NativeAddon {
  const loaded = loadNativeAddon();
  if (!loaded.ok) {
    throw new Error(`This suite needs the native addon: ${loaded.reason}. To fix it, ${loaded.remedy}.`);
  }
  return loaded.addon;
}
