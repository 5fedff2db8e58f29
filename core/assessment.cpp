#include "core/assessment.h"

namespace pgnbase {

namespace {

struct Assessment {
  std::string_view text;
  int nag;
  bool letters;  // a word, never split off a move token
};

constexpr Assessment kAssessments[] = {
    {"=", 10, false},
    {"inf", 13, true},
    {"\xE2\x88\x9E", 13, false},  // ∞
    {"+=", 14, false},
    {"+/=", 14, false},
    {"\xE2\xA9\xB2", 14, false},  // ⩲
    {"=+", 15, false},
    {"=/+", 15, false},
    {"\xE2\xA9\xB1", 15, false},  // ⩱
    {"+/-", 16, false},
    {"\xC2\xB1", 16, false},  // ±
    {"\xB1", 16, false},      // ± in Latin-1
    {"-/+", 17, false},
    {"\xE2\x88\x93", 17, false},  // ∓
    {"+-", 18, false},
    {"+\xE2\x88\x92", 18, false},  // +−
    {"-+", 19, false},
    {"\xE2\x88\x92+", 19, false},  // −+
    {"=/inf", 44, true},
    {"=/\xE2\x88\x9E", 44, false},  // =/∞
    {"\xE2\x96\xA1", 8, false},     // □
    {"\xCE\x94", 140, false},       // Δ
    {"\xE2\x88\x86", 140, false},   // ∆
    {"\xE2\x8C\x93", 142, false},   // ⌓
    {"RR", 145, true},
    {"N", 146, true},
};

// Whether a move token may end with this byte once its assessment is cut off: a square,
// a promotion letter or bracket, castling, a check or mate mark, a capture colon, or a
// non-ASCII mark (figurine, dagger).
bool ends_like_a_move(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == ')' || u == '+' ||
         u == '#' || u == ':' || u >= 0x80;
}

}  // namespace

int assessment_nag(std::string_view token) {
  for (const Assessment& a : kAssessments)
    if (token == a.text) return a.nag;
  return 0;
}

size_t glued_assessment_length(std::string_view token, int& nag) {
  const Assessment* longest = nullptr;
  for (const Assessment& a : kAssessments)
    if (!a.letters && token.size() > a.text.size() && token.ends_with(a.text) &&
        (longest == nullptr || a.text.size() > longest->text.size()))
      longest = &a;
  if (longest == nullptr || !ends_like_a_move(token[token.size() - longest->text.size() - 1])) return 0;
  nag = longest->nag;
  return longest->text.size();
}

}  // namespace pgnbase
