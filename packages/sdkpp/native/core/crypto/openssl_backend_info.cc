#include <openssl/crypto.h>
#include <openssl/opensslv.h>

#include "core/crypto/backend_info.h"

namespace sdkpp::crypto {

CryptoBackendInfo GetCryptoBackendInfo() noexcept
{
    const char* running = OpenSSL_version(OPENSSL_VERSION);
    return CryptoBackendInfo{
      "OpenSSL",
      running != nullptr ? running : "",
      OPENSSL_VERSION_TEXT,
      OPENSSL_version_major() == OPENSSL_VERSION_MAJOR,
#if defined(SDKPP_STATIC_CRYPTO)
      "static",
#else
      "host",
#endif
    };
}

} // namespace sdkpp::crypto
