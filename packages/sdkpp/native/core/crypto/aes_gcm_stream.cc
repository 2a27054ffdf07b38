#include "core/crypto/aes_gcm_stream.h"

#include "core/crypto/aes_gcm_stream_backend.h"

namespace sdkpp::crypto {

std::unique_ptr<IGcmStream> CreateAes128GcmStream() noexcept
{
    // The instructions where the CPU has them: a DAVE frame then costs a fraction of what OpenSSL's EVP
    // spends re-arming a context (see aes_gcm_stream_x86.cc).
    if (std::unique_ptr<IGcmStream> hardware = CreateHardwareAes128GcmStream()) {
        return hardware;
    }
    return CreateOpenSslAes128GcmStream();
}

} // namespace sdkpp::crypto
