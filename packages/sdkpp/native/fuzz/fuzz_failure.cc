#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_targets.h"

namespace sdkpp::fuzz {

void FuzzFailure(const char* file, int line, const char* condition)
{
    std::fprintf(stderr, "fuzz property broken at %s:%d: %s\n", file, line, condition);
    std::abort();
}

} // namespace sdkpp::fuzz
