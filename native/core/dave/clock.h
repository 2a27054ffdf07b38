#pragma once

#include <chrono>
#include <cstdint>

namespace sdkpp::dave {

// Milliseconds on a monotonic clock. Injected into the decryptor so that key retention (10 s) and
// passthrough windows can be tested without waiting, and so a host can drive them from its own clock.
class IClock {
public:
    virtual ~IClock() = default;
    virtual int64_t NowMs() const noexcept = 0;
};

class SteadyClock final : public IClock {
public:
    int64_t NowMs() const noexcept override
    {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::steady_clock::now().time_since_epoch())
          .count();
    }
};

} // namespace sdkpp::dave
