#include "agents/llm_agent.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "agents/chat_client.hpp"
#include "agents/code_block.hpp"
#include "core/error.hpp"
#include "core/subprocess.hpp"

namespace arena {
namespace {

// A fence longer than any run of backticks in `text`, so that the text cannot close it.
std::string fence_for(const std::string& text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

std::string file_section(const std::string& title, const std::string& content) {
  std::string fence = fence_for(content);
  std::string body = content.empty() || content.back() == '\n' ? content : content + "\n";
  return "## " + title + "\n\n" + fence + "\n" + body + fence + "\n\n";
}

std::string ask_for_file(const std::string& solution_file, int replies_left) {
  return "Reply with the whole `" + solution_file +
         "` in one fenced code block (the last one of your reply is taken). " +
         std::to_string(replies_left) + " repl" + (replies_left == 1 ? "y" : "ies") + " left.";
}

std::string system_message(const AgentContext& ctx) {
  return "You optimize one kernel for KernelArena. You cannot run commands or call arena-tool: "
         "each reply of yours is one round. The last fenced code block of your reply is taken as "
         "the whole file `" +
         ctx.solution_file +
         "`, written to the workspace and judged as `arena-tool eval` judges it; the judge's "
         "feedback comes back as the next message. You have " +
         std::to_string(ctx.rounds) + " replies.";
}

// PROMPT.md, then every other file of the workspace (README, signature header, shapes, hardware
// sheet) in name order, the current solution last.
std::string first_message(const AgentContext& ctx) {
  std::string text = read_file(ctx.prompt_file) + "\n\n# The workspace\n\n";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(ctx.workspace))
    if (e.is_regular_file() && e.path() != ctx.prompt_file &&
        e.path().filename() != ctx.solution_file)
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) text += file_section("`" + f.filename().string() + "`", read_file(f));
  text += file_section("`" + ctx.solution_file + "` (the current solution)",
                       read_file(ctx.workspace / ctx.solution_file));
  return text + ask_for_file(ctx.solution_file, ctx.rounds);
}

nlohmann::json message(const std::string& role, const std::string& content) {
  return {{"role", role}, {"content", content}};
}

}  // namespace

LlmAgent::LlmAgent(LlmAgentOptions options) : options_(std::move(options)) {
  if (options_.endpoint.empty())
    throw InputError(
        "--agent llm needs --endpoint URL: an OpenAI-compatible API base such as "
        "http://127.0.0.1:8000/v1 (vLLM, SGLang, llama.cpp, Ollama) or https://api.openai.com/v1");
  if (!options_.endpoint.starts_with("http://") && !options_.endpoint.starts_with("https://"))
    throw InputError("--endpoint '" + options_.endpoint +
                     "': not an http:// or https:// URL (such as http://127.0.0.1:8000/v1)");
  if (options_.model.empty())
    throw InputError("--agent llm needs --model NAME: a model the endpoint serves");
  if (options_.api_key_env.empty()) options_.api_key_env = "OPENAI_API_KEY";
}

nlohmann::json LlmAgent::describe() const {
  return {{"name", name()},
          {"endpoint", options_.endpoint},
          {"model", options_.model},
          {"api_key_env", options_.api_key_env}};
}

AgentOutcome LlmAgent::run(const AgentContext& ctx) {
  const double deadline = now_seconds() + ctx.time_limit_s;
  const char* key = std::getenv(options_.api_key_env.c_str());
  ChatClient client(options_.endpoint, options_.model, key ? key : "", options_.api_key_env);
  std::ofstream log(ctx.log_file, std::ios::app);
  log << "arena: starting llm: model " << options_.model << " at " << client.url() << ", "
      << (key && *key ? "the key from $" + options_.api_key_env
                      : "no key ($" + options_.api_key_env + " is unset: no Authorization header)")
      << ", " << ctx.rounds << " round(s), time limit " << ctx.time_limit_s << " s\n";

  nlohmann::json messages = nlohmann::json::array(
      {message("system", system_message(ctx)), message("user", first_message(ctx))});
  AgentOutcome out;
  long prompt_tokens = 0, completion_tokens = 0;
  bool has_usage = false;
  auto finish = [&]() {
    if (has_usage)
      out.usage = {{"input_tokens", prompt_tokens}, {"output_tokens", completion_tokens}};
    return out;
  };

  for (int reply_no = 1; reply_no <= ctx.rounds; ++reply_no) {
    if (ctx.interrupted && ctx.interrupted()) {
      out.interrupted = true;
      return finish();
    }
    const double left = deadline - now_seconds();
    if (left <= 0) {
      out.time_limit_hit = true;
      log << "llm: time limit reached before request " << reply_no << "\n";
      return finish();
    }
    log << "llm: request " << reply_no << ": " << messages.size() << " messages\n" << std::flush;
    ChatReply reply = client.complete(messages, left, ctx.interrupted);
    switch (reply.status) {
      case ChatReply::Status::kInterrupted:
        out.interrupted = true;
        return finish();
      case ChatReply::Status::kTimedOut:
        out.time_limit_hit = true;
        log << "llm: " << reply.error << "\n";
        return finish();
      case ChatReply::Status::kFailed:
        out.infra_error = "llm agent: " + reply.error;
        log << "llm: request " << reply_no << " failed: " << reply.error << "\n";
        return finish();
      case ChatReply::Status::kOk:
        break;
    }
    prompt_tokens += reply.prompt_tokens;
    completion_tokens += reply.completion_tokens;
    has_usage = has_usage || reply.has_usage;
    log << "llm: reply " << reply_no << " (finish_reason " << reply.finish_reason << ", "
        << reply.prompt_tokens << " prompt + " << reply.completion_tokens
        << " completion tokens):\n"
        << reply.content << "\n";
    messages.push_back(message("assistant", reply.content));

    std::string feedback;
    if (auto source = last_code_block(reply.content)) {
      write_file_atomic(ctx.workspace / ctx.solution_file, *source);
      tool::Reply r = ctx.submit(ctx.solution_file, *source);
      log << "llm: submitted " << ctx.solution_file << ": exit code " << r.exit_code << "\n"
          << r.text << std::flush;
      if (r.exit_code == tool::kExitBudgetExhausted) break;
      feedback = r.text;
    } else {
      log << "llm: reply " << reply_no << " has no fenced code block: nothing judged\n";
      feedback = "Your reply has no fenced code block, so nothing was judged; the reply counts.\n";
    }
    if (reply.finish_reason == "length")
      feedback += "Your reply was cut off at the endpoint's token limit (finish_reason: length).\n";
    messages.push_back(
        message("user", feedback + "\n" + ask_for_file(ctx.solution_file, ctx.rounds - reply_no)));
  }
  out.exit_code = 0;
  log << "arena: llm ended after its replies\n";
  return finish();
}

}  // namespace arena
