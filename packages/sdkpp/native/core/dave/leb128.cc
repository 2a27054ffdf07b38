#include "core/dave/leb128.h"

namespace sdkpp::dave {

size_t Leb128Size(uint64_t value) noexcept
{
    size_t size = 1;
    while (value >= 0x80) {
        value >>= 7;
        ++size;
    }
    return size;
}

size_t WriteLeb128(uint64_t value, uint8_t* out) noexcept
{
    size_t size = 0;
    while (value >= 0x80) {
        out[size++] = static_cast<uint8_t>(0x80 | (value & 0x7F));
        value >>= 7;
    }
    out[size++] = static_cast<uint8_t>(value);
    return size;
}

bool ReadLeb128(ByteView in, size_t* offset, uint64_t* value) noexcept
{
    uint64_t result = 0;
    size_t position = *offset;
    for (unsigned shift = 0; position < in.size(); shift += 7) {
        const uint8_t byte = in[position++];
        const uint64_t group = byte & 0x7F;
        // The tenth byte may only carry the 64th bit; anything more would be silently lost.
        if (shift == 63 && group > 1) {
            return false;
        }
        result |= group << shift;
        if ((byte & 0x80) == 0) {
            *offset = position;
            *value = result;
            return true;
        }
        if (shift == 63) {
            return false;
        }
    }
    return false;
}

} // namespace sdkpp::dave
