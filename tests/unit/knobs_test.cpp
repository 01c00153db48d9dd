#include "agents/knobs.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "core/error.hpp"
#include "core/subprocess.hpp"

namespace arena {
namespace {

const char* const kSource =
    "#include \"arena_signature.h\"\n"
    "#define BLOCK 256  // arena-knob: 64 128 256 512\n"
    "constexpr int kItems = 1;  // arena-knob: 1 2 4\n"
    "int f() { return BLOCK * kItems; }\n";

// The InputError's message for `source`, "" when it parses.
std::string parse_error(const std::string& source) {
  try {
    parse_knobs(source, "solution.cu");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Knobs, ParsesDefineAndConstexprLines) {
  auto knobs = parse_knobs(kSource, "solution.cu");
  ASSERT_EQ(knobs.size(), 2u);
  EXPECT_EQ(knobs[0].name, "BLOCK");
  EXPECT_EQ(knobs[0].value, "256");
  EXPECT_EQ(knobs[0].candidates, (std::vector<std::string>{"64", "128", "256", "512"}));
  EXPECT_EQ(knobs[0].line, 2);
  EXPECT_EQ(knobs[1].name, "kItems");
  EXPECT_EQ(knobs[1].value, "1");
  EXPECT_EQ(knobs[1].candidates, (std::vector<std::string>{"1", "2", "4"}));
  EXPECT_EQ(knobs[1].line, 3);
}

TEST(Knobs, ASourceWithoutTheMarkerHasNoKnobs) {
  EXPECT_TRUE(parse_knobs("#define BLOCK 256\nconstexpr int k = 2;\n", "s.cpp").empty());
}

TEST(Knobs, OtherConstexprFormsAreKnobsToo) {
  auto knobs = parse_knobs(
      "  static constexpr int64_t kTile = 32;  // arena-knob: 16 32\n"
      "constexpr unsigned int kWarps = 4;//arena-knob: 2 4 8\n"
      "# define UNROLL -1 // arena-knob: -1 2\r\n",
      "s.cpp");
  ASSERT_EQ(knobs.size(), 3u);
  EXPECT_EQ(knobs[0].name, "kTile");
  EXPECT_EQ(knobs[1].name, "kWarps");
  EXPECT_EQ(knobs[2].name, "UNROLL");
  EXPECT_EQ(knobs[2].candidates.back(), "2");
}

TEST(Knobs, SetKnobsChangesOnlyTheValues) {
  std::string out = set_knobs(kSource, "solution.cu", {{"BLOCK", "512"}, {"kItems", "4"}});
  EXPECT_EQ(out,
            "#include \"arena_signature.h\"\n"
            "#define BLOCK 512  // arena-knob: 64 128 256 512\n"
            "constexpr int kItems = 4;  // arena-knob: 1 2 4\n"
            "int f() { return BLOCK * kItems; }\n");
  // The rewritten source declares the same knobs, at their new values.
  auto knobs = parse_knobs(out, "solution.cu");
  EXPECT_EQ(knobs[0].value, "512");
  EXPECT_EQ(knobs[1].value, "4");
}

TEST(Knobs, SetKnobsKeepsLineEndingsAndAMissingLastNewline) {
  EXPECT_EQ(set_knobs("#define B 1 // arena-knob: 1 2\r\nint x;", "s.cpp", {{"B", "2"}}),
            "#define B 2 // arena-knob: 1 2\r\nint x;");
  EXPECT_EQ(set_knobs(kSource, "s.cpp", {}), kSource);
}

TEST(Knobs, SetKnobsRefusesAnUnknownNameOrAValueNotAmongTheCandidates) {
  EXPECT_THROW(set_knobs(kSource, "s.cpp", {{"NOPE", "1"}}), InputError);
  try {
    set_knobs(kSource, "solution.cu", {{"BLOCK", "300"}});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("solution.cu:2: knob BLOCK: 300 is not one of its candidates"),
              std::string::npos)
        << e.what();
  }
}

TEST(Knobs, AMarkedLineThatIsNoKnobNamesTheFileAndLine) {
  std::string e = parse_error("int x;\nint block = 256;  // arena-knob: 128 256\n");
  EXPECT_NE(e.find("solution.cu:2: this line holds 'arena-knob:' but is not a knob"), std::string::npos) << e;
  EXPECT_NE(e.find("#define NAME VALUE"), std::string::npos) << e;  // says what a knob looks like
}

TEST(Knobs, ANonIntegerValueIsAnError) {
  std::string e = parse_error("#define B 2.5  // arena-knob: 2.5 3\n");
  EXPECT_NE(e.find("solution.cu:1: knob B: its value '2.5' is not an integer literal"), std::string::npos) << e;
}

TEST(Knobs, ANonIntegerCandidateIsAnError) {
  std::string e = parse_error("\n\n#define B 2  // arena-knob: 2 4 (powers of two)\n");
  EXPECT_NE(e.find("solution.cu:3: knob B: candidate '(powers' is not an integer literal"), std::string::npos)
      << e;
}

TEST(Knobs, NoCandidatesIsAnError) {
  std::string e = parse_error("#define B 2  // arena-knob:\n");
  EXPECT_NE(e.find("solution.cu:1: knob B lists no candidates"), std::string::npos) << e;
}

TEST(Knobs, ACandidateListedTwiceIsAnError) {
  std::string e = parse_error("#define B 2  // arena-knob: 2 4 2\n");
  EXPECT_NE(e.find("solution.cu:1: knob B: candidate 2 is listed twice"), std::string::npos) << e;
}

TEST(Knobs, AValueNotAmongTheCandidatesIsAnError) {
  std::string e = parse_error("#define B 3  // arena-knob: 2 4\n");
  EXPECT_NE(e.find("solution.cu:1: knob B: its value 3 is not among its candidates"), std::string::npos) << e;
}

TEST(Knobs, ANameDeclaredTwiceIsAnError) {
  std::string e = parse_error("#define B 2  // arena-knob: 2 4\nint x;\n#define B 4  // arena-knob: 2 4\n");
  EXPECT_NE(e.find("solution.cu:3: knob B is declared twice (first on line 1)"), std::string::npos) << e;
}

TEST(Knobs, SettingTextListsEveryKnob) {
  auto knobs = parse_knobs(kSource, "s.cpp");
  EXPECT_EQ(knob_setting_text(knobs, {{"kItems", "4"}}), "BLOCK=256 kItems=4");
}

// The starters in tasks/: every knob line is well formed, and the tasks documented to declare
// knobs do.
TEST(Knobs, EveryStarterDeclaresWellFormedKnobs) {
  std::set<std::string> with_knobs;
  for (const auto& e : std::filesystem::recursive_directory_iterator(ARENA_TASKS_DIR)) {
    if (e.path().stem() != "starter") continue;
    std::string id = e.path().parent_path().parent_path().filename().string() + "/" +
                     e.path().parent_path().filename().string();
    std::vector<Knob> knobs;
    EXPECT_NO_THROW(knobs = parse_knobs(read_file(e.path()), e.path().string())) << id;
    if (!knobs.empty()) with_knobs.insert(id);
  }
  for (const char* id : {"cpu/sgemm_f32", "cpu/transpose_f32", "cuda/vector_add_f32", "cuda/softmax_f32",
                         "cuda/sgemm_f32", "cuda/flash_attention_fwd_bf16"})
    EXPECT_TRUE(with_knobs.contains(id)) << id;
}

}  // namespace
}  // namespace arena
