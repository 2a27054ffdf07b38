#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/crypto/aes_gcm_stream.h"
#include "core/dave/frame.h"
#include "core/dave/key_ratchet.h"
#include "core/dave/replay_window.h"
#include "core/dave/result.h"

namespace sdkpp::dave {

inline constexpr int64_t kKeyRetentionMs = 10'000;   // libdave kCryptorExpiry
inline constexpr uint64_t kMaxGenerationGap = 250;   // libdave kMaxGenerationGap
inline constexpr int64_t kNever = INT64_MAX;

// One remote sender's keys for one epoch (libdave's CryptorManager): the hash ratchet, a few keyed
// ciphers for the generations in use, and the replay window. A generation's key stays until kKeyRetentionMs
// after a newer generation first decrypts, then is erased. Everything is allocated by Init; decrypting
// never allocates.
class EpochKeys {
public:
    // Generations keyed at once: the current one, the one before it (kept 10 s), and slack for a frame of
    // the next generation arriving early.
    static constexpr size_t kSlots = 4;

    bool Init() noexcept;
    bool Reset(ByteView baseSecret) noexcept;

    bool InUse() const noexcept { return inUse_; }
    void Release() noexcept;
    int64_t Expiry() const noexcept { return expiry_; }
    void ExpireAt(int64_t when) noexcept { expiry_ = when < expiry_ ? when : expiry_; }

    // Erases the generations whose retention has passed.
    void DropExpired(int64_t now) noexcept;

    // Authenticates and decrypts a parsed frame into `out` (at least parsed.interleavedSize bytes, or
    // `frame` itself). On any failure `out` holds no plaintext.
    Result Decrypt(const ParsedFrame& parsed, ByteView frame, uint8_t* out, int64_t now) noexcept;

private:
    struct Slot {
        bool used = false;
        uint64_t generation = 0;
        int64_t expiry = kNever;
        std::unique_ptr<crypto::IGcmStream> stream;
    };

    Slot* Find(uint64_t generation) noexcept;
    Slot* Claim() noexcept;
    uint64_t Unwrap(uint32_t nonce) const noexcept;

    bool inUse_ = false;
    int64_t expiry_ = kNever;
    HashRatchet ratchet_;
    Slot slots_[kSlots];
    std::unique_ptr<crypto::IGcmStream> spare_; // keyed for a generation on trial
    bool anyDecrypted_ = false;
    uint64_t newestGeneration_ = 0;
    ReplayWindow replay_;
};

} // namespace sdkpp::dave
