#include "core/hex.h"

namespace sdkpp {
namespace {

int HexDigit(char c) noexcept
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

} // namespace

size_t DecodeHex(std::string_view hex, MutableByteView out) noexcept
{
    if (hex.size() % 2 != 0 || hex.size() / 2 > out.size()) {
        return kInvalidHex;
    }
    for (size_t i = 0; i < hex.size() / 2; ++i) {
        const int high = HexDigit(hex[2 * i]);
        const int low = HexDigit(hex[2 * i + 1]);
        if (high < 0 || low < 0) {
            return kInvalidHex;
        }
        out[i] = static_cast<uint8_t>(high * 16 + low);
    }
    return hex.size() / 2;
}

} // namespace sdkpp
