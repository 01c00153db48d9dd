// `arena eval`'s options travel to a judge server as words (eval_option_words) that the server
// parses back (parse_eval_options): every option must survive the trip.
#include "cli/eval_options.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace arena::cli {
namespace {

// Every field away from its default.
EvalOptions every_option_set() {
  EvalOptions o;
  o.task = "/tasks/cuda/softmax_f32";
  o.solution = "/work/my solution.cu";
  o.shapes = "all";
  o.explicit_shapes = {"rows=7 cols=33", "rows=1,cols=1"};
  o.baseline = "expert";
  o.json_path = "/tmp/v.json";
  o.seed = "0x1234";
  o.no_timing = true;
  o.compile_only = true;
  o.sanitize = true;
  o.warm = true;
  o.graph_launches = 8;
  o.timeout_s = 2.5;
  o.max_time_s = 0.1;
  o.seeds_per_shape = 5;
  o.server = "/tmp/judge.sock";
  return o;
}

// --json and --server say where the verdict goes and where judging happens, not what is judged:
// the client keeps them.
const std::set<std::string> kClientsOwn = {"--json", "--server", "--help"};

// Options as words, for a failure's message.
std::string as_words(const EvalOptions& o) {
  std::string s;
  for (const auto& w : eval_option_words(o)) s += " " + w;
  return s;
}

TEST(EvalOptions, EveryOptionOfArenaEvalIsSentToTheServer) {
  const std::vector<std::string> words = eval_option_words(every_option_set());
  CLI::App app{"arena eval"};
  EvalOptions sink;
  add_eval_options(app, sink);
  int checked = 0;
  for (const CLI::Option* option : app.get_options()) {
    std::string name;
    for (const std::string& n : option->get_lnames()) name = "--" + n;
    if (name.empty() || kClientsOwn.count(name) > 0) continue;
    ++checked;
    EXPECT_NE(std::find(words.begin(), words.end(), name), words.end())
        << name << " is an option of `arena eval` that eval_option_words() does not send";
  }
  EXPECT_GE(checked, 12);
}

TEST(EvalOptions, TheServerReadsBackWhatTheClientMeant) {
  const EvalOptions sent = every_option_set();
  EvalOptions got = parse_eval_options(eval_option_words(sent));
  EXPECT_EQ(got.json_path, "");  // the client's
  EXPECT_EQ(got.server, "");
  got.json_path = sent.json_path;
  got.server = sent.server;
  EXPECT_TRUE(got == sent) << "sent:" << as_words(sent) << "\ngot: " << as_words(got);
  // And the defaults stay defaults.
  EvalOptions plain;
  plain.task = "cpu/vector_add_f32";
  plain.solution = "/s.cpp";
  EXPECT_TRUE(parse_eval_options(eval_option_words(plain)) == plain) << as_words(plain);
}

}  // namespace
}  // namespace arena::cli
