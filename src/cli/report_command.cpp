// arena report: one table over verdict files (run directories join in with the episodes issue).

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "report/table.hpp"

namespace arena::cli {
namespace {

int run_report(const std::vector<std::string>& files) {
  Table t({"task", "solution", "result", "shapes", "geomean speedup", "flags"});
  int incorrect = 0;
  for (const auto& f : files) {
    nlohmann::json v;
    try {
      v = nlohmann::json::parse(read_file(f));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(f + ": not a verdict (JSON parse error: " + e.what() + ")");
    }
    if (!v.is_object() || v.value("schema", "") != "kernelarena.verdict/1")
      throw InputError(f + ": not a verdict (no \"schema\": \"kernelarena.verdict/1\")");
    const auto& s = v["summary"];
    bool correct = s["failure_class"].is_null() && s["internal_error"].is_null();
    incorrect += correct ? 0 : 1;
    std::string speedup = s["geomean_speedup_visible"].is_number()
                              ? format_number(s["geomean_speedup_visible"].get<double>()) + "x"
                              : "-";
    std::string flags;
    for (const auto& fl : v["flags"]) flags += (flags.empty() ? "" : ", ") + fl["name"].get<std::string>();
    t.add_row({v["task"], std::filesystem::path(v["solution"]["path"].get<std::string>()).lexically_normal().string(),
               correct ? "correct" : s["failure_class"].is_null() ? "internal_error" : s["failure_class"].get<std::string>(),
               std::to_string(s["shapes_passed"].get<int>()) + "/" + std::to_string(s["shapes_total"].get<int>()), speedup,
               flags.empty() ? "-" : flags});
  }
  std::cout << t.render();
  return incorrect == 0 ? kExitCorrect : kExitNotCorrect;
}

}  // namespace

Runner add_report_command(CLI::App& app, const GlobalOptions&) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("report", "One table over verdict JSON files (from arena eval --json)");
  cmd->add_option("verdicts", *files, "Verdict files")->required()->check(CLI::ExistingFile);
  cmd->footer("Exit codes: 0 every verdict correct, 1 some not, 2 input error.");
  return [files] { return run_report(*files); };
}

}  // namespace arena::cli
