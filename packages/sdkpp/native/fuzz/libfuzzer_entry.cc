// libFuzzer's entry points for every target in one binary: SDKPP_FUZZ_TARGET (an environment variable,
// set by scripts/native-fuzz.mjs) names the one this run feeds. Built with clang -fsanitize=fuzzer.
#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_targets.h"

namespace {
sdkpp::fuzz::FuzzFunction g_target = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/)
{
    const char* name = std::getenv("SDKPP_FUZZ_TARGET");
    const sdkpp::fuzz::FuzzTarget* target = name == nullptr ? nullptr : sdkpp::fuzz::FindFuzzTarget(name);
    if (target == nullptr) {
        std::fprintf(stderr, "set SDKPP_FUZZ_TARGET to one of:");
        for (const auto& known : sdkpp::fuzz::kFuzzTargets) {
            std::fprintf(stderr, " %.*s", static_cast<int>(known.name.size()), known.name.data());
        }
        std::fprintf(stderr, "\n");
        std::exit(2);
    }
    g_target = target->run;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    g_target(data, size);
    return 0;
}
