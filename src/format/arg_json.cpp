#include <nlohmann/json.hpp>

#include "format/arg_render.h"
#include "format/arg_value.h"
#include "format/json_dump.h"

namespace retsnoop {

namespace {

using nlohmann::json;
using Kind = ArgValue::Kind;

json to_json(const ArgValue& v);

json pointer_json(const ArgValue& v) {
  json j = {{"addr", v.u}, {"value", nullptr}};
  bool truncated = v.truncated;
  if (!v.text.empty()) {
    j["value"] = "<" + v.text + ">";
  } else if (v.fields.size() == 1) {
    const ArgValue& pointee = v.fields[0].second;
    ArgValue whole = pointee;
    whole.truncated = false;  // said once, in the pointer object
    j["value"] = to_json(whole);
    truncated |= pointee.truncated;
  }
  if (truncated) j["truncated"] = true;
  return j;
}

json bare_json(const ArgValue& v) {
  switch (v.kind) {
    case Kind::Signed: return v.s;
    case Kind::Unsigned:
    case Kind::Char:
    case Kind::Raw: return v.u;
    case Kind::Bool: return v.u != 0;
    case Kind::Enumerator:
    case Kind::Wide:
    case Kind::String: return v.text;
    case Kind::Address: return v.u ? json(v.u) : json(nullptr);
    case Kind::Symbol: return v.text.empty() ? json(v.u) : json{{"addr", v.u}, {"symbol", v.text}};
    case Kind::Record: {
      json j = json::object();
      for (const auto& [name, f] : v.fields) j[name] = to_json(f);
      return j;
    }
    case Kind::Array: {
      json j = json::array();
      for (const auto& f : v.fields) j.push_back(to_json(f.second));
      return j;
    }
    case Kind::Pointer: return pointer_json(v);
  }
  return nullptr;
}

// Values cut short keep their type inside a wrapper, so readers never mistake them for whole.
json to_json(const ArgValue& v) {
  json j = bare_json(v);
  if (!v.truncated || v.kind == Kind::Pointer) return j;
  return {{"value", std::move(j)}, {"truncated", true}};
}

}  // namespace

json args_json_value(const FuncArgs& plan, const CapturedArgs& cap, const ArgRenderOptions& opts) {
  json j = json::object();
  for (const auto& [name, v] : decode_shown(plan, cap, opts.name_addr)) j[name] = to_json(v);
  return j;
}

std::string args_json(const FuncArgs& plan, const CapturedArgs& cap, const ArgRenderOptions& opts) {
  return dump_json(args_json_value(plan, cap, opts));
}

}  // namespace retsnoop
