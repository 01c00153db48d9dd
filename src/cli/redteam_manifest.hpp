// The red-team manifest (tests/redteam/cases.yaml): solutions that try to fool the judge, one
// class of ../shared/EXPLOITS.md each, and honest fast ones beside them, each with the outcome the
// judge must give. Loaded and checked here; `arena redteam` judges them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cli/eval_options.hpp"

namespace arena::cli {

// What the judge must answer for a case.
struct RedteamExpectation {
  enum class Kind {
    kFailure,  // rejected with this failure class
    kFlag,     // correct, but this flag voids the speedup
    kHonest,   // correct, no flag voids it, geomean speedup >= `speedup`
    kNoGain,   // correct, and the cheat gains nothing: its speedup is voided or <= `speedup`
  };
  Kind kind = Kind::kFailure;
  std::string name;    // failure class or flag
  double speedup = 0;  // honest: the least; no_gain: the most
  std::string text() const;  // "failure: wrong_values", "honest >= 1.1x", ...
};

struct RedteamCase {
  std::string name;
  std::string exploit_class;  // a class of EXPLOITS.md, spelled as there
  std::string backend;        // cpu | cuda
  std::string task;
  std::string solution;                // as written, relative to the manifest's directory
  std::filesystem::path solution_path;  // resolved
  std::vector<std::string> args;       // more `arena eval` options
  EvalOptions eval;                    // task, solution and args parsed as `arena eval` would
  RedteamExpectation expect;
  std::string note;  // optional: why this expectation
  int line = 0;      // in the manifest, for errors
};

struct RedteamManifest {
  std::filesystem::path file;
  std::vector<RedteamCase> cases;
  // "<file>:<line>: case '<name>': field '<field>': <what>", as an InputError.
  [[noreturn]] void fail(const RedteamCase& c, const std::string& field, const std::string& what) const;
};

// The classes of EXPLOITS.md, in its order.
const std::vector<std::string>& exploit_classes();

// Throws InputError naming the file, the case and the field for anything malformed: unknown or
// missing fields, an unknown class, backend, failure class or expectation, a solution file that
// does not exist, args that `arena eval` would not take (or that arena redteam sets itself).
RedteamManifest load_redteam_manifest(const std::filesystem::path& file);

}  // namespace arena::cli
