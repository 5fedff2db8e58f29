#include "query/text_table.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>

#include "query/text_encoding.h"

namespace pgnbase::query {

namespace {

// Cuts text to at most width columns, marking the cut with '~' at the cut end.
std::string clip(std::string_view text, size_t width, bool keep_end) {
  if (display_width(text) <= width || width == 0) return std::string(text);
  if (keep_end) return "~" + std::string(fitting_suffix(text, width - 1));
  return std::string(fitting_prefix(text, width - 1)) + "~";
}

}  // namespace

size_t terminal_width() {
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 0;
}

TextTable::TextTable(std::vector<Column> columns, io::OutputFile& out, bool wide)
    : columns_(std::move(columns)), out_(out), wide_(wide) {
  if (!wide_ && out_.is_terminal()) fit_width_ = terminal_width();
  widths_.resize(columns_.size());
  for (size_t i = 0; i < columns_.size(); ++i) widths_[i] = display_width(columns_[i].header);
}

void TextTable::add_row(std::vector<std::string> cells) {
  for (size_t i = 0; i < cells.size(); ++i) {
    cells[i] = printable(cells[i]);  // cells come from the database: any bytes at all
    if (!wide_) cells[i] = clip(cells[i], columns_[i].max_width, columns_[i].keep_end);
  }
  if (widths_fixed_) {
    print_row(cells);
    out_.maybe_flush();
    return;
  }
  held_.push_back(std::move(cells));
  if (held_.size() >= kSampleRows) fix_widths();
}

void TextTable::narrow_to_fit() {
  auto total = [&] {
    size_t sum = 2 * (widths_.size() - 1);
    for (size_t w : widths_) sum += w;
    return sum;
  };
  while (total() > fit_width_) {
    size_t widest = widths_.size();
    for (size_t i = 0; i < widths_.size(); ++i) {
      const size_t floor = std::max<size_t>(3, display_width(columns_[i].header));
      if (columns_[i].right_aligned || widths_[i] <= floor) continue;
      if (widest == widths_.size() || widths_[i] > widths_[widest]) widest = i;
    }
    if (widest == widths_.size()) break;  // nothing left to narrow: the line stays longer
    --widths_[widest];
  }
  for (size_t i = 0; i < columns_.size(); ++i) columns_[i].max_width = std::min(columns_[i].max_width, widths_[i]);
  for (auto& row : held_)
    for (size_t i = 0; i < row.size(); ++i) row[i] = clip(row[i], columns_[i].max_width, columns_[i].keep_end);
}

void TextTable::fix_widths() {
  for (const auto& row : held_)
    for (size_t i = 0; i < row.size(); ++i) widths_[i] = std::max(widths_[i], display_width(row[i]));
  if (!wide_ && fit_width_) narrow_to_fit();
  widths_fixed_ = true;
  std::vector<std::string> header;
  for (const Column& c : columns_) header.push_back(c.header);
  print_row(header);
  for (const auto& row : held_) print_row(row);
  held_.clear();
  out_.maybe_flush();
}

void TextTable::finish() {
  if (!widths_fixed_) fix_widths();
}

void TextTable::print_row(const std::vector<std::string>& cells) {
  std::string& out = out_.buffer();
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) {
    const size_t pad = widths_[i] > display_width(cells[i]) ? widths_[i] - display_width(cells[i]) : 0;
    if (i) line += "  ";
    if (columns_[i].right_aligned) line.append(pad, ' ');
    line += cells[i];
    if (!columns_[i].right_aligned && i + 1 < cells.size()) line.append(pad, ' ');
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out += line;
  out += '\n';
}

}  // namespace pgnbase::query
