// Test archives made at test time with libarchive's writer, so no large binary is
// committed: one gzip, bzip2 or xz stream of a text, or a zip of named members.
// (tests/data/archives/ holds a few small ones written by the real command-line tools.)
#pragma once

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pgnbase::test {

enum class StreamFormat { Gzip, Bzip2, Xz };

struct ZipMember {
  std::string name;
  std::string bytes;
  bool directory = false;
  bool stored = false;  // written as it is (method 0), not deflated
};

namespace detail {

inline la_ssize_t append_to_string(archive*, void* out, const void* buffer, size_t size) {
  static_cast<std::string*>(out)->append(static_cast<const char*>(buffer), size);
  return static_cast<la_ssize_t>(size);
}

using Writer = std::unique_ptr<archive, int (*)(archive*)>;

inline void write_entry(archive* a, const std::string& name, std::string_view bytes, bool directory) {
  std::unique_ptr<archive_entry, void (*)(archive_entry*)> entry(archive_entry_new(), archive_entry_free);
  archive_entry_set_pathname(entry.get(), name.c_str());
  archive_entry_set_filetype(entry.get(), directory ? AE_IFDIR : AE_IFREG);
  archive_entry_set_perm(entry.get(), directory ? 0755 : 0644);
  archive_entry_set_size(entry.get(), static_cast<la_int64_t>(bytes.size()));
  ASSERT_EQ(archive_write_header(a, entry.get()), ARCHIVE_OK) << archive_error_string(a);
  for (size_t at = 0; at < bytes.size();) {
    la_ssize_t wrote = archive_write_data(a, bytes.data() + at, bytes.size() - at);
    ASSERT_GT(wrote, 0) << archive_error_string(a);
    at += static_cast<size_t>(wrote);
  }
}

}  // namespace detail

// text as a single gzip, bzip2 or xz stream, as `gzip -c` (or bzip2, xz) writes it.
inline std::string compress_stream(std::string_view text, StreamFormat format) {
  std::string out;
  detail::Writer a(archive_write_new(), archive_write_free);
  archive_write_set_format_raw(a.get());
  if (format == StreamFormat::Gzip) archive_write_add_filter_gzip(a.get());
  if (format == StreamFormat::Bzip2) archive_write_add_filter_bzip2(a.get());
  if (format == StreamFormat::Xz) archive_write_add_filter_xz(a.get());
  archive_write_set_bytes_in_last_block(a.get(), 1);  // no zero padding after the stream
  EXPECT_EQ(archive_write_open(a.get(), &out, nullptr, detail::append_to_string, nullptr), ARCHIVE_OK);
  detail::write_entry(a.get(), "data", text, false);
  EXPECT_EQ(archive_write_close(a.get()), ARCHIVE_OK) << archive_error_string(a.get());
  return out;
}

// A zip archive holding members in this order, deflated unless stored.
inline std::string make_zip(const std::vector<ZipMember>& members) {
  std::string out;
  detail::Writer a(archive_write_new(), archive_write_free);
  archive_write_set_format_zip(a.get());
  archive_write_set_bytes_in_last_block(a.get(), 1);
  EXPECT_EQ(archive_write_open(a.get(), &out, nullptr, detail::append_to_string, nullptr), ARCHIVE_OK);
  for (const ZipMember& member : members) {
    if (member.stored) archive_write_zip_set_compression_store(a.get());
    else archive_write_zip_set_compression_deflate(a.get());
    detail::write_entry(a.get(), member.name, member.bytes, member.directory);
  }
  EXPECT_EQ(archive_write_close(a.get()), ARCHIVE_OK) << archive_error_string(a.get());
  return out;
}

}  // namespace pgnbase::test
