// The content hash of an input (indexer/content_hash.h) is stored with every source and
// compared with later imports' to recognise the same file: it must not change between
// builds, and it must not depend on how the bytes arrive (mapped whole, or in the pieces
// of a stream).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "indexer/content_hash.h"
#include "tests/support/bundled_sample.h"

namespace pgnbase::indexer {
namespace {

std::string hash_in_pieces(std::string_view text, size_t piece) {
  ContentHasher hasher;
  for (size_t at = 0; at < text.size(); at += piece) hasher.update(text.substr(at, piece));
  return hasher.finish();
}

TEST(ContentHash, TheBundledSampleHashesAsDatabasesStoredItBefore) {
  // The value the bundled sample's source row holds in databases made by earlier builds.
  EXPECT_EQ(hash_in_pieces(test::sample_text(), test::sample_text().size()), "h64:1da5ba6ead9a91e3:7971214");
}

TEST(ContentHash, PiecesOfAnySizeGiveTheHashOfTheWhole) {
  const std::string_view text = std::string_view(test::sample_text()).substr(0, 100000);
  const std::string whole = hash_in_pieces(text, text.size());
  for (size_t piece : {1, 7, 31, 32, 33, 64, 4095, 65536}) EXPECT_EQ(hash_in_pieces(text, piece), whole) << piece;
  EXPECT_NE(hash_in_pieces(text.substr(1), 4096), whole);
}

}  // namespace
}  // namespace pgnbase::indexer
