#pragma once

namespace sdkpp {

// Equal to package.json's "version"; test/native checks that they agree, so bump both together.
inline constexpr const char kAddonVersion[] = "0.1.0";

// The revision of the addon's JS-facing shape (src/media/addon/types.ts, NATIVE_ADDON_ABI). Bump it whenever an
// export is added, removed or changes meaning, so that the loader rejects a stale build instead of calling
// into it.
inline constexpr int kAddonAbi = 7;

} // namespace sdkpp
