#include "core/task_loader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace arena {
namespace {

namespace fs = std::filesystem;

// A YAML node with the path of fields that led to it, so errors can name both.
class Field {
 public:
  // YAML::Node has no move constructor: taken by reference, copied once.
  Field(fs::path file, const YAML::Node& node, std::string path)
      : file_(std::move(file)), node_(node), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& what) const {
    std::string where = file_.string();
    if (node_.IsDefined() && node_.Mark().line >= 0) where += ":" + std::to_string(node_.Mark().line + 1);
    throw InputError(where + ": field '" + (path_.empty() ? "<top>" : path_) + "': " + what);
  }

  bool has(const std::string& key) const { return node_.IsMap() && node_[key].IsDefined() && !node_[key].IsNull(); }

  Field at(const std::string& key) const {
    if (!node_.IsMap()) fail("must be a mapping");
    YAML::Node child = node_[key];
    if (!child.IsDefined() || child.IsNull()) {
      Field missing(file_, node_, join(key));
      missing.fail("is missing; add it (see docs/task-format.md)");
    }
    return {file_, child, join(key)};
  }

  Field item(size_t i) const { return {file_, node_[i], path_ + "[" + std::to_string(i) + "]"}; }

  size_t size() const {
    if (!node_.IsSequence()) fail("must be a list");
    return node_.size();
  }

  std::vector<std::string> keys() const {
    if (!node_.IsMap()) fail("must be a mapping");
    std::vector<std::string> k;
    for (const auto& kv : node_) k.push_back(kv.first.as<std::string>());
    return k;
  }

  std::string str() const {
    if (!node_.IsScalar()) fail("must be a single value");
    return node_.as<std::string>();
  }

  double number() const {
    std::string s = str();
    try {
      size_t used = 0;
      double v = std::stod(s, &used);
      if (used == s.size()) return v;
    } catch (const std::exception&) {
    }
    fail("'" + s + "' is not a number");
  }

  int64_t integer() const {
    std::string s = str();
    try {
      Expr e = Expr::parse(s);  // allows "1 << 20" and "64 * 1024"
      return e.eval_int({});
    } catch (const ExprError& e) {
      fail(std::string("must be an integer: ") + e.what());
    }
  }

  Expr expr() const {
    try {
      return Expr::parse(str());
    } catch (const ExprError& e) {
      fail(e.what());
    }
  }

  // Rejects keys outside `allowed`, which catches typos such as 'tolerence'.
  void only(const std::set<std::string>& allowed) const {
    for (const auto& k : keys()) {
      if (allowed.count(k) == 0) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        at(k).fail("unknown field (known here: " + list + ")");
      }
    }
  }

  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }

 private:
  std::string join(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  fs::path file_;
  YAML::Node node_;
  std::string path_;
};

DType read_dtype(const Field& f) {
  DType t{};
  if (!parse_dtype(f.str(), &t)) f.fail("unknown dtype '" + f.str() + "' (known: " + dtype_choices() + ")");
  return t;
}

Distribution read_distribution(const Field& f, DType dtype) {
  Distribution d;
  if (!dtype_is_float(dtype)) {
    d.kind = Distribution::Kind::kInteger;
    d.low = dtype == DType::kInt8 ? -100 : dtype == DType::kUint8 ? 0 : -1000;
    d.high = dtype == DType::kUint8 ? 255 : -d.low;
    d.offset = 0;
    d.scale = 1;
  }
  if (!f.node().IsDefined() || f.node().IsNull()) return d;
  f.only({"kind", "low", "high", "mean", "std", "offset", "scale", "total"});
  if (f.has("kind")) {
    std::string k = f.at("kind").str();
    if (k == "uniform") {
      d.kind = Distribution::Kind::kUniform;
    } else if (k == "normal") {
      d.kind = Distribution::Kind::kNormal;
    } else if (k == "integer") {
      d.kind = Distribution::Kind::kInteger;
      d.offset = 0;
      d.scale = 1;
    } else if (k == "distinct") {
      if (!dtype_is_float(dtype)) f.at("kind").fail("distinct is for float tensors (use integer for " + std::string(dtype_name(dtype)) + ")");
      d.kind = Distribution::Kind::kDistinct;
    } else if (k == "offsets") {
      if (dtype != DType::kInt32) f.at("kind").fail("offsets are int32 (CSR row pointers); make the tensor int32");
      if (!f.has("total")) f.fail("kind: offsets needs 'total', the last offset (e.g. total: nnz)");
      d.kind = Distribution::Kind::kOffsets;
      d.offset = 0;
      d.scale = 1;
      d.total_expr = f.at("total").expr();
    } else {
      f.at("kind").fail("unknown distribution '" + k + "' (known: uniform, normal, integer, distinct, offsets)");
    }
  }
  if (f.has("total") && d.kind != Distribution::Kind::kOffsets) f.at("total").fail("'total' is only for kind: offsets");
  // A bound is a number, or (integer kind) an expression over the params.
  auto bound = [&](const char* key, double& value, Expr& expr) {
    if (!f.has(key)) return;
    Field b = f.at(key);
    std::string s = b.str();
    try {
      size_t used = 0;
      value = std::stod(s, &used);
      if (used == s.size()) return;
    } catch (const std::exception&) {
    }
    if (d.kind != Distribution::Kind::kInteger)
      b.fail("'" + s + "' is not a number (expressions over the params are for kind: integer)");
    expr = b.expr();
  };
  bound("low", d.low, d.low_expr);
  bound("high", d.high, d.high_expr);
  if (f.has("mean")) d.mean = f.at("mean").number();
  if (f.has("std")) d.stddev = f.at("std").number();
  if (f.has("offset")) d.offset = f.at("offset").number();
  if (f.has("scale")) d.scale = f.at("scale").number();
  if (d.low_expr.empty() && d.high_expr.empty() && d.low > d.high) f.fail("low must not exceed high");
  if (d.offset < 0) f.at("offset").fail("must be >= 0");
  if (d.scale < 1) f.at("scale").fail("must be >= 1 (the scale is drawn from [1/scale, scale])");
  if (d.kind == Distribution::Kind::kNormal && d.stddev <= 0) f.at("std").fail("must be > 0");
  return d;
}

Shape read_shape(const Field& f, const std::vector<ParamDomain>& params) {
  Shape s;
  for (const auto& k : f.keys()) {
    bool known = false;
    for (const auto& p : params) known = known || p.name == k;
    if (!known) f.at(k).fail("'" + k + "' is not a param of this task");
    s.params[k] = f.at(k).integer();
  }
  for (const auto& p : params)
    if (s.params.count(p.name) == 0) f.fail("gives no value for param '" + p.name + "'");
  return s;
}

fs::path read_file_ref(const Field& f, const fs::path& dir) {
  fs::path p = dir / f.str();
  if (!fs::is_regular_file(p)) f.fail("file '" + p.string() + "' does not exist");
  return p;
}

ScalarType read_scalar_type(const Field& f) {
  std::string s = f.str();
  if (s == "int64") return ScalarType::kInt64;
  if (s == "int32") return ScalarType::kInt32;
  if (s == "float") return ScalarType::kFloat;
  if (s == "double") return ScalarType::kDouble;
  f.fail("unknown scalar type '" + s + "' (known: int64, int32, float, double)");
}

void check_names(const Field& f, const Expr& e, const std::set<std::string>& known) {
  for (const auto& n : e.names()) {
    if (known.count(n) == 0) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      f.fail("'" + e.text() + "' uses unknown name '" + n + "' (params: " + list + ")");
    }
  }
}

}  // namespace

Tolerance default_tolerance(DType t) {
  switch (t) {
    case DType::kFp32:
      return {1e-5, 1e-5};
    case DType::kFp16:
      return {1e-3, 1e-3};
    case DType::kBf16:
      return {1e-2, 1e-2};
    case DType::kFp8E4m3:
      return {6.25e-2, 6.25e-2};
    case DType::kInt32:
    case DType::kInt8:
    case DType::kUint8:
      return {0, 0};
  }
  return {};
}

Task load_task(const fs::path& dir) {
  fs::path file = dir / "task.yaml";
  if (!fs::is_regular_file(file))
    throw InputError(file.string() + ": no task.yaml here; a task directory holds task.yaml, "
                     "starter, reference and README.md (docs/task-format.md)");
  YAML::Node root;
  try {
    root = YAML::LoadFile(file.string());
  } catch (const YAML::ParserException& e) {
    throw InputError(file.string() + ":" + std::to_string(e.mark.line + 1) +
                     ": malformed YAML: " + e.msg);
  }
  Field top(file, root, "");
  if (!root.IsMap()) top.fail("task.yaml must be a mapping of fields (docs/task-format.md)");
  top.only({"name", "backend", "category", "description", "entry", "params", "constraints",
            "tensors", "scalars", "tolerance", "flops", "bytes", "visible", "heldout", "limits",
            "reference", "starter", "baseline", "libraries", "expert", "expert_libraries", "host_reference", "stub",
            "equivariant", "running_sums", "csr", "product"});

  Task t;
  t.dir = dir;
  t.file = file;
  t.name = top.at("name").str();
  t.backend = top.at("backend").str();
  if (t.backend != "cpu" && t.backend != "cuda")
    top.at("backend").fail("unknown backend '" + t.backend + "' (known: cpu, cuda)");
  t.id = t.backend + "/" + t.name;
  t.category = top.at("category").str();
  static const std::set<std::string> kCategories = {"cuda2cuda", "spec2cuda", "cpu2cpu"};
  if (kCategories.count(t.category) == 0)
    top.at("category").fail("unknown category '" + t.category + "' (known: cuda2cuda, spec2cuda, cpu2cpu)");
  if (top.has("description")) t.description = top.at("description").str();
  t.entry = top.has("entry") ? top.at("entry").str() : t.name;

  // Params and their domains.
  Field params = top.at("params");
  std::set<std::string> param_names;
  for (const auto& k : params.keys()) {
    Field p = params.at(k);
    p.only({"min", "max", "multiple_of"});
    ParamDomain d;
    d.name = k;
    if (p.has("min")) d.min = p.at("min").integer();
    if (p.has("max")) d.max = p.at("max").integer();
    if (p.has("multiple_of")) d.multiple_of = p.at("multiple_of").integer();
    if (d.min > d.max) p.fail("min is larger than max");
    if (d.multiple_of < 1) p.at("multiple_of").fail("must be >= 1");
    t.params.push_back(d);
    param_names.insert(k);
  }

  if (top.has("constraints")) {
    Field c = top.at("constraints");
    for (size_t i = 0; i < c.size(); ++i) {
      t.constraints.push_back(c.item(i).expr());
      check_names(c.item(i), t.constraints.back(), param_names);
    }
  }

  // Tensors: inputs first, then outputs.
  Field tensors = top.at("tensors");
  bool seen_output = false;
  std::set<std::string> tensor_names;
  for (size_t i = 0; i < tensors.size(); ++i) {
    Field f = tensors.item(i);
    f.only({"name", "dtype", "role", "shape", "distribution"});
    TensorSpec ts;
    ts.name = f.at("name").str();
    if (!tensor_names.insert(ts.name).second) f.at("name").fail("tensor '" + ts.name + "' is declared twice");
    ts.dtype = read_dtype(f.at("dtype"));
    std::string role = f.at("role").str();
    if (role == "input") {
      ts.role = Role::kInput;
      if (seen_output) f.at("role").fail("inputs must come before outputs (the argument order)");
    } else if (role == "output") {
      ts.role = Role::kOutput;
      seen_output = true;
    } else {
      f.at("role").fail("unknown role '" + role + "' (known: input, output)");
    }
    Field shape = f.at("shape");
    for (size_t j = 0; j < shape.size(); ++j) {
      ts.shape.push_back(shape.item(j).expr());
      check_names(shape.item(j), ts.shape.back(), param_names);
    }
    ts.distribution = read_distribution(f.has("distribution") ? f.at("distribution")
                                                              : Field(file, YAML::Node(), ""), ts.dtype);
    if (f.has("distribution")) {
      Field df = f.at("distribution");
      if (!ts.distribution.low_expr.empty()) check_names(df.at("low"), ts.distribution.low_expr, param_names);
      if (!ts.distribution.high_expr.empty()) check_names(df.at("high"), ts.distribution.high_expr, param_names);
      if (!ts.distribution.total_expr.empty()) check_names(df.at("total"), ts.distribution.total_expr, param_names);
      if (ts.distribution.kind == Distribution::Kind::kOffsets && ts.shape.size() != 1)
        f.at("shape").fail("a tensor of offsets is 1-D: [rows + 1]");
    }
    t.tensors.push_back(std::move(ts));
  }
  if (!seen_output) tensors.fail("declares no output tensor");

  // Scalars follow the tensors in the signature; by default every param, in declaration order.
  if (top.has("scalars")) {
    Field s = top.at("scalars");
    for (size_t i = 0; i < s.size(); ++i) {
      Field f = s.item(i);
      f.only({"name", "type", "value"});
      ScalarSpec sc;
      sc.name = f.at("name").str();
      sc.type = f.has("type") ? read_scalar_type(f.at("type")) : ScalarType::kInt64;
      if (f.has("value")) {
        sc.value = f.at("value").expr();
        check_names(f.at("value"), sc.value, param_names);
      } else if (param_names.count(sc.name) != 0) {
        sc.value = Expr::parse(sc.name);
      } else {
        f.fail("scalar '" + sc.name + "' is not a param, so it needs a 'value'");
      }
      t.scalars.push_back(std::move(sc));
    }
  } else {
    for (const auto& p : t.params) t.scalars.push_back({p.name, ScalarType::kInt64, Expr::parse(p.name)});
  }

  // Tolerances: per dtype, defaults for the rest.
  for (const auto& ts : t.tensors) t.tolerance[ts.dtype] = default_tolerance(ts.dtype);
  if (top.has("tolerance")) {
    Field tol = top.at("tolerance");
    for (const auto& k : tol.keys()) {
      if (k == "reduction") {
        t.tolerance_reduction = tol.at(k).expr();
        check_names(tol.at(k), *t.tolerance_reduction, param_names);
        continue;
      }
      DType d{};
      if (!parse_dtype(k, &d))
        tol.at(k).fail("unknown dtype '" + k + "' (known: " + dtype_choices() + ", or 'reduction')");
      Field one = tol.at(k);
      one.only({"atol", "rtol"});
      Tolerance v = t.tolerance[d];
      if (one.has("atol")) v.atol = one.at("atol").number();
      if (one.has("rtol")) v.rtol = one.at("rtol").number();
      if (v.atol < 0 || v.rtol < 0) one.fail("atol and rtol must be >= 0");
      t.tolerance[d] = v;
    }
  }

  t.flops = top.at("flops").expr();
  check_names(top.at("flops"), t.flops, param_names);
  t.bytes = top.at("bytes").expr();
  check_names(top.at("bytes"), t.bytes, param_names);

  if (top.has("limits")) {
    Field l = top.at("limits");
    l.only({"memory_bytes", "timeout_s"});
    if (l.has("memory_bytes")) t.limits.memory_bytes = l.at("memory_bytes").integer();
    if (l.has("timeout_s")) t.limits.timeout_s = l.at("timeout_s").number();
    if (t.limits.timeout_s <= 0) l.at("timeout_s").fail("must be > 0");
  }

  Field visible = top.at("visible");
  if (visible.size() == 0) visible.fail("needs at least one shape");
  for (size_t i = 0; i < visible.size(); ++i) {
    Shape s = read_shape(visible.item(i), t.params);
    for (const auto& prev : t.visible)
      if (prev == s) visible.item(i).fail("repeats the shape " + s.label());
    t.visible.push_back(s);
  }

  if (top.has("heldout")) {
    Field h = top.at("heldout");
    h.only({"categories", "shapes", "count", "magnitude"});
    if (h.has("magnitude")) {
      t.heldout.magnitude = h.at("magnitude").number();
      if (!(t.heldout.magnitude >= 1)) h.at("magnitude").fail("must be a number >= 1 (how much larger held-out stress inputs are)");
    }
    static const std::set<std::string> kKinds = {"edge", "scale_up", "scale_down", "alignment",
                                                 "asymmetric", "production"};
    if (h.has("categories")) {
      Field c = h.at("categories");
      for (size_t i = 0; i < c.size(); ++i) {
        std::string k = c.item(i).str();
        if (kKinds.count(k) == 0)
          c.item(i).fail("unknown category '" + k + "' (known: edge, scale_up, scale_down, alignment, asymmetric, production)");
        t.heldout.categories.push_back(k);
      }
    }
    if (h.has("shapes")) {
      Field s = h.at("shapes");
      for (size_t i = 0; i < s.size(); ++i) t.heldout.shapes.push_back(read_shape(s.item(i), t.params));
    }
    if (h.has("count")) t.heldout.count = h.at("count").integer();
  }

  if (top.has("equivariant")) {
    Field e = top.at("equivariant");
    for (size_t i = 0; i < e.size(); ++i) {
      std::string p = e.item(i).str();
      if (param_names.count(p) == 0) e.item(i).fail("'" + p + "' is not a param of this task");
      if (std::find(t.equivariant.begin(), t.equivariant.end(), p) != t.equivariant.end())
        e.item(i).fail("'" + p + "' is listed twice");
      bool on_input = top.has("csr") && top.at("csr").has("rows") && top.at("csr").at("rows").str() == p;
      for (const auto& ts : t.tensors)
        for (const auto& d : ts.shape) on_input = on_input || (ts.role == Role::kInput && d.text() == p);
      if (!on_input)
        e.item(i).fail("no input tensor has an axis of extent exactly '" + p +
                       "': reordering along it would not change the inputs");
      t.equivariant.push_back(p);
    }
  }

  auto tensor_named = [&](const Field& g, Role role) -> const TensorSpec& {
    std::string name = g.str();
    for (const auto& ts : t.tensors)
      if (ts.name == name) {
        if (ts.role != role) g.fail("'" + name + "' must be an " + (role == Role::kInput ? "input" : "output"));
        return ts;
      }
    g.fail("no tensor is named '" + name + "'");
  };
  auto is_equivariant = [&](const std::string& p) {
    return std::find(t.equivariant.begin(), t.equivariant.end(), p) != t.equivariant.end();
  };
  if (top.has("running_sums")) {
    Field r = top.at("running_sums");
    if (t.equivariant.empty()) r.fail("running_sums goes with 'equivariant' (the axis the sums run along)");
    for (size_t i = 0; i < r.size(); ++i) {
      const TensorSpec& ts = tensor_named(r.item(i), Role::kOutput);
      if (dtype_is_float(ts.dtype))
        r.item(i).fail("'" + ts.name + "' is " + std::string(dtype_name(ts.dtype)) +
                       ": only integer running sums are undone exactly; drop it from running_sums (and its param from "
                       "equivariant)");
      int axes = 0;
      for (const auto& d : ts.shape) axes += is_equivariant(d.text()) ? 1 : 0;
      if (axes != 1)
        r.item(i).fail("'" + ts.name + "' must have exactly one axis along an equivariant param (the one the sum "
                       "runs along); it has " + std::to_string(axes));
      t.running_sums.push_back(ts.name);
    }
  }
  if (top.has("csr")) {
    Field f = top.at("csr");
    f.only({"rows", "row_ptr", "entries"});
    CsrSpec c;
    c.rows = f.at("rows").str();
    if (!is_equivariant(c.rows))
      f.at("rows").fail("'" + c.rows + "' must be listed in 'equivariant' (csr says how to reorder its rows)");
    auto one_d_free = [&](const Field& g, const TensorSpec& ts) {
      if (ts.shape.size() != 1) g.fail("'" + ts.name + "' must be 1-D");
      if (is_equivariant(ts.shape[0].text()))
        g.fail("'" + ts.name + "' is reordered through csr; its axis '" + ts.shape[0].text() +
               "' must not be an equivariant param itself");
    };
    const TensorSpec& rp = tensor_named(f.at("row_ptr"), Role::kInput);
    one_d_free(f.at("row_ptr"), rp);
    if (rp.dtype != DType::kInt32) f.at("row_ptr").fail("'" + rp.name + "' must be int32");
    c.row_ptr = rp.name;
    Field e = f.at("entries");
    if (e.size() == 0) e.fail("list the tensors with one element per stored entry (column indices, values)");
    for (size_t i = 0; i < e.size(); ++i) {
      const TensorSpec& ts = tensor_named(e.item(i), Role::kInput);
      one_d_free(e.item(i), ts);
      c.entries.push_back(ts.name);
    }
    t.csr = c;
  }

  if (top.has("product")) {
    Field f = top.at("product");
    f.only({"out", "a", "b", "b_layout", "scales"});
    ProductSpec p;
    auto tensor = [&](const Field& g, Role role) {
      const TensorSpec& ts = tensor_named(g, role);
      return std::pair(ts.name, ts.shape.size());
    };
    auto [out, out_rank] = tensor(f.at("out"), Role::kOutput);
    auto [a, a_rank] = tensor(f.at("a"), Role::kInput);
    auto [b, b_rank] = tensor(f.at("b"), Role::kInput);
    if (out_rank < 2 || out_rank > 3 || a_rank != out_rank || b_rank != out_rank)
      f.fail("out, a and b must all be matrices ([rows, cols]) or all batches of them ([batch, rows, cols])");
    p.out = out;
    p.a = a;
    p.b = b;
    if (f.has("b_layout")) {
      std::string l = f.at("b_layout").str();
      if (l != "kn" && l != "nk") f.at("b_layout").fail("must be kn (b is [K, N]) or nk (b is [N, K], a · bᵀ)");
      p.b_transposed = l == "nk";
    }
    if (f.has("scales")) {
      Field sc = f.at("scales");
      for (size_t i = 0; i < sc.size(); ++i) p.scales.push_back(tensor(sc.item(i), Role::kInput).first);
    }
    t.product = p;
  }

  t.reference = read_file_ref(top.at("reference"), dir);
  t.starter = read_file_ref(top.at("starter"), dir);
  t.baseline = top.has("baseline") ? read_file_ref(top.at("baseline"), dir) : t.starter;
  if (top.has("libraries")) {
    Field l = top.at("libraries");
    for (size_t i = 0; i < l.size(); ++i) t.libraries.push_back(l.item(i).str());
  }
  if (top.has("host_reference")) t.host_reference = read_file_ref(top.at("host_reference"), dir);
  if (top.has("expert")) t.expert = read_file_ref(top.at("expert"), dir);
  if (top.has("stub")) {
    if (t.category != "cuda2cuda") top.at("stub").fail("a stub makes a cuda2cuda task also spec2cuda; this task is " + t.category);
    t.stub = read_file_ref(top.at("stub"), dir);
  }
  if (top.has("expert_libraries")) {
    if (!t.expert) top.at("expert_libraries").fail("expert_libraries without an expert file: add 'expert:' or drop it");
    Field l = top.at("expert_libraries");
    for (size_t i = 0; i < l.size(); ++i) t.expert_libraries.push_back(l.item(i).str());
  }

  // Expressions must evaluate on every declared shape; report the first that does not.
  auto check_shape_exprs = [&](const Shape& s, const std::string& set) {
    try {
      t.check_expressions(s);
    } catch (const ExprError& e) {
      throw InputError(file.string() + ": " + set + " shape " + s.label() + ": " + e.what());
    }
  };
  for (const auto& s : t.visible) check_shape_exprs(s, "visible");
  for (const auto& s : t.heldout.shapes) check_shape_exprs(s, "held-out");
  return t;
}

}  // namespace arena
