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
  Table t({"task", "solution", "result", "shapes", "geomean speedup", "held-out", "conditional",
           "retention", "flags"});
  int incorrect = 0;
  // Held-out quadrants summed over every verdict that judged held-out shapes.
  int both_pass = 0, regression = 0, both_fail = 0, improvement = 0, with_heldout = 0;
  for (const auto& f : files) {
    nlohmann::json v;
    try {
      v = nlohmann::json::parse(read_file(f));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(f + ": not a verdict (JSON parse error: " + e.what() + ")");
    }
    if (!v.is_object() || v.value("schema", "") != "kernelarena.verdict/1")
      throw InputError(f + R"(: not a verdict (no "schema": "kernelarena.verdict/1"))");
    const auto& s = v["summary"];
    bool correct = s["failure_class"].is_null() && s["internal_error"].is_null();
    incorrect += correct ? 0 : 1;
    std::string speedup = s["geomean_speedup_visible"].is_number()
                              ? format_number(s["geomean_speedup_visible"].get<double>()) + "x"
                              : "-";
    std::string flags;
    for (const auto& fl : v["flags"])
      flags += (flags.empty() ? "" : ", ") + fl["name"].get<std::string>();
    std::string heldout = "-", conditional = "-", retention = "-";
    if (s.contains("heldout") && s["heldout"].is_object()) {
      const auto& h = s["heldout"];
      const int bp = h.value("both_pass", 0), rg = h.value("regression", 0),
                bf = h.value("both_fail", 0), im = h.value("improvement", 0);
      ++with_heldout;
      both_pass += bp, regression += rg, both_fail += bf, improvement += im;
      heldout =
          std::to_string(bp + im) + "/" +
          std::to_string(bp + rg + bf + im + h.value("baseline_unknown", 0)) +
          (rg > 0 ? " (" + std::to_string(rg) + " regression" + (rg > 1 ? "s" : "") + ")" : "");
      if (h["conditional_correctness"].is_number())
        conditional = format_number(100 * h["conditional_correctness"].get<double>(), 3) + "%";
      if (h["speedup_retention"].is_number())
        retention = format_number(h["speedup_retention"].get<double>());
    }
    t.add_row({v["task"],
               std::filesystem::path(v["solution"]["path"].get<std::string>())
                   .lexically_normal()
                   .string(),
               correct                        ? "correct"
               : s["failure_class"].is_null() ? "internal_error"
                                              : s["failure_class"].get<std::string>(),
               std::to_string(s["shapes_passed"].get<int>()) + "/" +
                   std::to_string(s["shapes_total"].get<int>()),
               speedup, heldout, conditional, retention, flags.empty() ? "-" : flags});
  }
  std::cout << t.render();
  if (with_heldout > 0) {
    std::cout << "held-out over " << with_heldout << " verdict(s): " << both_pass << " both pass, "
              << regression << " regression, " << both_fail << " both fail, " << improvement
              << " improvement";
    if (both_pass + regression > 0)
      std::cout << "; conditional correctness "
                << format_number(100.0 * both_pass / (both_pass + regression), 3) << "%";
    std::cout << "\n";
  }
  return incorrect == 0 ? kExitCorrect : kExitNotCorrect;
}

}  // namespace

Runner add_report_command(CLI::App& app, const GlobalOptions&) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd =
      app.add_subcommand("report", "One table over verdict JSON files (from arena eval --json)");
  cmd->add_option("verdicts", *files, "Verdict files")->required()->check(CLI::ExistingFile);
  cmd->footer("Exit codes: 0 every verdict correct, 1 some not, 2 input error.");
  return [files] { return run_report(*files); };
}

}  // namespace arena::cli
