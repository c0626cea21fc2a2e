// ai_fit_eval: fits the k < N engine's evaluation (15×15, five in a row,
// freestyle) to a stronger engine's evaluations of positions, by ridge
// regression, and prints the fitted worths as the table of
// common/src/ai/ai_run_worths.hpp. How the positions are made and labelled:
// docs/ai.md, "How the evaluation was fitted".
//
//   ai_fit_eval LABELLED_FILE [--ridge L]
//
// Each line of the file: the label (the other engine's evaluation for the
// side to move), then the moves from the empty board in the order of play,
// X first, each as the Gomocup's x,y (column, row, from 0). The model is
// run_evaluate's: half the sum over the position now and before its last
// move of the side to move's worth of each empty cell's pattern class minus
// the opponent's, the edge of having the move, and the three threat terms.
// Every worth starts from the engine's current one and the ridge pulls it
// back there, so classes the data rarely shows keep their current worth.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ai/ai_run_board.hpp"
#include "ai/ai_run_pattern.hpp"
#include "ai/ai_run_search.hpp"
#include "ai/ai_run_worths.hpp"
#include "ttt/board.hpp"
#include "ttt/rules.hpp"

namespace {

using namespace ttt;
using namespace ttt::internal::ai;

constexpr int kSize = 15;
constexpr int kClasses = kPatternClasses;
// Features: the side to move's count of each class, the opponent's (negated),
// then the constant (the edge of the move) and the three threat terms.
constexpr int kTempoFeature = 2 * kClasses;
constexpr int kFeatures = 2 * kClasses + 4;
// Labels beyond this are forced wins or near enough: the search, not the
// evaluation, settles those.
constexpr double kLabelLimit = 3000;

struct Sample {
  std::vector<float> x;
  double y = 0;
};

std::vector<double> class_counts(const RunBoard& board, Player p) {
  std::vector<double> counts(kClasses, 0);
  for (int cell = 0; cell < board.cells(); ++cell) {
    if (board.is_empty(cell)) counts[pattern_class(board.code(p, cell))] += 1;
  }
  return counts;
}

// The sample of one labelled line, or nothing for a position the evaluation
// is never asked about (a five to make or block, an open four to make).
std::optional<Sample> sample_of(const std::string& line, int number) {
  std::istringstream in(line);
  double label = 0;
  if (!(in >> label)) {
    std::fprintf(stderr, "line %d: no label\n", number);
    std::exit(2);
  }
  std::vector<int> cells;
  std::string token;
  while (in >> token) {
    int x = -1;
    int y = -1;
    char comma = 0;
    std::istringstream t(token);
    if (!(t >> x >> comma >> y) || comma != ',' || x < 0 || y < 0 || x >= kSize || y >= kSize) {
      std::fprintf(stderr, "line %d: \"%s\" is no cell x,y of a %dx%d board\n", number,
                   token.c_str(), kSize, kSize);
      std::exit(2);
    }
    cells.push_back(y * kSize + x);
  }
  if (cells.size() < 2 || std::abs(label) > kLabelLimit) return std::nullopt;
  Board before(kSize, 5);
  for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
    if (before.at_index(cells[i]) != Cell::Empty) {
      std::fprintf(stderr, "line %d: move %zu is on a taken cell\n", number, i + 1);
      std::exit(2);
    }
    before.place(cells[i], i % 2 == 0 ? Player::X : Player::O);
  }
  if (before.at_index(cells.back()) != Cell::Empty || winner(before)) return std::nullopt;
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
  const RunThreatTerms terms = run_threat_terms(board);
  s.x[kTempoFeature] = 1;
  s.x[kTempoFeature + 1] = terms.four_three ? 1.0F : 0.0F;
  s.x[kTempoFeature + 2] = terms.double_three ? 1.0F : 0.0F;
  s.x[kTempoFeature + 3] = terms.open_three_against ? -1.0F : 0.0F;
  s.y = label;
  return s;
}

// The engine's current parameters in the features' order.
std::vector<double> current_parameters() {
  std::vector<double> w(kFeatures, 0);
  const PatternTables& t = pattern_tables();
  for (int code = 0; code < kPatternCodes; ++code) {
    w[pattern_class(code)] = t.mover[code];
    w[kClasses + pattern_class(code)] = t.waiter[code];
  }
  const RunEvaluationTerms& e = kEvaluationTerms;
  w[kTempoFeature] = e.tempo;
  w[kTempoFeature + 1] = e.four_three;
  w[kTempoFeature + 2] = e.double_three;
  w[kTempoFeature + 3] = e.open_three_cost;
  return w;
}

double predict(const Sample& s, const std::vector<double>& w) {
  double p = 0;
  for (int f = 0; f < kFeatures; ++f) p += s.x[f] * w[f];
  return p;
}

// Solves (A + ridge·I) w = b + ridge·prior by Cholesky; A is symmetric
// positive semi-definite, so with ridge > 0 the system is positive definite.
std::vector<double> solve(std::vector<double> a, std::vector<double> b,
                          const std::vector<double>& prior, double ridge) {
  const int n = kFeatures;
  for (int i = 0; i < n; ++i) {
    a[i * n + i] += ridge;
    b[i] += ridge * prior[i];
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

// The share of the labels' variance the parameters explain.
double explained(const std::vector<Sample>& samples, const std::vector<double>& w) {
  double mean = 0;
  for (const Sample& s : samples) mean += s.y;
  mean /= static_cast<double>(samples.size());
  double total = 0;
  double residual = 0;
  for (const Sample& s : samples) {
    total += (s.y - mean) * (s.y - mean);
    const double e = s.y - predict(s, w);
    residual += e * e;
  }
  return 1 - residual / total;
}

std::vector<double> fit(const std::vector<Sample>& samples, const std::vector<double>& prior,
                        double ridge) {
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
      b[i] += s.x[i] * s.y;
      for (int j : nonzero) a[i * n + j] += static_cast<double>(s.x[i]) * s.x[j];
    }
  }
  return solve(std::move(a), std::move(b), prior, ridge);
}

std::string shapes_of(int cls) {
  for (int code = 0; code < kPatternCodes; ++code) {
    if (pattern_class(code) != cls) continue;
    std::string s;
    int c = code;
    std::vector<int> shapes;
    for (int d = 0; d < 4; ++d, c /= kShapeCount) shapes.push_back(c % kShapeCount);
    std::sort(shapes.begin(), shapes.end(), std::greater<>());
    for (int v : shapes) s += std::to_string(v) + ", ";
    return s.substr(0, s.size() - 2);
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ai_fit_eval LABELLED_FILE [--ridge L]\n");
    return 2;
  }
  double chosen_ridge = 0;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--ridge") chosen_ridge = std::atof(argv[i + 1]);
  }
  std::ifstream file(argv[1]);
  if (!file) {
    std::fprintf(stderr, "can't read %s\n", argv[1]);
    return 2;
  }
  std::vector<Sample> samples;
  std::string line;
  int number = 0;
  int skipped = 0;
  while (std::getline(file, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    if (auto s = sample_of(line, number)) {
      samples.push_back(std::move(*s));
    } else {
      ++skipped;
    }
  }
  if (samples.size() < 100) {
    std::fprintf(stderr, "%zu positions: too few to fit\n", samples.size());
    return 2;
  }
  // A fixed shuffle; a fifth held out to choose the ridge and judge the fit.
  std::mt19937_64 rng(1);
  std::shuffle(samples.begin(), samples.end(), rng);
  const std::size_t held = samples.size() / 5;
  const std::vector<Sample> test(samples.begin(), samples.begin() + held);
  const std::vector<Sample> train(samples.begin() + held, samples.end());
  const std::vector<double> prior = current_parameters();
  std::fprintf(stderr, "%zu positions (%d skipped), %zu to fit, %zu held out\n", samples.size(),
               skipped, train.size(), test.size());
  std::fprintf(stderr, "current worths explain %.3f of the held-out labels' variance\n",
               explained(test, prior));
  double best_ridge = chosen_ridge;
  if (best_ridge <= 0) {
    double best = -1e9;
    for (double ridge : {1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0}) {
      const double r2 = explained(test, fit(train, prior, ridge));
      std::fprintf(stderr, "ridge %6.0f: held out %.3f\n", ridge, r2);
      if (r2 > best) best = r2, best_ridge = ridge;
    }
  }
  const std::vector<double> w = fit(samples, prior, best_ridge);
  const std::vector<double> check = fit(train, prior, best_ridge);
  std::fprintf(stderr, "ridge %.0f: held out %.3f, all %.3f\n", best_ridge, explained(test, check),
               explained(samples, w));
  std::printf("// ridge %.0f, %zu positions\n", best_ridge, samples.size());
  std::printf("inline constexpr RunEvaluationTerms kEvaluationTerms{%ld, %ld, %ld, %ld};\n",
              std::lround(w[kTempoFeature]), std::lround(w[kTempoFeature + 1]),
              std::lround(w[kTempoFeature + 2]), std::lround(w[kTempoFeature + 3]));
  std::printf("inline constexpr std::array<ClassWorth, kPatternClasses> kClassWorths{{\n");
  for (int c = 0; c < kClasses; ++c) {
    std::printf("    {%ld, %ld},  // %s\n", std::lround(w[c]), std::lround(w[kClasses + c]),
                shapes_of(c).c_str());
  }
  std::printf("}};\n");
  return 0;
}
