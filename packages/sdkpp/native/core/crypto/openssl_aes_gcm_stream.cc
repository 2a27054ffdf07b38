// The OpenSSL backend of IGcmStream: one EVP context per stream, keyed once, re-armed per message.

#include <openssl/err.h>
#include <openssl/evp.h>

#include <climits>
#include <new>

#include "core/crypto/aes_gcm_stream_backend.h"

namespace sdkpp::crypto {
namespace {

class OpenSslGcmStream final : public IGcmStream {
public:
    explicit OpenSslGcmStream(EVP_CIPHER_CTX* ctx) noexcept : ctx_(ctx) {}
    ~OpenSslGcmStream() override { EVP_CIPHER_CTX_free(ctx_); } // also wipes the key schedule

    OpenSslGcmStream(const OpenSslGcmStream&) = delete;
    OpenSslGcmStream& operator=(const OpenSslGcmStream&) = delete;

    bool SetKey(ByteView key) noexcept override
    {
        return key.size() == kAes128KeySize &&
               Ok(EVP_CipherInit_ex(ctx_, nullptr, nullptr, key.data(), nullptr, -1));
    }

    bool Begin(const uint8_t (&iv)[kGcmIvSize], bool encrypt) noexcept override
    {
        return Ok(EVP_CipherInit_ex(ctx_, nullptr, nullptr, nullptr, iv, encrypt ? 1 : 0));
    }

    bool Aad(ByteView piece) noexcept override
    {
        int ignored = 0;
        return piece.empty() || (piece.size() <= INT_MAX &&
                                 Ok(EVP_CipherUpdate(ctx_, nullptr, &ignored, piece.data(),
                                                     static_cast<int>(piece.size()))));
    }

    bool Update(ByteView piece, uint8_t* out) noexcept override
    {
        if (piece.empty()) {
            return true;
        }
        int written = 0;
        return piece.size() <= INT_MAX &&
               Ok(EVP_CipherUpdate(ctx_, out, &written, piece.data(), static_cast<int>(piece.size()))) &&
               static_cast<size_t>(written) == piece.size();
    }

    bool Finish(MutableByteView tag) noexcept override
    {
        uint8_t scratch[kGcmMaxTagSize];
        int written = 0;
        return tag.size() >= 4 && tag.size() <= kGcmMaxTagSize &&
               Ok(EVP_CipherFinal_ex(ctx_, scratch, &written)) &&
               Ok(EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_AEAD_GET_TAG, static_cast<int>(tag.size()),
                                      tag.data()));
    }

    bool Verify(ByteView tag) noexcept override
    {
        if (tag.size() < 4 || tag.size() > kGcmMaxTagSize) {
            return false;
        }
        // OpenSSL checks a truncated tag against as many bytes as were set. The ctrl takes a mutable
        // pointer, hence the copy.
        uint8_t copy[kGcmMaxTagSize];
        for (size_t i = 0; i < tag.size(); ++i) {
            copy[i] = tag[i];
        }
        uint8_t scratch[kGcmMaxTagSize];
        int written = 0;
        return Ok(EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()), copy)) &&
               Ok(EVP_CipherFinal_ex(ctx_, scratch, &written));
    }

private:
    // Node's own crypto reads the same thread-local error queue; leave nothing in it.
    static bool Ok(int status) noexcept
    {
        if (status == 1) {
            return true;
        }
        ERR_clear_error();
        return false;
    }

    EVP_CIPHER_CTX* const ctx_;
};

} // namespace

std::unique_ptr<IGcmStream> CreateOpenSslAes128GcmStream() noexcept
{
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    if (ctx == nullptr) {
        return nullptr;
    }
    if (EVP_CipherInit_ex(ctx, EVP_aes_128_gcm(), nullptr, nullptr, nullptr, 1) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(kGcmIvSize), nullptr) != 1) {
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
        return nullptr;
    }
    std::unique_ptr<IGcmStream> stream(new (std::nothrow) OpenSslGcmStream(ctx));
    if (!stream) {
        EVP_CIPHER_CTX_free(ctx);
    }
    return stream;
}

} // namespace sdkpp::crypto
