#pragma once

#include <cstddef>
#include <cstdint>

#include "core/span.h"

namespace sdkpp::fuzz {

// Reads structured values off the front of a fuzz input. Past the end every read yields zeros or an empty
// view, so that any input, however short, is a complete test case.
class FuzzInput {
public:
    FuzzInput(const uint8_t* data, size_t size) noexcept : data_(data), size_(size) {}

    uint8_t Byte() noexcept { return offset_ < size_ ? data_[offset_++] : 0; }
    bool Bool() noexcept { return (Byte() & 1) != 0; }
    uint16_t U16() noexcept { return static_cast<uint16_t>((Byte() << 8) | Byte()); }
    uint32_t U32() noexcept { return (static_cast<uint32_t>(U16()) << 16) | U16(); }

    // Up to `count` bytes (fewer at the end of the input).
    ByteView Take(size_t count) noexcept
    {
        const size_t available = size_ - offset_;
        const size_t taken = count < available ? count : available;
        const ByteView view{data_ + offset_, taken};
        offset_ += taken;
        return view;
    }
    ByteView Rest() noexcept { return Take(size_ - offset_); }
    size_t Remaining() const noexcept { return size_ - offset_; }

private:
    const uint8_t* data_;
    size_t size_;
    size_t offset_ = 0;
};

} // namespace sdkpp::fuzz
