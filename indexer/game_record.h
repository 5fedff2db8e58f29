// What a worker makes of one game: a verified GameRecord, or a RejectRecord saying why not.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/move_code.h"
#include "core/types.h"
#include "store/position_posting.h"
#include "store/stored_columns.h"
#include "store/tag_codec.h"  // GameResult, as stored in games.result and postings

namespace pgnbase::indexer {

// Where a game sits in its input. Numbers are relative to the chunk until the writer,
// which sees chunks in order, makes them absolute.
struct GamePlace {
  uint64_t offset = 0;  // byte offset in the uncompressed input (absolute)
  uint64_t line = 0;    // 1-based line of the game's first byte
  uint64_t number = 0;  // 1-based game number in its input
};

// A name with its hash (name_hash), worked out by whoever has the time: the writer's
// name table is probed with it and does not hash the text again.
struct HashedName {
  std::string_view text;
  size_t hash = 0;
};
inline size_t name_hash(std::string_view text) { return std::hash<std::string_view>{}(text); }

// The hashes of the names a games row refers to, and where its Site splits
// (store/site_url.h): made by the worker (name_keys_of, in encode_game) so that the
// single writer's interning is one table probe per name.
struct NameKeys {
  size_t event = 0, site = 0, white = 0, black = 0, opening = 0;  // site: of its prefix when split
  uint32_t site_prefix_length = 0;  // 0: the Site is stored whole
  // 1 + the name's place among its chunk's distinct names (openings apart), in the order
  // the writer meets them; 0: not numbered (ChunkNames, game_encoder.h).
  uint32_t event_slot = 0, site_slot = 0, white_slot = 0, black_slot = 0, opening_slot = 0;
};

struct GameRecord {
  GamePlace place;
  std::vector<store::Tag> tags;  // every tag, in file order
  store::Variant variant = store::Variant::Standard;
  std::string start_fen;  // empty: the standard start position
  std::string language;   // piece-letter language the moves were read in ("en", "de", ...)
  store::GameResult result = store::GameResult::Unknown;
  std::vector<MoveCode> codes;
  std::string compact_moves;  // the same moves as compact bytes (core/compact_move.h)
  std::vector<Key> keys;      // keys[0] = start position, keys[i] after ply i
  std::vector<uint8_t> taken;  // per ply, the PieceType its move took (empty: not known), from the replay
  std::string annotations;    // encoded (see annotations.h); empty when none or not kept
  std::string eco, opening;   // computed classification ("" when none)
  // The stored blobs (blob_codec.h) and the tags split into their games columns and the
  // blob of the others (tag_codec.h), made by the worker (encode_game) so that the single
  // writer only binds them.
  std::string moves_blob, annotations_blob;
  store::HeaderColumns header;
  std::string tags_blob;
  std::string material_blob;  // its entry in material_blocks (material_runs.h, material_blocks.h)
  // nullopt for a record not encoded by a worker (read back from a database): the writer
  // works them out itself.
  std::optional<NameKeys> name_keys;
  // Hash of the headers that truncated copies share, and the first bytes of the moves
  // (truncated_copies.h); copy_moves_prefix 0: not made (worked out when needed).
  uint64_t copy_header_hash = 0;
  uint64_t copy_moves_prefix = 0;
  // Hash of what makes two games the same for --dedupe: start position, moves, White,
  // Black, Date and result (see dedupe_key_of).
  int64_t dedupe_key = 0;
};

struct RejectRecord {
  GamePlace place;
  std::string reason;  // one line, e.g. "illegal move 'Sf4' at ply 8"
  std::string kind;    // the reason's category, for counting: "illegal move", "unsupported variant", ...
  std::string text;    // the game's original bytes
};

}  // namespace pgnbase::indexer
