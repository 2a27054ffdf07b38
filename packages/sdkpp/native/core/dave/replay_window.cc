#include "core/dave/replay_window.h"

namespace sdkpp::dave {

bool ReplayWindow::Seen(uint64_t distance) const noexcept
{
    return (bits_[distance / 64] >> (distance % 64) & 1U) != 0;
}

bool ReplayWindow::CanAccept(uint64_t nonce) const noexcept
{
    if (!any_ || nonce > newest_) {
        return true;
    }
    const uint64_t distance = newest_ - nonce;
    return distance < kReplayWindow && !Seen(distance);
}

void ReplayWindow::Accept(uint64_t nonce) noexcept
{
    if (!any_ || nonce > newest_) {
        const uint64_t shift = any_ ? nonce - newest_ : kReplayWindow;
        if (shift >= kReplayWindow) {
            Reset();
        } else {
            // Shift the bitmap towards older distances by `shift` bits.
            const auto words = static_cast<size_t>(shift / 64);
            const auto bitsShift = static_cast<unsigned>(shift % 64);
            constexpr size_t kWords = kReplayWindow / 64;
            for (size_t i = kWords; i-- > 0;) {
                uint64_t value = 0;
                if (i >= words) {
                    value = bits_[i - words] << bitsShift;
                    if (bitsShift != 0 && i > words) {
                        value |= bits_[i - words - 1] >> (64 - bitsShift);
                    }
                }
                bits_[i] = value;
            }
        }
        any_ = true;
        newest_ = nonce;
        bits_[0] |= 1U;
        return;
    }
    const uint64_t distance = newest_ - nonce;
    if (distance < kReplayWindow) {
        bits_[distance / 64] |= uint64_t{1} << (distance % 64);
    }
}

void ReplayWindow::Reset() noexcept
{
    any_ = false;
    newest_ = 0;
    for (uint64_t& word : bits_) {
        word = 0;
    }
}

} // namespace sdkpp::dave
