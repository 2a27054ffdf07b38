// HKDF-SHA256 over OpenSSL's one-shot HMAC (Node's headers and symbols, like the AEAD backend). HMAC()
// keeps its state on the stack, so neither step allocates.

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstring>

#include "core/crypto/hkdf.h"

namespace sdkpp::crypto {
namespace {

// The longest info any caller here passes (MLS labels with a context are well under 100 bytes); longer
// infos are refused rather than allocated for.
constexpr size_t kMaxInfoSize = 256;

bool Hmac(ByteView key, const uint8_t* data, size_t size, uint8_t (&mac)[kSha256Size]) noexcept
{
    unsigned int macSize = 0;
    // HMAC() treats a null key as "reuse the context's key"; an empty key must still be a valid pointer.
    static const uint8_t kEmpty[1] = {0};
    const uint8_t* keyData = key.empty() ? kEmpty : key.data();
    if (key.size() > static_cast<size_t>(INT32_MAX) ||
        HMAC(EVP_sha256(), keyData, static_cast<int>(key.size()), data, size, mac, &macSize) == nullptr ||
        macSize != kSha256Size) {
        ERR_clear_error();
        return false;
    }
    return true;
}

} // namespace

bool HkdfSha256Extract(ByteView salt, ByteView inputKeyMaterial, uint8_t (&prk)[kSha256Size]) noexcept
{
    // RFC 5869: an absent salt is HashLen zero bytes.
    static const uint8_t kZeroSalt[kSha256Size] = {};
    const ByteView key = salt.empty() ? ByteView(kZeroSalt) : salt;
    if (!Hmac(key, inputKeyMaterial.data(), inputKeyMaterial.size(), prk)) {
        OPENSSL_cleanse(prk, sizeof(prk));
        return false;
    }
    return true;
}

bool HkdfSha256Expand(ByteView prk, ByteView info, MutableByteView output) noexcept
{
    if (output.empty() || output.size() > kHkdfSha256MaxOutput || info.size() > kMaxInfoSize) {
        if (!output.empty()) {
            OPENSSL_cleanse(output.data(), output.size());
        }
        return false;
    }
    // T(i) = HMAC(PRK, T(i-1) || info || i), T(0) empty.
    uint8_t block[kSha256Size + kMaxInfoSize + 1];
    uint8_t t[kSha256Size];
    size_t previous = 0;
    size_t done = 0;
    bool ok = true;
    for (uint8_t counter = 1; done < output.size(); ++counter) {
        std::memcpy(block, t, previous);
        if (!info.empty()) {
            std::memcpy(block + previous, info.data(), info.size());
        }
        block[previous + info.size()] = counter;
        if (!Hmac(prk, block, previous + info.size() + 1, t)) {
            ok = false;
            break;
        }
        const size_t take = output.size() - done < kSha256Size ? output.size() - done : kSha256Size;
        std::memcpy(output.data() + done, t, take);
        done += take;
        previous = kSha256Size;
    }
    OPENSSL_cleanse(block, sizeof(block));
    OPENSSL_cleanse(t, sizeof(t));
    if (!ok) {
        OPENSSL_cleanse(output.data(), output.size());
    }
    return ok;
}

} // namespace sdkpp::crypto
