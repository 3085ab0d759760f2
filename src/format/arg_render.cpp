#include "format/arg_render.h"

#include "format/arg_value.h"
#include "util/text_escape.h"

namespace retsnoop {

namespace {

using Kind = ArgValue::Kind;

constexpr const char* kArgMark = "› ";
constexpr const char* kContinue = "  ";  // verbose lines under "› "

std::string quoted(const std::string& s) {
  std::string out = "'";
  append_escaped(out, s, '\'');
  return out + "'";
}

bool printable(uint64_t c) { return c >= 0x20 && c < 0x7f; }

class TextPrinter {
 public:
  explicit TextPrinter(const ArgRenderOptions& opts) : opts_(opts) {}

  std::string compact(const ArgValue& v) const {
    switch (v.kind) {
      case Kind::Signed: return std::to_string(v.s);
      // Values past 32 bits are mostly addresses and masks, which read better in hex.
      case Kind::Unsigned: return v.u >> 32 ? arg_hex(v.u) : std::to_string(v.u);
      case Kind::Bool: return v.u ? "true" : "false";
      case Kind::Char:
        return printable(v.u) ? quoted(std::string(1, char(v.u))) : std::to_string(v.u);
      case Kind::Enumerator:
      case Kind::Wide: return v.text;
      case Kind::Raw: return arg_hex(v.u);
      case Kind::Address: return v.u ? arg_hex(v.u) : "NULL";
      case Kind::Symbol: return v.text.empty() ? (v.u ? arg_hex(v.u) : "NULL") : "&" + v.text;
      case Kind::String: return raw_ptr(v) + quoted(v.text) + (v.truncated ? "..." : "");
      case Kind::Record: return "{" + compact_items(v, true) + "}";
      case Kind::Array: return "[" + compact_items(v, false) + "]";
      case Kind::Pointer: return pointer(v, compact_pointee(v));
    }
    return {};
  }

  // Structs, unions and arrays of them one member per line, indented two more per level.
  std::string verbose(const ArgValue& v, const std::string& indent) const {
    bool record = v.kind == Kind::Record;
    bool nested_array = v.kind == Kind::Array && has_block(v);
    if (v.kind == Kind::Pointer && v.fields.size() == 1 && v.text.empty())
      return pointer(v, verbose(v.fields[0].second, indent));
    if ((!record && !nested_array) || (v.fields.empty() && !v.truncated)) return compact(v);
    std::string inner = indent + "  ";
    std::string out = record ? "{\n" : "[\n";
    for (const auto& [name, f] : v.fields) {
      out += inner;
      if (record) out.append(".").append(name).append(" = ");
      out.append(verbose(f, inner)).append("\n");
    }
    if (v.truncated) out += inner + "...\n";
    return out + indent + (record ? "}" : "]");
  }

 private:
  static bool has_block(const ArgValue& v) {
    for (const auto& f : v.fields)
      if (f.second.kind == Kind::Record || f.second.kind == Kind::Array) return true;
    return false;
  }

  std::string compact_items(const ArgValue& v, bool named) const {
    std::string out;
    for (const auto& [name, f] : v.fields) {
      if (!out.empty()) out += ",";
      out += (named ? "." + name + "=" : "") + compact(f);
    }
    if (v.truncated) out += out.empty() ? "..." : ",...";
    return out;
  }

  std::string compact_pointee(const ArgValue& v) const {
    return v.fields.size() == 1 ? compact(v.fields[0].second) : "";
  }

  std::string raw_ptr(const ArgValue& v) const {
    return opts_.limits.capture_raw_ptrs && v.u ? "(" + arg_hex(v.u) + ")" : "";
  }

  // A pointer argument around its rendered pointee.
  std::string pointer(const ArgValue& v, const std::string& pointee) const {
    if (!v.text.empty()) return "&<" + v.text + " " + arg_hex(v.u) + ">";
    if (v.u == 0) return "NULL";
    if (v.fields.empty()) return raw_ptr(v) + "&...";  // a scalar pointee cut short
    return raw_ptr(v) + "&" + pointee;
  }

  const ArgRenderOptions& opts_;
};

std::string cut(std::string s, uint32_t width) {
  if (width == 0 || s.size() <= width) return s;
  s.resize(width);
  return s + "...";
}

std::string note(const FuncArgs& plan) {
  std::string what;
  if (plan.uncaptured) {
    const char* kind = plan.tp_fields.empty() ? " more argument" : " more field";
    what = std::to_string(plan.uncaptured) + kind + (plan.uncaptured == 1 ? "" : "s");
  }
  if (plan.variadic) what += what.empty() ? "variadic arguments" : " and variadic arguments";
  return what.empty() ? "" : std::string(kArgMark) + "... (" + what + " not captured)";
}

// Verbose value lines after the first, under the "› " of their argument.
void append_lines(std::vector<std::string>& lines, const std::string& first,
                  const std::string& value) {
  size_t start = 0, nl = value.find('\n');
  lines.push_back(first + value.substr(0, nl));
  while (nl != std::string::npos) {
    start = nl + 1;
    nl = value.find('\n', start);
    lines.push_back(kContinue + value.substr(start, nl == std::string::npos ? nl : nl - start));
  }
}

}  // namespace

std::vector<RenderedArg> render_args(const FuncArgs& plan, const CapturedArgs& cap,
                                     const ArgRenderOptions& opts) {
  TextPrinter printer(opts);
  std::vector<RenderedArg> out;
  for (auto& [name, v] : decode_shown(plan, cap, opts.name_addr)) {
    std::string text = opts.mode == ArgFmtMode::Verbose
                           ? printer.verbose(v, "")
                           : cut(printer.compact(v), opts.max_arg_width);
    out.push_back({std::move(name), std::move(text)});
  }
  return out;
}

std::vector<std::string> arg_lines(const FuncArgs& plan, const CapturedArgs& cap,
                                   const ArgRenderOptions& opts) {
  std::vector<std::string> lines;
  std::vector<RenderedArg> args = render_args(plan, cap, opts);
  if (opts.mode == ArgFmtMode::Compact && !args.empty()) {
    std::string line = kArgMark;
    for (size_t i = 0; i < args.size(); ++i)
      line += (i ? " " : "") + args[i].name + "=" + args[i].value;
    lines.push_back(std::move(line));
  } else {
    for (const RenderedArg& a : args) append_lines(lines, kArgMark + a.name + " = ", a.value);
  }
  if (std::string n = note(plan); !n.empty()) lines.push_back(std::move(n));
  return lines;
}

}  // namespace retsnoop
