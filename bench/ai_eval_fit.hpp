// The fit behind the k < N engine's evaluation worths (ai_run_worths.hpp),
// for bench/ai_fit_eval: each position's features are what run_evaluate
// multiplies by its worths, so a linear fit of another engine's evaluations
// gives worths the engine can use as they are.
//
// run_evaluate is, for the side to move: half the sum, over the position now
// and before its last move, of its worth of each empty cell's pattern class
// minus the opponent's; plus the edge of having the move; plus the three
// threat terms. The features are in that order: the side to move's count of
// each class (halved sums), the opponent's (negated), then 1 and the three
// terms (the open three against as -1).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ai/ai_run_pattern.hpp"

namespace ttt::ai_fit {

inline constexpr int kSize = 15;  // the boards fitted: 15×15, five in a row, freestyle
inline constexpr int kClasses = internal::ai::kPatternClasses;
inline constexpr int kTempoFeature = 2 * kClasses;
inline constexpr int kFeatures = 2 * kClasses + 4;

// One line of a labelled file: a label, then the moves from the empty board
// in the order of play (X first), each as the Gomocup's x,y (column, row,
// from 0). The cells are row-major indices.
struct LabelledLine {
  double label = 0;
  std::vector<int> cells;
};

// The line, or nullopt with why (the label missing, a cell that is no x,y
// of the board).
std::optional<LabelledLine> parse_labelled_line(std::string_view line, std::string& why);

struct Sample {
  std::vector<float> x;  // kFeatures
  double label = 0;
  int engine = 0;  // run_evaluate of the position with the engine's worths
};

// The features of the position the cells reach, or nullopt with why empty
// for a position the evaluation is never asked about (fewer than two moves,
// a finished game, a five to make or block, an open four to make), or with
// why set for cells that are no game (a cell played twice).
std::optional<Sample> sample_of(const std::vector<int>& cells, double label, std::string& why);

// The engine's worths in the features' order.
std::vector<double> current_worths();

double predict(const Sample& sample, const std::vector<double>& worths);

// Ridge regression: the worths that minimise the squared error plus ridge
// times the squared distance from prior. With keep_terms the four terms
// stay at the prior's.
std::vector<double> fit(const std::vector<Sample>& samples, const std::vector<double>& prior,
                        double ridge, bool keep_terms);

// The share of the labels' variance the worths explain (1 - residual / total).
double explained(const std::vector<Sample>& samples, const std::vector<double>& worths);

// The worths as the C++ of ai_run_worths.hpp's two tables, rounded.
std::string worths_source(const std::vector<double>& worths);

}  // namespace ttt::ai_fit
