// The slot layout of both latency histograms (HdrHistogram's counts index with lowest value 1),
// written once: the two differ only in how many sub-buckets, hence in precision and size.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace pglab::stats {

/// With S = 2^SubBucketBits sub-buckets and H = S / 2: values below S have a slot each; above,
/// bucket b >= 1 covers [H << b, S << b) in H slots of width 2^b, so a slot is never wider than
/// 1/H of its values. Values are non-negative int64.
template <int SubBucketBits>
struct LogLinearSlots {
    static_assert(SubBucketBits >= 2 && SubBucketBits <= 32);

    static constexpr uint64_t k_sub_bucket_count = uint64_t{1} << SubBucketBits;

    /// Index of the slot holding `value` (>= 0).
    static constexpr size_t slot_of(int64_t value) {
        // Bucket = how many powers of two `value` has above the first S values; the slot is
        // then its top SubBucketBits bits, offset by H slots per bucket.
        const auto v = static_cast<uint64_t>(value);
        const int bucket = 64 - std::countl_zero(v | (k_sub_bucket_count - 1)) - SubBucketBits;
        return (static_cast<size_t>(bucket) << k_half_bits) + static_cast<size_t>(v >> bucket);
    }

    /// Lowest value that falls in slot `slot`.
    static constexpr int64_t lowest_value(size_t slot) {
        const size_t bucket = bucket_of(slot);
        return static_cast<int64_t>(slot - (bucket << k_half_bits)) << bucket;
    }

    /// Highest value that falls in slot `slot`.
    static constexpr int64_t highest_value(size_t slot) {
        return lowest_value(slot) + (int64_t{1} << bucket_of(slot)) - 1;
    }

private:
    static constexpr int k_half_bits = SubBucketBits - 1;

    static constexpr size_t bucket_of(size_t slot) {
        return slot < k_sub_bucket_count ? 0 : (slot >> k_half_bits) - 1;
    }
};

} // namespace pglab::stats
