#include "ai_eval_fit.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "ai/ai_run_board.hpp"
#include "ai/ai_run_search.hpp"
#include "ai/ai_run_worths.hpp"
#include "ttt/board.hpp"
#include "ttt/rules.hpp"

namespace ttt::ai_fit {
namespace {

using internal::ai::kEvaluationTerms;
using internal::ai::kPatternCodes;
using internal::ai::pattern_class;
using internal::ai::pattern_tables;
using internal::ai::RunBoard;

std::vector<double> class_counts(const RunBoard& board, Player p) {
  std::vector<double> counts(kClasses, 0);
  for (int cell = 0; cell < board.cells(); ++cell) {
    // Class 0 (no window left in any direction) is worth nothing: taken
    // cells have that code too.
    if (board.is_empty(cell) && board.code(p, cell) != 0) {
      counts[pattern_class(board.code(p, cell))] += 1;
    }
  }
  return counts;
}

bool parse_int(std::string_view text, int& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc{} && end == text.data() + text.size();
}

// Solves (A + ridge·I) w = b + ridge·prior by Cholesky (A is XᵀX: with a
// ridge above 0 the system is positive definite); the terms' ridge is
// enormous when they are kept.
std::vector<double> solve(std::vector<double> a, std::vector<double> b,
                          const std::vector<double>& prior, double ridge, bool keep_terms) {
  const int n = kFeatures;
  for (int i = 0; i < n; ++i) {
    const double r = i >= kTempoFeature && keep_terms ? 1e12 : ridge;
    a[i * n + i] += r;
    b[i] += r * prior[i];
  }
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    d = std::sqrt(d);
    a[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double v = a[i * n + j];
      for (int k = 0; k < j; ++k) v -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = v / d;
    }
  }
  std::vector<double> z(n);
  for (int i = 0; i < n; ++i) {
    double v = b[i];
    for (int k = 0; k < i; ++k) v -= a[i * n + k] * z[k];
    z[i] = v / a[i * n + i];
  }
  std::vector<double> w(n);
  for (int i = n - 1; i >= 0; --i) {
    double v = z[i];
    for (int k = i + 1; k < n; ++k) v -= a[k * n + i] * w[k];
    w[i] = v / a[i * n + i];
  }
  return w;
}

// The class's four shapes, strongest first, as the table's comment shows them.
std::string shapes_of(int cls) {
  for (int code = 0; code < kPatternCodes; ++code) {
    if (pattern_class(code) != cls) continue;
    std::string text;
    for (int s : internal::ai::pattern_shapes(code)) {
      text += (text.empty() ? "" : ", ") + std::to_string(s);
    }
    return text;
  }
  return {};
}

}  // namespace

std::optional<LabelledLine> parse_labelled_line(std::string_view line, std::string& why) {
  LabelledLine parsed;
  std::vector<std::string_view> tokens;
  for (std::size_t at = 0; at < line.size();) {
    const std::size_t start = line.find_first_not_of(" \t\r", at);
    if (start == std::string_view::npos) break;
    const std::size_t end = std::min(line.find_first_of(" \t\r", start), line.size());
    tokens.push_back(line.substr(start, end - start));
    at = end;
  }
  int label = 0;
  if (tokens.empty() || !parse_int(tokens.front(), label)) {
    why = "no label (a whole number) at the start";
    return std::nullopt;
  }
  parsed.label = label;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const std::string_view token = tokens[i];
    const std::size_t comma = token.find(',');
    int x = -1;
    int y = -1;
    if (comma == std::string_view::npos || !parse_int(token.substr(0, comma), x) ||
        !parse_int(token.substr(comma + 1), y) || x < 0 || y < 0 || x >= kSize || y >= kSize) {
      why = "\"" + std::string(token) + "\" is no cell x,y of the " + std::to_string(kSize) + "x" +
            std::to_string(kSize) + " board";
      return std::nullopt;
    }
    parsed.cells.push_back(y * kSize + x);
  }
  return parsed;
}

std::optional<Sample> sample_of(const std::vector<int>& cells, double label, std::string& why) {
  why.clear();
  if (cells.size() < 2) return std::nullopt;
  Board before(kSize, 5);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (before.at_index(cells[i]) != Cell::Empty) {
      why = "move " + std::to_string(i + 1) + " is on a cell played before";
      return std::nullopt;
    }
    if (i + 1 < cells.size()) before.place(cells[i], i % 2 == 0 ? Player::X : Player::O);
  }
  if (winner(before)) return std::nullopt;
  RunBoard board(before);
  const std::vector<double> me_before = class_counts(board, opponent(board.to_move()));
  const std::vector<double> them_before = class_counts(board, board.to_move());
  if (board.play(cells.back())) return std::nullopt;
  const Player me = board.to_move();
  const Player them = opponent(me);
  if (board.wins(me).any() || board.wins(them).any() || board.open_fours(me).any()) {
    return std::nullopt;
  }
  const std::vector<double> me_now = class_counts(board, me);
  const std::vector<double> them_now = class_counts(board, them);
  Sample s;
  s.x.assign(kFeatures, 0);
  for (int c = 0; c < kClasses; ++c) {
    s.x[c] = static_cast<float>((me_now[c] + me_before[c]) / 2);
    s.x[kClasses + c] = static_cast<float>(-(them_now[c] + them_before[c]) / 2);
  }
  const internal::ai::RunThreatTerms terms = internal::ai::run_threat_terms(board);
  s.x[kTempoFeature] = 1;
  s.x[kTempoFeature + 1] = terms.four_three ? 1.0F : 0.0F;
  s.x[kTempoFeature + 2] = terms.double_three ? 1.0F : 0.0F;
  s.x[kTempoFeature + 3] = terms.open_three_against ? -1.0F : 0.0F;
  s.label = label;
  s.engine = internal::ai::run_evaluate(board);
  return s;
}

std::vector<double> current_worths() {
  std::vector<double> w(kFeatures, 0);
  const internal::ai::PatternTables& t = pattern_tables();
  for (int code = 0; code < kPatternCodes; ++code) {
    w[pattern_class(code)] = t.mover[code];
    w[kClasses + pattern_class(code)] = t.waiter[code];
  }
  w[kTempoFeature] = kEvaluationTerms.tempo;
  w[kTempoFeature + 1] = kEvaluationTerms.four_three;
  w[kTempoFeature + 2] = kEvaluationTerms.double_three;
  w[kTempoFeature + 3] = kEvaluationTerms.open_three_cost;
  return w;
}

double predict(const Sample& sample, const std::vector<double>& worths) {
  double p = 0;
  for (int f = 0; f < kFeatures; ++f) p += sample.x[f] * worths[f];
  return p;
}

std::vector<double> fit(const std::vector<Sample>& samples, const std::vector<double>& prior,
                        double ridge, bool keep_terms) {
  const int n = kFeatures;
  std::vector<double> a(static_cast<std::size_t>(n) * n, 0);
  std::vector<double> b(n, 0);
  std::vector<int> nonzero;
  for (const Sample& s : samples) {
    nonzero.clear();
    for (int f = 0; f < n; ++f) {
      if (s.x[f] != 0) nonzero.push_back(f);
    }
    for (int i : nonzero) {
      b[i] += s.x[i] * s.label;
      for (int j : nonzero) a[i * n + j] += static_cast<double>(s.x[i]) * s.x[j];
    }
  }
  return solve(std::move(a), std::move(b), prior, ridge, keep_terms);
}

double explained(const std::vector<Sample>& samples, const std::vector<double>& worths) {
  double mean = 0;
  for (const Sample& s : samples) mean += s.label;
  mean /= static_cast<double>(samples.size());
  double total = 0;
  double residual = 0;
  for (const Sample& s : samples) {
    total += (s.label - mean) * (s.label - mean);
    const double e = s.label - predict(s, worths);
    residual += e * e;
  }
  return total > 0 ? 1 - residual / total : 0;
}

std::string worths_source(const std::vector<double>& worths) {
  auto number = [&](int f) { return std::to_string(std::lround(worths[f])); };
  std::string out = "inline constexpr RunEvaluationTerms kEvaluationTerms{" +
                    number(kTempoFeature) + ", " + number(kTempoFeature + 1) + ", " +
                    number(kTempoFeature + 2) + ", " + number(kTempoFeature + 3) + "};\n\n";
  out += "inline constexpr std::array<ClassWorth, kPatternClasses> kClassWorths{{\n";
  for (int c = 0; c < kClasses; ++c) {
    out += "    {" + number(c) + ", " + number(kClasses + c) + "},  // " + shapes_of(c) + "\n";
  }
  out += "}};\n";
  return out;
}

}  // namespace ttt::ai_fit
