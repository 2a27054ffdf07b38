#pragma once

#include <string_view>

namespace sdkpp::crypto {

struct CryptoBackendInfo {
    std::string_view name;         // "OpenSSL"
    std::string_view version;      // what the running process provides, e.g. "OpenSSL 3.0.19 27 Jan 2026"
    std::string_view buildVersion; // what the headers said when the addon was compiled
    // The running library is the same major version as the headers; calling into another major version
    // (or into Electron's BoringSSL) would be undefined behaviour, so the addon refuses to load instead.
    bool compatible;
    // "static": a libcrypto linked into the addon, symbols hidden (works in any host); "host": the OpenSSL
    // symbols of the process that loads the addon (Node only).
    std::string_view linkage;
};

CryptoBackendInfo GetCryptoBackendInfo() noexcept;

} // namespace sdkpp::crypto
