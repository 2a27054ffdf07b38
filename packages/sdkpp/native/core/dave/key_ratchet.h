#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/crypto/aes_gcm_stream.h"
#include "core/crypto/hkdf.h"
#include "core/span.h"

namespace sdkpp::dave {

// The sender key a member exports from the MLS epoch: MLS-Exporter("Discord Secure Frames v0",
// LE64(sender user id), 16). The MLS session (next issue) produces it; this layer only consumes it.
inline constexpr size_t kBaseSecretSize = 16;
inline constexpr size_t kFrameKeySize = crypto::kAes128KeySize;

// RFC 9420 ExpandWithLabel over HKDF-SHA256:
//   HKDF-Expand(secret, uint16(size) ‖ <V>"MLS 1.0 " + label ‖ <V>context, size)
bool ExpandWithLabel(ByteView secret, std::string_view label, ByteView context, MutableByteView out) noexcept;

// One sender's hash ratchet for one epoch (mlspp's HashRatchet, which libdave and davey use):
//   key_g        = ExpandWithLabel(secret_g, "key",    BE32(g), 16)
//   secret_{g+1} = ExpandWithLabel(secret_g, "secret", BE32(g), 32),   secret_0 = the base secret.
// It only moves forward: a secret is overwritten by its successor, so a stolen state reveals no earlier
// key. A plain value (copyable, no allocation) so a decryptor can try a generation on a copy and keep the
// copy only when a frame authenticates.
class HashRatchet {
public:
    HashRatchet() = default;
    ~HashRatchet();
    HashRatchet(const HashRatchet&) = default;
    HashRatchet& operator=(const HashRatchet&) = default;

    // False unless `base` is kBaseSecretSize bytes.
    bool Reset(ByteView base) noexcept;

    // The generation the next call derives; earlier ones are gone.
    uint64_t NextGeneration() const noexcept { return next_; }

    // Derives the key of `generation` (>= NextGeneration()) and moves past it; the keys of skipped
    // generations are not kept. False for an earlier generation or a backend failure.
    bool AdvanceTo(uint64_t generation, uint8_t (&key)[kFrameKeySize]) noexcept;

private:
    uint8_t secret_[crypto::kSha256Size] = {};
    size_t secretSize_ = 0;
    uint64_t next_ = 0;
};

} // namespace sdkpp::dave
