#include "core/dave/key_ratchet.h"

#include <cstring>

#include "core/crypto/hchacha20.h"

namespace sdkpp::dave {
namespace {

constexpr std::string_view kLabelPrefix = "MLS 1.0 ";
// uint16 size, a one-byte <V> length, the label, a one-byte <V> length, the context: every label and
// context used here is far below the 64 bytes a one-byte MLS varint can express.
constexpr size_t kMaxLabelSize = 63;
constexpr size_t kMaxInfoSize = 2 + 1 + kMaxLabelSize + 1 + 63;

} // namespace

bool ExpandWithLabel(ByteView secret, std::string_view label, ByteView context, MutableByteView out) noexcept
{
    const size_t fullLabel = kLabelPrefix.size() + label.size();
    if (fullLabel > kMaxLabelSize || context.size() > 63 || out.size() > 0xFFFF) {
        return false;
    }
    uint8_t info[kMaxInfoSize];
    size_t position = 0;
    info[position++] = static_cast<uint8_t>(out.size() >> 8);
    info[position++] = static_cast<uint8_t>(out.size());
    info[position++] = static_cast<uint8_t>(fullLabel);
    std::memcpy(info + position, kLabelPrefix.data(), kLabelPrefix.size());
    position += kLabelPrefix.size();
    std::memcpy(info + position, label.data(), label.size());
    position += label.size();
    info[position++] = static_cast<uint8_t>(context.size());
    if (!context.empty()) {
        std::memcpy(info + position, context.data(), context.size());
        position += context.size();
    }
    return crypto::HkdfSha256Expand(secret, ByteView{info, position}, out);
}

HashRatchet::~HashRatchet()
{
    crypto::SecureWipe(MutableByteView(secret_));
}

bool HashRatchet::Reset(ByteView base) noexcept
{
    if (base.size() != kBaseSecretSize) {
        return false;
    }
    crypto::SecureWipe(MutableByteView(secret_));
    std::memcpy(secret_, base.data(), base.size());
    secretSize_ = base.size();
    next_ = 0;
    return true;
}

bool HashRatchet::AdvanceTo(uint64_t generation, uint8_t (&key)[kFrameKeySize]) noexcept
{
    if (secretSize_ == 0 || generation < next_) {
        return false;
    }
    while (true) {
        // The context is the generation as a big-endian uint32 (mlspp's); generations beyond 2^32 would
        // take 2^56 frames, so the truncation never matters.
        const auto g = static_cast<uint32_t>(next_);
        const uint8_t context[4] = {static_cast<uint8_t>(g >> 24), static_cast<uint8_t>(g >> 16),
                                    static_cast<uint8_t>(g >> 8), static_cast<uint8_t>(g)};
        const ByteView secret{secret_, secretSize_};
        if (next_ == generation && !ExpandWithLabel(secret, "key", ByteView(context), MutableByteView(key))) {
            return false;
        }
        uint8_t successor[crypto::kSha256Size];
        if (!ExpandWithLabel(secret, "secret", ByteView(context), MutableByteView(successor))) {
            return false;
        }
        std::memcpy(secret_, successor, sizeof(successor));
        crypto::SecureWipe(MutableByteView(successor));
        secretSize_ = sizeof(successor);
        if (next_++ == generation) {
            return true;
        }
    }
}

} // namespace sdkpp::dave
