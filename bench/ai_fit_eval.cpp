// ai_fit_eval: fits the k < N engine's evaluation worths (15×15, five in a
// row, freestyle) to another engine's evaluations of positions, by ridge
// regression towards the current worths, and prints them as the two tables
// of common/src/ai/ai_run_worths.hpp. docs/ai.md, "Fitting the evaluation
// to Rapfi's", says how the positions are made and labelled.
//
//   ai_fit_eval LABELLED_FILE [--ridge L] [--clip C] [--keep-terms]
//
// Each line of the file: the label (the other engine's evaluation for the
// side to move; ±30000 for a forced win or loss), then the moves from the
// empty board in the order of play, X first, each as the Gomocup's x,y
// (column, row, from 0); '#' starts a comment line. A fifth of the
// positions (a fixed shuffle) is held out to choose the ridge (unless
// --ridge) and to say how well the fit predicts positions it did not see;
// the tables printed are fitted to all of them.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "ai_eval_fit.hpp"

namespace {

using namespace ttt::ai_fit;

constexpr const char* kUsage =
    "usage: ai_fit_eval LABELLED_FILE [--ridge L] [--clip C] [--keep-terms]\n"
    "  --ridge L     how hard the worths are pulled back to the current ones (default: the\n"
    "                best of 1 to 3000 on the held-out positions)\n"
    "  --clip C      labels beyond +-C count as +-C: the position is won or lost, and by\n"
    "                how much is the search's business (default: 1000)\n"
    "  --keep-terms  fit the class worths only; keep the edge of the move and the threat\n"
    "                terms as they are\n";

struct Options {
  std::string path;
  double ridge = 0;  // 0: chosen on the held-out positions
  double clip = 1000;
  bool keep_terms = false;
};

bool parse_options(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--keep-terms") {
      options.keep_terms = true;
    } else if (flag == "--ridge" || flag == "--clip") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "ai_fit_eval: %s wants a number\n", flag.c_str());
        return false;
      }
      char* end = nullptr;
      const double value = std::strtod(argv[++i], &end);
      if (end == argv[i] || *end != '\0' || !(value > 0) || value > 1e9) {
        std::fprintf(stderr, "ai_fit_eval: %s wants a number above 0, not \"%s\"\n", flag.c_str(),
                     argv[i]);
        return false;
      }
      (flag == "--ridge" ? options.ridge : options.clip) = value;
    } else if (!flag.empty() && flag[0] != '-' && options.path.empty()) {
      options.path = flag;
    } else {
      std::fprintf(stderr, "ai_fit_eval: unknown argument \"%s\"\n", flag.c_str());
      return false;
    }
  }
  if (options.path.empty()) {
    std::fprintf(stderr, "ai_fit_eval: no labelled file named\n");
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (argc > 1 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (!parse_options(argc, argv, options)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::ifstream file(options.path);
  if (!file) {
    std::fprintf(stderr, "ai_fit_eval: can't read %s\n", options.path.c_str());
    return 2;
  }
  std::vector<Sample> samples;
  std::string line;
  std::string why;
  int number = 0;
  int skipped = 0;
  while (std::getline(file, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    const auto parsed = parse_labelled_line(line, why);
    if (!parsed) {
      std::fprintf(stderr, "ai_fit_eval: %s, line %d: %s\n", options.path.c_str(), number,
                   why.c_str());
      return 2;
    }
    const double label = std::clamp(parsed->label, -options.clip, options.clip);
    if (auto sample = sample_of(parsed->cells, label, why)) {
      samples.push_back(std::move(*sample));
    } else if (!why.empty()) {
      std::fprintf(stderr, "ai_fit_eval: %s, line %d: %s\n", options.path.c_str(), number,
                   why.c_str());
      return 2;
    } else {
      ++skipped;
    }
  }
  if (samples.size() < 100) {
    std::fprintf(stderr, "ai_fit_eval: %zu positions to fit: at least 100 are needed\n",
                 samples.size());
    return 2;
  }
  std::mt19937_64 rng(1);
  std::shuffle(samples.begin(), samples.end(), rng);
  const auto held_end = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 5);
  const std::vector<Sample> held(samples.begin(), held_end);
  const std::vector<Sample> train(held_end, samples.end());
  const std::vector<double> prior = current_worths();
  std::fprintf(stderr, "%zu positions (%d skipped: decided or forced), %zu fitted, %zu held out\n",
               samples.size(), skipped, train.size(), held.size());
  std::fprintf(stderr, "the current worths explain %.3f of the held-out labels' variance\n",
               explained(held, prior));
  double ridge = options.ridge;
  if (ridge == 0) {
    double best = -1e300;
    for (double r : {1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0}) {
      const double score = explained(held, fit(train, prior, r, options.keep_terms));
      std::fprintf(stderr, "ridge %4.0f: fitted worths explain %.3f of the held-out\n", r, score);
      if (score > best) best = score, ridge = r;
    }
  }
  const std::vector<double> on_train = fit(train, prior, ridge, options.keep_terms);
  const std::vector<double> worths = fit(samples, prior, ridge, options.keep_terms);
  std::fprintf(stderr, "ridge %.0f: fitted worths explain %.3f of the held-out, %.3f of all\n",
               ridge, explained(held, on_train), explained(samples, worths));
  std::printf("// ai_fit_eval: ridge %.0f, clip %.0f%s, %zu positions\n", ridge, options.clip,
              options.keep_terms ? ", terms kept" : "", samples.size());
  std::fputs(worths_source(worths).c_str(), stdout);
  return 0;
}
