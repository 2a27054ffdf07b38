#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace sdkpp {

// A non-owning view of contiguous memory (C++17 has no std::span). The caller owns the memory and keeps it
// alive for as long as the view is used; a view never allocates and never frees.
template <typename T>
class Span {
public:
    constexpr Span() noexcept = default;
    constexpr Span(T* data, size_t size) noexcept : data_(data), size_(size) {}
    template <size_t N>
    constexpr Span(T (&array)[N]) noexcept : data_(array), size_(N)
    {
    }
    // A mutable view converts to a read-only one, never the other way round.
    template <typename U, typename = std::enable_if_t<std::is_same_v<const U, T>>>
    constexpr Span(Span<U> other) noexcept : data_(other.data()), size_(other.size())
    {
    }

    constexpr T* data() const noexcept { return data_; }
    constexpr size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr T& operator[](size_t index) const noexcept { return data_[index]; }
    constexpr T* begin() const noexcept { return data_; }
    constexpr T* end() const noexcept { return data_ + size_; }

    // Out-of-range arguments clamp to the view instead of reading past it.
    constexpr Span first(size_t count) const noexcept { return {data_, count < size_ ? count : size_}; }
    constexpr Span subspan(size_t offset) const noexcept
    {
        return offset < size_ ? Span{data_ + offset, size_ - offset} : Span{};
    }

private:
    T* data_ = nullptr;
    size_t size_ = 0;
};

using ByteView = Span<const uint8_t>;
using MutableByteView = Span<uint8_t>;

} // namespace sdkpp
