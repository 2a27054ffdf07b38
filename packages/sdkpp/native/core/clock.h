#pragma once

#include <chrono>
#include <cstdint>

namespace sdkpp {

// Milliseconds on a monotonic clock. Injected where time decides something (the DAVE decryptor's key
// retention (10 s) and passthrough windows; the voice transport gives its decryptors the steady one), so
// that it can be tested without waiting and a host can drive it from its own clock.
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

} // namespace sdkpp
