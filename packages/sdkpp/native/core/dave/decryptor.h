#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/clock.h"
#include "core/dave/epoch_keys.h"
#include "core/dave/frame.h"
#include "core/dave/result.h"
#include "core/span.h"

namespace sdkpp::dave {

// The receiving side of DAVE for one remote sender: DAVE frames in, media frames out. Holds the sender's
// ratchet of the current epoch and, for kKeyRetentionMs after a transition, of the epochs before it
// (frames sent just before a key change keep decrypting). Time comes from the injected clock. Buffers
// belong to the caller; nothing allocates after Create. Not thread-safe.
class Decryptor {
public:
    // Epochs held at once: the current one and the ones still in their retention.
    static constexpr size_t kEpochs = 4;

    // `clock` is not owned and must outlive the decryptor. `passthrough`: whether plain frames pass at
    // first (a call that is not yet end-to-end encrypted).
    static std::unique_ptr<Decryptor> Create(const IClock* clock, bool passthrough) noexcept;

    // A new epoch's key for this sender (after a commit or welcome). The previous epochs keep decrypting
    // for `retentionMs`. False unless `baseSecret` is kBaseSecretSize bytes.
    bool TransitionToKeyRatchet(ByteView baseSecret, int64_t retentionMs = kKeyRetentionMs) noexcept;

    // On: plain frames pass from now on, indefinitely. Off: they still pass for `retentionMs` (frames
    // already in flight when the call was upgraded), then are refused.
    void TransitionToPassthroughMode(bool enabled, int64_t retentionMs = kKeyRetentionMs) noexcept;

    // Decrypts `frame` into `out` (at least the frame's size, or the frame's own memory). kOk or
    // kPassthrough on success with `*written` set; any other result leaves no plaintext in `out`.
    Result Decrypt(ByteView frame, MutableByteView out, size_t* written) noexcept;

    const FrameCounters& Counters() const noexcept { return counters_; }

private:
    explicit Decryptor(const IClock* clock) noexcept : clock_(clock) {}
    Result DecryptFrame(ByteView frame, MutableByteView out, size_t* written) noexcept;

    const IClock* clock_;
    int64_t passthroughUntil_ = 0;
    bool passthroughForever_ = false;
    EpochKeys epochs_[kEpochs];
    size_t newest_ = kEpochs; // index of the newest epoch, kEpochs for none yet
    FrameCounters counters_;
};

} // namespace sdkpp::dave
