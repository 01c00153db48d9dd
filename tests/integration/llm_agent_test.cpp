// arena run --agent llm against a fake OpenAI-compatible endpoint on loopback (the real client,
// a test double of the server): replies become rounds, feedback becomes the next message, usage is
// summed, the key stays out of the run directory, and a broken endpoint is an infra error.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "arena_cli.hpp"
#include "fake_chat_server.hpp"
#include "scoped_env.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using testing::ChatRequest;
using testing::ChatResponse;
using testing::FakeChatServer;
using testing::run_arena;
using testing::source_path;

constexpr const char* kKeyEnv = "ARENA_LLM_TEST_KEY";
constexpr const char* kKey = "sk-test-4f9c2a-never-on-disk";

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

int count_lines(const fs::path& p) {
  std::ifstream in(p);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty();
  return n;
}

std::string starter() {
  return read_file(source_path("tasks/cpu/vector_add_f32/starter.cpp"));
}

// A model that answers with the starter, whole, in a fenced block after a sentence.
ChatResponse answers_with_the_starter(int, const ChatRequest&) {
  return testing::chat_completion("Here is the kernel.\n\n```cpp\n" + starter() + "```\n", 1000,
                                  50);
}

// The last message of a request, as text.
std::string last_message(const ChatRequest& r) {
  return r.body["messages"].back()["content"].get<std::string>();
}

class LlmAgentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static int counter = 0;
    base_ = fs::temp_directory_path() /
            ("arena-llm-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(base_);
    runs_ = base_ / "runs";
    task_.edit_yaml("  count: 8\n", "  count: 2\n");  // a quick final judging
    key_.emplace(kKeyEnv, kKey);
    no_proxy_.emplace("no_proxy", "127.0.0.1");  // loopback stays loopback where a proxy is configured
  }
  std::optional<testing::ScopedEnv> key_, no_proxy_;  // put back as the test ends
  void TearDown() override { fs::remove_all(base_); }

  testing::ArenaRun run(const std::string& endpoint, std::vector<std::string> extra) {
    std::vector<std::string> args = {"-q",         "--tasks-dir",   task_.root(),
                                     "run",        "--task",        "cpu/vector_add_f32",
                                     "--runs-dir", runs_.string(),  "--max-time",
                                     "0.1",        "--agent",       "llm",
                                     "--endpoint", endpoint,        "--model",
                                     "fake-model", "--api-key-env", kKeyEnv};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_arena(args, false, 900);
  }
  fs::path run_dir() const { return fs::directory_iterator(runs_)->path(); }
  fs::path episode(int repeat = 1) const {
    return run_dir() / "episodes" / ("cpu-vector_add_f32-r" + std::to_string(repeat));
  }

  fs::path base_;
  fs::path runs_;
  testing::TaskCopy task_;
};

TEST_F(LlmAgentTest, EachReplyIsOneRoundAndItsFeedbackIsTheNextMessage) {
  FakeChatServer server(answers_with_the_starter);
  auto r = run(server.endpoint(), {"--num-iterations", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u) << "two rounds, two requests; round 3 never asked for";
  for (const auto& q : requests) {
    EXPECT_EQ(q.method, "POST");
    EXPECT_EQ(q.path, "/v1/chat/completions");
    EXPECT_EQ(q.body["model"], "fake-model");
  }
  // The first request: a system message, then the prompt with the workspace's files.
  const auto& first = requests[0].body["messages"];
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0]["role"], "system");
  std::string prompt = first[1]["content"];
  EXPECT_NE(prompt.find(read_file(episode() / "workspace" / "PROMPT.md")), std::string::npos);
  EXPECT_NE(prompt.find("## `arena_signature.h`"), std::string::npos);
  EXPECT_NE(prompt.find("## `shapes.yaml`"), std::string::npos);
  EXPECT_NE(prompt.find("## `README.md`"), std::string::npos);
  EXPECT_NE(prompt.find(starter()), std::string::npos);
  // The second: the conversation so far, the first round's feedback last.
  const auto& second = requests[1].body["messages"];
  ASSERT_EQ(second.size(), 4u);
  EXPECT_EQ(second[2]["role"], "assistant");
  EXPECT_EQ(second[3]["role"], "user");
  std::string feedback = second[3]["content"];
  EXPECT_NE(feedback.find("round 1 of 2"), std::string::npos) << feedback;
  std::ifstream trajectory(episode() / "trajectory.jsonl");
  std::string round_1;
  std::getline(trajectory, round_1);
  EXPECT_NE(feedback.find(nlohmann::json::parse(round_1)["feedback"].get<std::string>()),
            std::string::npos)
      << "the round's whole feedback, as the trajectory has it";

  EXPECT_EQ(count_lines(episode() / "trajectory.jsonl"), 2);
  auto e = read_json(episode() / "episode.json");
  EXPECT_EQ(e["rounds"]["used"], 2);
  EXPECT_EQ(e["rounds"]["refused"], 0);
  EXPECT_EQ(e["final"]["correct_heldout"], true);
}

TEST_F(LlmAgentTest, UsageIsSummedOverTheReplies) {
  FakeChatServer server(answers_with_the_starter);
  auto r = run(server.endpoint(), {"--num-iterations", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto e = read_json(episode() / "episode.json");
  EXPECT_EQ(e["usage"]["input_tokens"], 2000);
  EXPECT_EQ(e["usage"]["output_tokens"], 100);
}

TEST_F(LlmAgentTest, TheKeyGoesInTheAuthorizationHeaderAndNowhereOnDisk) {
  FakeChatServer server(answers_with_the_starter);
  auto r = run(server.endpoint(), {"--num-iterations", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].headers["authorization"], std::string("Bearer ") + kKey);
  EXPECT_EQ(r.output.find(kKey), std::string::npos);
  for (const auto& f : fs::recursive_directory_iterator(run_dir())) {
    if (!f.is_regular_file()) continue;
    EXPECT_EQ(read_file(f.path()).find(kKey), std::string::npos) << f.path();
  }
  std::string yaml = read_file(run_dir() / "run.yaml");
  EXPECT_NE(yaml.find(std::string("api_key_env: ") + kKeyEnv), std::string::npos) << yaml;
}

TEST_F(LlmAgentTest, AReplyWithoutACodeBlockIsAFailedAttemptNotARound) {
  FakeChatServer server([](int index, const ChatRequest& q) {
    if (index == 0) return testing::chat_completion("I would unroll the loop.", 10, 5);
    return answers_with_the_starter(index, q);
  });
  auto r = run(server.endpoint(), {"--num-iterations", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_NE(last_message(requests[1]).find("no fenced code block"), std::string::npos)
      << last_message(requests[1]);
  EXPECT_NE(read_file(episode() / "agent.log").find("reply 1 has no fenced code block"),
            std::string::npos);
  EXPECT_EQ(count_lines(episode() / "trajectory.jsonl"), 1);
  EXPECT_EQ(read_json(episode() / "episode.json")["rounds"]["used"], 1);
}

TEST_F(LlmAgentTest, AnUnreachableEndpointIsAnInfraErrorCountedInTheResults) {
  std::string endpoint = "http://127.0.0.1:" + std::to_string(testing::closed_port()) + "/v1";
  auto r = run(endpoint, {"--num-iterations", "2"});
  EXPECT_EQ(r.exit_code, 3) << r.output;  // an episode ended in infra_error; the run finished
  auto e = read_json(episode() / "episode.json");
  EXPECT_EQ(e["outcome"], "infra_error");
  std::string why = e["infra_error"];
  EXPECT_NE(why.find(endpoint + "/chat/completions"), std::string::npos) << why;
  EXPECT_NE(why.find("Is the server running"), std::string::npos) << why;
  auto j = read_json(run_dir() / "results.json");
  EXPECT_EQ(j["summary"]["episodes"], 1);
  EXPECT_EQ(j["summary"]["outcomes"]["infra_error"], 1);
}

TEST_F(LlmAgentTest, AnHttpErrorIsAnInfraErrorSayingWhatTheEndpointSaid) {
  FakeChatServer server([](int, const ChatRequest&) {
    return ChatResponse{401, R"({"error": {"message": "Incorrect API key provided"}})"};
  });
  auto r = run(server.endpoint(), {"--num-iterations", "1"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  std::string why = read_json(episode() / "episode.json")["infra_error"];
  EXPECT_NE(why.find("HTTP 401: Incorrect API key provided"), std::string::npos) << why;
  EXPECT_NE(why.find(std::string("$") + kKeyEnv), std::string::npos) << why;
}

TEST_F(LlmAgentTest, ABodyThatIsNotAChatCompletionIsAnInfraError) {
  FakeChatServer server([](int, const ChatRequest&) { return ChatResponse{200, "<html>"}; });
  auto r = run(server.endpoint(), {"--num-iterations", "1"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  std::string why = read_json(episode() / "episode.json")["infra_error"];
  EXPECT_NE(why.find("not a chat completion"), std::string::npos) << why;
}

TEST_F(LlmAgentTest, ResumeTalksToTheSameEndpointWithTheSameModelAndKey) {
  FakeChatServer server(answers_with_the_starter);
  auto first = run(server.endpoint(), {"--num-iterations", "1", "--repeats", "2"});
  ASSERT_EQ(first.exit_code, 0) << first.output;
  fs::remove(episode(2) / "episode.json");  // as if the run had stopped during episode 2
  auto resumed =
      run_arena({"-q", "--tasks-dir", task_.root(), "run", "--resume", run_dir().string()});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[2].body["model"], "fake-model");
  EXPECT_EQ(requests[2].headers["authorization"], std::string("Bearer ") + kKey);
}

TEST_F(LlmAgentTest, WithoutAnEndpointTheRunDoesNotStart) {
  auto r = run_arena({"-q", "--tasks-dir", task_.root(), "run", "--task", "cpu/vector_add_f32",
                      "--runs-dir", runs_.string(), "--agent", "llm", "--model", "m"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--agent llm needs --endpoint URL"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace arena
