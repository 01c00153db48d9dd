// arena redteam: a manifest whose expectation is wrong fails and names the case; a malformed
// manifest is an input error naming file, case and field; the repository's manifest covers the
// exploit classes and every cheat file in tests/redteam.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "arena_cli.hpp"

namespace arena {
namespace {

using testing::redteam;
using testing::run_arena;
using testing::source_path;

// A manifest in a temporary directory of its own, removed at the end.
class TempManifest {
 public:
  explicit TempManifest(const std::string& yaml) {
    static int counter = 0;
    dir_ = std::filesystem::temp_directory_path() /
           ("arena-redteam-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(dir_);
    std::ofstream(path()) << yaml;
  }
  ~TempManifest() { std::filesystem::remove_all(dir_); }
  TempManifest(const TempManifest&) = delete;
  TempManifest& operator=(const TempManifest&) = delete;
  std::string path() const { return (dir_ / "cases.yaml").string(); }

 private:
  std::filesystem::path dir_;
};

std::string one_case(const std::string& expect, const std::string& cls = "constant / zero output") {
  return "cases:\n"
         "  - name: zeros_said_nan\n"
         "    class: " + cls + "\n"
         "    backend: cpu\n"
         "    task: cpu/vector_add_f32\n"
         "    solution: " + redteam("zero_output") + "\n"
         "    args: [--no-timing, --shape, n=1000]\n"
         "    expect: " + expect + "\n";
}

TEST(Redteam, AsExpectedExitsZeroAndPrintsTheTable) {
  TempManifest m(one_case("{failure: wrong_values}"));
  auto r = run_arena({"-q", "redteam", "--manifest", m.path()});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* s : {"class", "expected", "got", "zeros_said_nan", "failure: wrong_values", "ok", "1 judged, 1 as expected"})
    EXPECT_NE(r.output.find(s), std::string::npos) << s << "\n" << r.output;
}

TEST(Redteam, AWrongExpectationFailsAndNamesTheCase) {
  TempManifest m(one_case("{failure: nan_inf}"));
  auto json = std::filesystem::temp_directory_path() / ("arena-redteam-" + std::to_string(getpid()) + ".json");
  auto r = run_arena({"-q", "redteam", "--manifest", m.path(), "--json", json.string()});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("MISMATCH zeros_said_nan: expected failure: nan_inf, got failure: wrong_values"),
            std::string::npos)
      << r.output;
  std::ifstream in(json);
  auto doc = nlohmann::json::parse(in);
  std::filesystem::remove(json);
  EXPECT_EQ(doc["summary"]["mismatched"], 1);
  EXPECT_EQ(doc["cases"][0]["ok"], false);
  EXPECT_EQ(doc["cases"][0]["verdict"]["summary"]["failure_class"], "wrong_values");
}

TEST(Redteam, AnHonestExpectationNeedsItsSpeedup) {
  // The zero writer is fast but wrong: "honest" does not hold.
  TempManifest m("cases:\n"
                 "  - name: zeros_said_honest\n"
                 "    class: constant / zero output\n"
                 "    backend: cpu\n"
                 "    task: cpu/vector_add_f32\n"
                 "    solution: " + redteam("zero_output") + "\n"
                 "    args: [--shape, n=1000, --max-time, '0.1']\n"
                 "    expect: {honest: {min_speedup: 1.0}}\n");
  auto r = run_arena({"-q", "redteam", "--manifest", m.path()});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("MISMATCH zeros_said_honest"), std::string::npos) << r.output;
}

TEST(Redteam, AMalformedManifestNamesFileCaseAndField) {
  struct Bad {
    std::string yaml;
    std::string field;
    std::string says;
  };
  const std::vector<Bad> bad = {
      {one_case("{failure: wrong_values}", "zero writing"), "field 'class'", "is not a class of EXPLOITS.md"},
      {one_case("{failure: no_such_class}"), "field 'expect.failure'", "is not a failure class"},
      {one_case("{honest: {min_speedup: fast}}"), "field 'expect.honest.min_speedup'", "must be a number"},
      {one_case("{sometimes: wrong}"), "field 'expect'", "is not an expectation"},
  };
  for (const auto& b : bad) {
    TempManifest m(b.yaml);
    auto r = run_arena({"-q", "redteam", "--manifest", m.path()});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    for (const std::string& s : {m.path(), std::string("case 'zeros_said_nan'"), b.field, b.says})
      EXPECT_NE(r.output.find(s), std::string::npos) << s << "\n" << r.output;
  }
  // A missing field, an unknown eval option, a task of the other backend.
  std::string yaml = one_case("{failure: wrong_values}");
  TempManifest no_expect(yaml.substr(0, yaml.find("    expect:")));
  auto r = run_arena({"-q", "redteam", "--manifest", no_expect.path()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("case 'zeros_said_nan': field 'expect': is missing"), std::string::npos) << r.output;
  std::string bad_args = yaml;
  bad_args.replace(bad_args.find("--no-timing"), 11, "--no-such-option");
  TempManifest args(bad_args);
  r = run_arena({"-q", "redteam", "--manifest", args.path()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("field 'args'"), std::string::npos) << r.output;
  std::string cuda = yaml;
  cuda.replace(cuda.find("backend: cpu"), 12, "backend: cuda");
  TempManifest wrong_backend(cuda);
  r = run_arena({"-q", "redteam", "--manifest", wrong_backend.path()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("field 'backend'"), std::string::npos) << r.output;
}

TEST(Redteam, TheManifestCoversTheClassesAndEveryCheatFile) {
  YAML::Node m = YAML::LoadFile(source_path("tests/redteam/cases.yaml"));
  std::set<std::string> classes, solutions;
  for (const auto& c : m["cases"]) {
    classes.insert(c["class"].as<std::string>());
    solutions.insert(c["solution"].as<std::string>());
  }
  // Every class of EXPLOITS.md (19), the host thread's cases aside while its flag is in progress.
  EXPECT_GE(classes.size(), 18u);
  for (const char* dir : {"cpu", "cuda"})
    for (const auto& e : std::filesystem::directory_iterator(source_path("tests/redteam/") + dir)) {
      if (!e.is_regular_file()) continue;
      const std::string rel = std::string(dir) + "/" + e.path().filename().string();
      EXPECT_TRUE(solutions.count(rel)) << rel << " is in tests/redteam but no case of cases.yaml judges it";
    }
}

TEST(Redteam, CudaCasesAreSkippedWithoutAGpu) {
#ifdef ARENA_WITH_CUDA
  auto info = run_process({std::string(ARENA_RUNNER_CUDA), "--info", "0"}, 60);
  if (info.exit_code == 0) GTEST_SKIP() << "a GPU is visible here; this test is for machines without one";
#endif
  auto r = run_arena({"-q", "redteam", "--backend", "cuda"});
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_NE(r.output.find("skipped: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nothing could run here"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace arena
