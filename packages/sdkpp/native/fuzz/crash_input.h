#pragma once

#include <cstddef>
#include <cstdint>

namespace sdkpp::fuzz {

// Remembers which input is under test, so that when a sanitizer or a broken property ends the process the
// input is not lost: it is written to `dumpPath` (if set) and `label` is printed. Used by the drivers that
// are not libFuzzer (which saves crash inputs itself).
struct CurrentInput {
    const char* label = nullptr;
    const uint8_t* data = nullptr;
    size_t size = 0;
    const char* dumpPath = nullptr;
};

// Installs the sanitizer death callback and a SIGABRT handler that report `*current`, which the caller
// keeps up to date. Both only use async-signal-safe calls.
void InstallCrashReporter(const CurrentInput* current);

} // namespace sdkpp::fuzz
