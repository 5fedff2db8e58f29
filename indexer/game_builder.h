// Turns a collected game into a verified GameRecord (every main-line move replayed
// on a board) or a RejectRecord naming the first problem.
#pragma once

#include <variant>

#include "core/notation.h"
#include "indexer/game_collector.h"
#include "indexer/game_record.h"

namespace pgnbase::indexer {

struct BuildOptions {
  const PieceLetters* letters = nullptr;  // nullptr: detect per game
  bool keep_annotations = true;
  bool classify_eco = true;
};

// Result of one game: exactly one of record or reject is filled; returns true for a record.
bool build_game(const GameDraft& draft, const BuildOptions& options, GameRecord& record, RejectRecord& reject);

// The variant a Variant tag names, or nullopt for an unsupported one.
std::optional<store::Variant> variant_from_tag(std::string_view value);

store::GameResult result_from_token(std::string_view token);

// The --dedupe identity of a built game: 64-bit hash of its start FEN, move codes,
// White, Black, Date and result, and of the tags that name one game where it has them
// (kIdentifyingTags in truncated_copies.h; Site only when it is a URL); for a game without
// moves also of Event, Site and Round. Equal games have equal keys; two different games share
// one with probability about n^2 / 2^65 (1e-7 for 3.5 million games).
int64_t dedupe_key_of(const GameRecord& game);

}  // namespace pgnbase::indexer
