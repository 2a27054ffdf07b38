#pragma once

#include <memory>

#include "core/crypto/aes_gcm_stream.h"

namespace sdkpp::crypto {

// The two implementations CreateAes128GcmStream chooses from; the self-test compares them.

// OpenSSL's EVP (openssl_aes_gcm_stream.cc): every platform. nullptr when out of memory.
std::unique_ptr<IGcmStream> CreateOpenSslAes128GcmStream() noexcept;

// The CPU's AES and carry-less multiply instructions (aes_gcm_stream_x86.cc): nullptr where this build or
// this CPU has none.
std::unique_ptr<IGcmStream> CreateHardwareAes128GcmStream() noexcept;

} // namespace sdkpp::crypto
