#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/crypto/aes_gcm_stream.h"
#include "core/dave/frame.h"
#include "core/dave/key_ratchet.h"
#include "core/dave/result.h"
#include "core/span.h"

namespace sdkpp::dave {

// The sending side of DAVE for one media stream of the local user: frames in, DAVE frames out, with the
// local user's sender key ratchet of the current epoch. Buffers belong to the caller; nothing allocates
// after Create. Not thread-safe.
class Encryptor {
public:
    static std::unique_ptr<Encryptor> Create() noexcept;
    ~Encryptor();
    Encryptor(const Encryptor&) = delete;
    Encryptor& operator=(const Encryptor&) = delete;

    // Switches to a new epoch's sender key (at the transition's execute). The nonce restarts: the next
    // frame carries nonce 1, generation 0. False unless `baseSecret` is kBaseSecretSize bytes.
    bool SetKeyRatchet(ByteView baseSecret) noexcept;

    // On: frames are copied unchanged (a call with DAVE protocol version 0).
    void SetPassthroughMode(bool enabled) noexcept { passthrough_ = enabled; }

    // The full (unwrapped) nonce the next frame will use; its top bits past 24 are the key generation.
    // For tests of generation changes and for resuming a stream; it may move backwards (the ratchet is
    // then re-derived from the base secret). 0 is skipped: the first nonce of a ratchet is 1.
    void SetNextNonce(uint64_t nonce) noexcept { nextNonce_ = nonce == 0 ? 1 : nonce; }
    uint64_t LastNonce() const noexcept { return nextNonce_ - 1; }

    // What `out` must hold for a frame of this size with this many clear ranges.
    static size_t MaxEncryptedSize(size_t frameSize, size_t rangeCount) noexcept;

    // Encrypts `frame` into `out`, leaving `clearRanges` (ascending, inside the frame) unencrypted; Opus
    // passes none. The Opus silence frame and passthrough mode give kPassthrough with the frame copied.
    // `out` may be exactly `frame`'s memory (in place) if it is large enough.
    Result Encrypt(ByteView frame,
                   Span<const Range> clearRanges,
                   MutableByteView out,
                   size_t* written) noexcept;

    const FrameCounters& Counters() const noexcept { return counters_; }

private:
    Encryptor() = default;
    Result EncryptFrame(ByteView frame,
                        Span<const Range> clearRanges,
                        MutableByteView out,
                        size_t* written) noexcept;
    bool SelectGeneration(uint64_t generation) noexcept;

    std::unique_ptr<crypto::IGcmStream> stream_;
    uint8_t base_[kBaseSecretSize] = {};
    bool hasKey_ = false;
    bool passthrough_ = false;
    HashRatchet ratchet_;
    uint64_t keyGeneration_ = UINT64_MAX; // the generation stream_ is keyed for
    uint64_t nextNonce_ = 1;
    FrameCounters counters_;
};

} // namespace sdkpp::dave
