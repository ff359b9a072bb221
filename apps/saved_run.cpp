#include "saved_run.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace {

using json = nlohmann::json;

class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& what) const { throw std::invalid_argument(path_ + ": " + what); }

  const json& member(const json& object, const std::string& where, const char* key) const {
    if (!object.contains(key)) fail(where + "." + key + " is missing");
    return object.at(key);
  }
  std::string text(const json& object, const std::string& where, const char* key) const {
    const json& v = member(object, where, key);
    if (!v.is_string()) fail(where + "." + key + " must be a string");
    return v.get<std::string>();
  }
  // A number, or null read as 0 (the writer's "unknown").
  double number(const json& object, const std::string& where, const char* key) const {
    const json& v = member(object, where, key);
    if (v.is_null()) return 0;
    if (!v.is_number()) fail(where + "." + key + " must be a number or null");
    return v.get<double>();
  }
  std::int64_t size(const json& object, const std::string& where, const char* key) const {
    const json& v = member(object, where, key);
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1) fail(where + "." + key + " must be a whole number >= 1");
    return v.get<std::int64_t>();
  }

 private:
  std::string path_;
};

}  // namespace

SavedRun load_saved_run(const std::string& path) {
  const Reader in(path);
  std::ifstream file(path, std::ios::binary);
  if (!file) in.fail("cannot be read");
  json doc;
  try {
    doc = json::parse(file);
  } catch (const json::parse_error&) {
    in.fail("is not a JSON run of matcompare (matcompare --format json writes one)");
  }
  if (!doc.is_object() || !doc.contains("context") || !doc["context"].is_object() || !doc.contains("results") ||
      !doc["results"].is_array())
    in.fail("is not a JSON run of matcompare: it needs a \"context\" object and a \"results\" array");
  const json& context = doc["context"];
  SavedRun run;
  run.path = path;
  auto optional_text = [&](const json& object, const char* key) {
    return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : std::string();
  };
  run.git_commit = optional_text(context, "git_commit");
  run.hostname = optional_text(context, "hostname");
  run.timestamp_utc = optional_text(context, "timestamp_utc");
  run.machine = context.contains("gpu") && context["gpu"].is_object() ? optional_text(context["gpu"], "name") : "";
  if (run.machine.empty()) run.machine = optional_text(context, "cpu_model");
  const json& results = doc["results"];
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::string where = "results[" + std::to_string(i) + "]";
    const json& r = results[i];
    if (!r.is_object()) in.fail(where + " must be an object");
    SavedRow row;
    row.backend = in.text(r, where, "backend");
    row.precision = in.text(r, where, "precision");
    row.status = in.text(r, where, "status");
    // "skipped": runs saved before --budget, for a row that did not fit --time-limit; not measured, as unavailable.
    if (row.status != "ok" && row.status != "estimated" && row.status != "failed" && row.status != "unavailable" &&
        row.status != "skipped")
      in.fail(where + ".status must be ok, estimated, failed, unavailable or skipped, not '" + row.status + "'");
    row.m = in.size(r, where, "m");
    row.n = in.size(r, where, "n");
    row.k = in.size(r, where, "k");
    if (r.contains("layout")) row.layout = in.text(r, where, "layout");
    row.alpha = in.number(r, where, "alpha");
    row.beta = in.number(r, where, "beta");
    row.median_ms = in.number(r, where, "median_ms");
    row.min_ms = in.number(r, where, "min_ms");
    row.max_ms = in.number(r, where, "max_ms");
    row.samples = int(in.number(r, where, "samples"));
    row.gflops = in.number(r, where, "gflops");
    row.vs_vendor = in.number(r, where, "vs_vendor");
    // Written since pairs have quartiles; runs saved before have none (their x vendor is still compared).
    if (r.contains("vs_vendor_pairs")) {
      row.vs_vendor_q1 = in.number(r, where, "vs_vendor_q1");
      row.vs_vendor_q3 = in.number(r, where, "vs_vendor_q3");
      row.vs_vendor_pairs = int(in.number(r, where, "vs_vendor_pairs"));
    }
    const json& passed = in.member(r, where, "passed");
    if (!passed.is_null() && !passed.is_boolean()) in.fail(where + ".passed must be true, false or null");
    row.verified = passed.is_boolean();
    row.passed = passed.is_boolean() && passed.get<bool>();
    if ((row.status == "ok" || row.status == "estimated") && !(row.median_ms > 0))
      in.fail(where + ".median_ms must be positive for a row of status " + row.status);
    run.rows.push_back(std::move(row));
  }
  return run;
}
