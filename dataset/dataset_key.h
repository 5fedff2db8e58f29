// How a position's Polyglot key appears in the dataset (docs/dataset.md): the `key`
// columns hold the signed 64-bit integer with the key's 64 bits (two's complement),
// what SQL engines call BIGINT; the bucket folder kb=N is the key's top bits.
//
// | Polyglot key (hex)  | key column             | kb (6 bits) |
// |---------------------|------------------------|-------------|
// | 463b96181691fc9c    | 5060803636482931868    | 17          |  (the start position)
// | 823c9b50fd114196    | -9062197578030825066   | 32          |  (after 1.e4)
#pragma once

#include <bit>
#include <cstdint>

namespace pgnbase::dataset {

inline int64_t signed_key(uint64_t key) { return std::bit_cast<int64_t>(key); }

// The bucket of a key: its top bucket_bits bits (0 bits: everything in bucket 0).
inline uint32_t key_bucket(uint64_t key, int bucket_bits) {
  return bucket_bits == 0 ? 0 : uint32_t(key >> (64 - bucket_bits));
}

}  // namespace pgnbase::dataset
