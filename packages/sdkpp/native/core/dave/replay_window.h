#pragma once

#include <cstddef>
#include <cstdint>

namespace sdkpp::dave {

// Which full nonces of one sender's ratchet were accepted: anything newer than the newest is new, and of
// the kReplayWindow nonces below it a bitmap remembers which arrived (libdave keeps up to 1000 missing
// nonces in a list; a fixed bitmap gives the same reordering tolerance with no allocation). Older than
// the window counts as a replay.
class ReplayWindow {
public:
    static constexpr uint64_t kReplayWindow = 1024;

    bool CanAccept(uint64_t nonce) const noexcept;
    // Call only after the frame authenticated, and after CanAccept said yes.
    void Accept(uint64_t nonce) noexcept;
    void Reset() noexcept;

private:
    bool Seen(uint64_t distance) const noexcept;

    bool any_ = false;
    uint64_t newest_ = 0;
    // Bit d set: nonce newest_ - d was accepted (bit 0 is newest_ itself).
    uint64_t bits_[kReplayWindow / 64] = {};
};

} // namespace sdkpp::dave
