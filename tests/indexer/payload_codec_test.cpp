// The tags and annotations payloads (docs/schema.md): what is encoded reads back as
// itself, and a truncated payload is reported as corrupt, never half-read.
#include <gtest/gtest.h>

#include "store/annotations.h"
#include "store/tag_codec.h"

namespace pgnbase::indexer {
namespace {

TEST(PayloadCodec, TagsReadBackInFileOrder) {
  const std::vector<store::Tag> tags = {{"Annotator", "https://lichess.org/@/arex"}, {"UTCTime", "19:28:36"}, {"Empty", ""}};
  std::string payload;
  store::encode_tags(tags, payload);
  std::vector<store::TagView> read;
  ASSERT_TRUE(store::decode_tags(payload, read));
  ASSERT_EQ(read.size(), tags.size());
  for (size_t i = 0; i < tags.size(); ++i) {
    EXPECT_EQ(read[i].name, tags[i].name);
    EXPECT_EQ(read[i].value, tags[i].value);
  }
  EXPECT_FALSE(store::decode_tags(std::string_view(payload).substr(0, 3), read));  // inside the first name
  EXPECT_FALSE(store::decode_tags(std::string_view(payload).substr(0, payload.size() - 1), read));  // the last length missing
}

TEST(PayloadCodec, AnnotationsReadBack) {
  const std::vector<store::AnnotationEntry> entries = {{0, "{ The Philidor Position }"}, {1, "$1"}, {3, "(2. Rc7 Ra6! 3. Rh7)"}};
  std::string payload;
  store::encode_annotations(entries, payload);
  std::vector<store::AnnotationView> read;
  std::string_view section;
  ASSERT_TRUE(store::decode_annotations(payload, read, section));
  EXPECT_TRUE(section.empty());
  ASSERT_EQ(read.size(), entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(read[i].ply, entries[i].ply);
    EXPECT_EQ(read[i].text, entries[i].text);
  }
  EXPECT_FALSE(store::decode_annotations(std::string_view(payload).substr(0, payload.size() - 1), read, section));
}

}  // namespace
}  // namespace pgnbase::indexer
