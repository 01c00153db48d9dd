#include "judge/source_scan.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace arena {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> kinds(const std::vector<SourceWarning>& ws) {
  std::vector<std::string> k;
  for (const auto& w : ws) k.push_back(w.kind);
  return k;
}

bool has(const std::vector<SourceWarning>& ws, const std::string& kind) {
  for (const auto& w : ws)
    if (w.kind == kind) return true;
  return false;
}

TEST(SourceScan, EveryHonestFileInTheRepoIsClean) {
  // Starters, references, stubs, experts and the faster examples: none may draw a warning.
  const std::filesystem::path root = std::filesystem::path(ARENA_TEST_DATA).parent_path().parent_path();
  int scanned = 0;
  for (const char* dir : {"tasks", "examples"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir)) {
      const auto ext = e.path().extension();
      if (ext != ".cu" && ext != ".cpp") continue;
      if (e.path().filename() == "host_reference.cpp") continue;  // runs on the CPU, never judged as a solution
      const std::string backend = e.path().string().find("/cuda/") != std::string::npos ? "cuda" : "cpu";
      auto ws = scan_source(read(e.path()), backend);
      ++scanned;
      for (const auto& w : ws) ADD_FAILURE() << e.path() << ":" << w.line << ": " << w.kind << ": " << w.text;
    }
  }
  EXPECT_GT(scanned, 60);
}

TEST(SourceScan, CheatsInTheRedTeamSetAreFound) {
  const std::string redteam = std::string(ARENA_TEST_DATA) + "/../redteam/";
  EXPECT_TRUE(has(scan_source(read(redteam + "cuda/side_stream.cu"), "cuda"), "side_stream"));
  auto timer = scan_source(read(redteam + "cpu/patched_timer.cpp"), "cpu");
  EXPECT_TRUE(has(timer, "code_patching")) << testing::PrintToString(kinds(timer));
  EXPECT_TRUE(has(timer, "timer")) << testing::PrintToString(kinds(timer));
}

TEST(SourceScan, EachKindWithItsLine) {
  const std::string src =
      "#include \"arena_signature.h\"\n"                                                         // 1
      "// cudaStreamCreate(&s) in a comment is not a finding, nor is \"getenv(\" in a string\n"  // 2
      "extern \"C\" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {\n"  // 3
      "  *ms = 0.001f; return cudaSuccess; }\n"                                                  // 4
      "void f() { const char* p = getenv(\"HOME\"); (void)p; }\n"                                // 5
      "void g() { cudaStreamAttrValue v; v.accessPolicyWindow.num_bytes = 1; }\n"                // 6
      "void h() { std::thread t([] {}); t.join(); system(\"ls\"); }\n"                           // 7
      "void *k() { return dlsym(nullptr, \"x\"); }\n";                                           // 8
  auto ws = scan_source(src, "cuda");
  std::map<std::string, int> line;
  for (const auto& w : ws) line[w.kind] = w.line;
  EXPECT_EQ(line["interposed_symbol"], 3);
  EXPECT_EQ(line["file_or_env"], 5);
  EXPECT_EQ(line["l2_persistence"], 6);
  EXPECT_EQ(line["host_thread"], 7);
  EXPECT_EQ(line["process"], 7);
  EXPECT_EQ(line["symbol_lookup"], 8);
  EXPECT_EQ(line.count("side_stream"), 0u) << "line 2 is a comment";
  // Threads are how CPU solutions go fast (the CPU backend runs OpenMP): not a finding there.
  EXPECT_FALSE(has(scan_source("void h() { std::thread t([] {}); t.join(); }\n", "cpu"), "host_thread"));
}

TEST(SourceScan, CallsThatWaitOrLeaveTheStreamAreNamedTheirAsyncFormsAreNot) {
  const std::string src =
      "void f(float* p, cudaStream_t s) {\n"                  // 1
      "  cudaMemsetAsync(p, 0, 4, s);\n"                     // 2
      "  cudaMemcpyAsync(p, p + 1, 4, cudaMemcpyDefault, s);\n"  // 3
      "  cudaFreeAsync(p, s);\n"                              // 4
      "  cudaMemset (p, 0, 4);\n"                             // 5
      "}\n";                                                  // 6
  auto ws = scan_source(src, "cuda");
  std::vector<int> lines;
  for (const auto& w : ws)
    if (w.kind == "off_stream_copy") lines.push_back(w.line);
  EXPECT_EQ(lines, (std::vector<int>{5}));  // one warning per kind: its first line
  EXPECT_FALSE(has(ws, "blocking_call"));   // cudaFreeAsync on the stream waits for nothing
  EXPECT_TRUE(has(scan_source("void g(cudaStream_t own) { cudaStreamSynchronize(own); }\n", "cuda"), "blocking_call"));
  EXPECT_TRUE(has(scan_source("void g(void* p) { cudaFree(p); }\n", "cuda"), "blocking_call"));
  // The CPU backend has no device to hold.
  EXPECT_FALSE(has(scan_source(src, "cpu"), "off_stream_copy"));
}

}  // namespace
}  // namespace arena
