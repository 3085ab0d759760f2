#include "filter/arg_filter_compiler.h"

#include <bpf/btf.h>

#include <cstring>
#include <optional>
#include <set>

#include "discovery/btf_types.h"
#include "util/error.h"

namespace retsnoop {
namespace {

// Pointers one operand may follow: enough for file->f_path.dentry->d_name.name, and a bound on
// the reads one call costs.
constexpr int kMaxDerefs = 8;
// The longest string constant: the compared 64 bytes hold it and its NUL.
constexpr size_t kMaxStrLen = RS_FILTER_STR_WORDS * 8 - 1;

// A type once typedefs and qualifiers are looked through.
struct Ty {
  enum Kind { Scalar, Ptr, Array, Record, Other } kind = Other;
  uint32_t id = 0;  // resolved BTF id; 0 for a raw slot (an untyped 64-bit value)
  const struct btf_type* t = nullptr;
  uint32_t size = 8;
  bool is_signed = false;
  bool user = false;                     // a __user pointer, or memory reached through one
  uint32_t bit_shift = 0, bit_size = 0;  // a bit-field: its bits in the loaded integer
  uint32_t target = 0;  // Ptr: the pointee's BTF id (an array's element, once decayed)
  uint32_t nelems = 0;  // Ptr: the length of the array it decayed from; 0: a pointer
};

// The parameter of that name, or null.
const ArgInfo* find_param(const FuncArgs& args, const std::string& name) {
  for (const ArgInfo& a : args.args)
    if (a.name == name) return &a;
  return nullptr;
}

class Codegen {
 public:
  Codegen(const FuncArgs& args, const std::unordered_map<std::string, int64_t>& enums,
          rs_arg_filter& out)
      : args_(args), btf_(args.btf), enums_(enums), out_(out) {}

  // Emits e as a 0/1 value.
  void boolean(const ArgExpr& e) {
    if (e.kind == ArgExprKind::Not) {
      boolean(*e.lhs);
      emit(RS_FOP_NOT);
      return;
    }
    if (e.kind == ArgExprKind::Binary) {
      if (e.op == ArgExprOp::And || e.op == ArgExprOp::Or) return logical(e);
      if (e.op != ArgExprOp::BitAnd) return compare(e);
    }
    if (auto c = constant(e)) {
      emit(RS_FOP_CONST, *c != 0);
      return;
    }
    Ty t = operand(e);
    if (t.kind != Ty::Scalar && t.kind != Ty::Ptr)
      throw ArgExprError(e.start,
                         describe(t) + " is not a truth value: compare one of its members");
    emit(RS_FOP_CONST, 0);
    emit(RS_FOP_CMP, 0, 0, 0, RS_FCMP_NE);
  }

  // Emits a jump past what is emitted until patch() is called with its index.
  size_t jump(rs_u8 op) {
    emit(op);
    return out_.cnt - 1;
  }
  void patch(size_t at) { out_.insns[at].imm = out_.cnt - at - 1; }

 private:
  void emit(rs_u8 op, uint64_t imm = 0, rs_u8 size = 0, rs_u8 flags = 0, rs_u8 aux = 0) {
    if (out_.cnt >= RS_FILTER_MAX_INSNS)
      throw ArgExprError(0, "the filters need more than " + std::to_string(RS_FILTER_MAX_INSNS) +
                                " instructions: split or shorten them");
    out_.insns[out_.cnt++] = {op, size, flags, aux, 0, imm};
  }

  void logical(const ArgExpr& e) {
    boolean(*e.lhs);
    size_t j = jump(e.op == ArgExprOp::And ? RS_FOP_JFALSE : RS_FOP_JTRUE);
    boolean(*e.rhs);
    patch(j);
  }

  const ArgInfo* param(const std::string& name) const { return find_param(args_, name); }

  // The value of an operand known before the call: integers, NULL, enum constants.
  std::optional<int64_t> constant(const ArgExpr& e) const {
    switch (e.kind) {
      case ArgExprKind::Int: return static_cast<int64_t>(e.value);
      case ArgExprKind::Null: return 0;
      case ArgExprKind::Name: {
        if (param(e.text)) return std::nullopt;
        auto it = enums_.find(e.text);
        if (it != enums_.end()) return it->second;
        return std::nullopt;
      }
      case ArgExprKind::Neg: {
        auto c = constant(*e.lhs);
        return c ? std::optional<int64_t>(-*c) : std::nullopt;
      }
      default: return std::nullopt;
    }
  }

  Ty type_of(uint32_t id, bool user) const {
    Ty ty;
    ResolvedType r = resolve_btf_type(btf_, id);
    ty.id = r.id;
    ty.t = r.t;
    ty.user = user || r.user;
    if (!r.t) return ty;
    switch (btf_kind(r.t)) {
      case BTF_KIND_INT:
        ty.kind = Ty::Scalar;
        ty.size = r.t->size;
        ty.is_signed = btf_int_encoding(r.t) & BTF_INT_SIGNED;
        break;
      case BTF_KIND_ENUM:
      case BTF_KIND_ENUM64:
        ty.kind = Ty::Scalar;
        ty.size = r.t->size;
        ty.is_signed = btf_kflag(r.t);
        break;
      case BTF_KIND_PTR:
        ty.kind = Ty::Ptr;
        ty.target = r.t->type;
        break;
      case BTF_KIND_ARRAY: ty.kind = Ty::Array; break;
      case BTF_KIND_STRUCT:
      case BTF_KIND_UNION:
        ty.kind = Ty::Record;
        ty.size = r.t->size;
        break;
      default: break;
    }
    return ty;
  }

  std::string describe(const Ty& t) const {
    if (!t.t) return "void";
    const char* name = btf__name_by_offset(btf_, t.t->name_off);
    switch (btf_kind(t.t)) {
      case BTF_KIND_STRUCT: return std::string("struct ") + (*name ? name : "{...}");
      case BTF_KIND_UNION: return std::string("union ") + (*name ? name : "{...}");
      case BTF_KIND_ARRAY: return "an array";
      case BTF_KIND_PTR: return "a pointer";
      default: return *name ? name : "a value";
    }
  }

  Ty pointee(const Ty& p) const { return type_of(p.target, p.user); }

  // Member name of record type rec, looked for in its anonymous members too; adds its byte
  // offset to *bits.
  std::optional<Ty> find_member(const Ty& rec, const std::string& name, uint32_t* bits) const {
    std::set<const btf_type*> searched;
    return find_member(rec, name, bits, searched);
  }

  // Each record is searched once: where it was searched, the name is not in it, and a malformed
  // BTF may nest one in itself or in thousands of anonymous members at each level.
  std::optional<Ty> find_member(const Ty& rec, const std::string& name, uint32_t* bits,
                                std::set<const btf_type*>& searched) const {
    if (!searched.insert(rec.t).second) return std::nullopt;
    const struct btf_member* m = btf_members(rec.t);
    for (uint16_t i = 0; i < btf_vlen(rec.t); ++i, ++m) {
      uint32_t off = btf_member_bit_offset(rec.t, i);
      const char* mname = btf__name_by_offset(btf_, m->name_off);
      Ty mt = type_of(m->type, rec.user);
      if (*mname) {
        if (name != mname) continue;
        *bits += off;
        uint32_t bsize = btf_member_bitfield_size(rec.t, i);
        if (bsize) {
          mt.bit_size = bsize;
          mt.bit_shift = off % 8;
        }
        return mt;
      }
      if (mt.kind != Ty::Record) continue;
      uint32_t inner = *bits + off;
      if (auto found = find_member(mt, name, &inner, searched)) {
        *bits = inner;
        return found;
      }
    }
    return std::nullopt;
  }

  // Emits the address of e; returns the type of what is there.
  Ty place(const ArgExpr& e) {
    switch (e.kind) {
      case ArgExprKind::Arrow: {
        Ty p = value(*e.lhs);
        Ty rec = p.kind == Ty::Ptr ? pointee(p) : Ty{};
        if (rec.kind != Ty::Record)
          throw ArgExprError(e.pos, "'->' needs a pointer to a struct or union, not " +
                                        describe(p.kind == Ty::Ptr ? rec : p));
        return member(e, rec);
      }
      case ArgExprKind::Member: {
        Ty rec = place(*e.lhs);
        if (rec.kind != Ty::Record)
          throw ArgExprError(e.pos, "'.' needs a struct or union, not " + describe(rec));
        return member(e, rec);
      }
      case ArgExprKind::Index: return index(e);
      case ArgExprKind::Deref: {
        Ty p = value(*e.lhs);
        if (p.kind != Ty::Ptr) throw ArgExprError(e.pos, "'*' needs a pointer");
        return deref(e, p);
      }
      case ArgExprKind::Name:
        if (const ArgInfo* a = param(e.text); a && a->spec.slots > 1)
          throw ArgExprError(e.pos, "'" + e.text + "' is passed by value in two registers: " +
                                        "its members cannot be read");
        throw ArgExprError(e.pos, "'" + e.text + "' is not in memory: use '->' on a pointer");
      default: throw ArgExprError(e.pos, "this has no address");
    }
  }

  // Counts one more pointer followed in the current operand.
  void follow_pointer(const ArgExpr& e) {
    if (++derefs_ > kMaxDerefs)
      throw ArgExprError(
          e.pos, "more than " + std::to_string(kMaxDerefs) + " pointers followed in one operand");
  }

  Ty deref(const ArgExpr& e, const Ty& p) {
    follow_pointer(e);
    Ty t = pointee(p);
    if (!t.t) throw ArgExprError(e.pos, "a void pointer has nothing to read");
    return t;
  }

  Ty member(const ArgExpr& e, const Ty& rec) {
    uint32_t bits = 0;
    std::optional<Ty> m = find_member(rec, e.text, &bits);
    if (!m) throw ArgExprError(e.pos, describe(rec) + " has no member '" + e.text + "'");
    if (e.kind == ArgExprKind::Arrow) follow_pointer(e);
    if (bits / 8) emit(RS_FOP_ADD, bits / 8);
    return *m;
  }

  Ty index(const ArgExpr& e) {
    Ty base = value(*e.lhs);  // an array decays to a pointer to its first element
    if (base.kind != Ty::Ptr) throw ArgExprError(e.pos, "'[]' needs an array or a pointer");
    if (base.nelems && e.value >= base.nelems)
      throw ArgExprError(e.pos, "index " + std::to_string(e.value) + " is past the array's " +
                                    std::to_string(base.nelems) + " elements");
    Ty elem = deref(e, base);
    int esize = btf__resolve_size(btf_, elem.id);
    if (esize <= 0) throw ArgExprError(e.pos, "the elements have no size");
    if (e.value) emit(RS_FOP_ADD, e.value * static_cast<uint64_t>(esize));
    return elem;
  }

  // One side of a comparison or a bit test: the pointers it follows are counted afresh.
  Ty operand(const ArgExpr& e) {
    derefs_ = 0;
    return value(e);
  }

  // Emits e's value; returns its type (arrays as pointers to their first element).
  Ty value(const ArgExpr& e) {
    if (auto c = constant(e)) {
      emit(RS_FOP_CONST, static_cast<uint64_t>(*c));
      Ty t;
      t.kind = Ty::Scalar;
      t.is_signed = true;
      return t;
    }
    switch (e.kind) {
      case ArgExprKind::Name: return argument(e);
      case ArgExprKind::Str:
        throw ArgExprError(e.pos,
                           "a string compares only with == or != to a char array or pointer");
      case ArgExprKind::Not:
      case ArgExprKind::Binary:
        if (e.kind == ArgExprKind::Binary && e.op == ArgExprOp::BitAnd) return bit_and(e);
        boolean(e);
        return Ty{Ty::Scalar, 0, nullptr, 1, false};
      case ArgExprKind::Neg: {
        Ty t = value(*e.lhs);
        if (t.kind != Ty::Scalar) throw ArgExprError(e.pos, "'-' needs an integer");
        emit(RS_FOP_NEG);
        t.is_signed = true;
        return t;
      }
      default: return load(place(e));
    }
  }

  Ty argument(const ArgExpr& e) {
    const ArgInfo* a = param(e.text);
    if (!a) throw ArgExprError(e.pos, "unknown name '" + e.text + "'");
    if (a->spec.slots != 1)
      throw ArgExprError(e.pos, "'" + e.text + "' is passed by value in two registers");
    emit(RS_FOP_ARG, a->spec.slot);
    if (!a->type_id) return Ty{Ty::Scalar, 0, nullptr, 8, false};  // a raw slot
    Ty t = type_of(a->type_id, a->spec.flags & RS_ARG_USER);
    if (t.kind == Ty::Record)
      throw ArgExprError(e.pos, "'" + e.text + "' is " + describe(t) +
                                    " passed by value: its members cannot be read");
    return t;
  }

  // Reads the scalar or pointer at the address on the stack; an array stays an address.
  Ty load(Ty t) {
    if (t.kind == Ty::Array) {  // decays to a pointer to its first element, as in C
      const struct btf_array* arr = btf_array(t.t);
      Ty p;
      p.kind = Ty::Ptr;
      p.user = t.user;
      p.target = arr->type;
      p.nelems = arr->nelems;
      return p;
    }
    if (t.kind != Ty::Scalar && t.kind != Ty::Ptr)
      return t;  // a record: its user says what's wrong
    rs_u8 flags = t.user ? RS_FFL_USER : 0;
    uint32_t bytes = t.size;
    if (t.bit_size) bytes = (t.bit_shift + t.bit_size + 7) / 8;
    if (bytes == 3 || bytes > 4) bytes = bytes > 4 ? 8 : 4;
    if (t.is_signed && !t.bit_size) flags |= RS_FFL_SIGNED;
    emit(RS_FOP_LOAD, 0, static_cast<rs_u8>(bytes), flags);
    if (t.bit_size) {
      uint64_t mask = t.bit_size >= 64 ? ~0ull : (1ull << t.bit_size) - 1;
      emit(RS_FOP_BITS, mask, 0, 0, static_cast<rs_u8>(t.bit_shift));
      t.size = 8;
      t.is_signed = false;
    }
    return t;
  }

  Ty bit_and(const ArgExpr& e) {
    scalar_operand(*e.lhs, operand(*e.lhs));
    scalar_operand(*e.rhs, operand(*e.rhs));
    emit(RS_FOP_AND);
    return Ty{Ty::Scalar, 0, nullptr, 8, false};
  }

  void scalar_operand(const ArgExpr& e, const Ty& t) const {
    if (t.kind != Ty::Scalar && t.kind != Ty::Ptr)
      throw ArgExprError(e.start, describe(t) + " cannot be compared: name one of its members");
  }

  static rs_u8 cmp_code(ArgExprOp op, bool swapped) {
    switch (op) {
      case ArgExprOp::Eq: return RS_FCMP_EQ;
      case ArgExprOp::Ne: return RS_FCMP_NE;
      case ArgExprOp::Lt: return swapped ? RS_FCMP_GT : RS_FCMP_LT;
      case ArgExprOp::Le: return swapped ? RS_FCMP_GE : RS_FCMP_LE;
      case ArgExprOp::Gt: return swapped ? RS_FCMP_LT : RS_FCMP_GT;
      case ArgExprOp::Ge: return swapped ? RS_FCMP_LE : RS_FCMP_GE;
      default: return RS_FCMP_EQ;
    }
  }

  void compare(const ArgExpr& e) {
    if (e.lhs->kind == ArgExprKind::Str || e.rhs->kind == ArgExprKind::Str) return string(e);
    const ArgExpr* a = e.lhs.get();
    const ArgExpr* b = e.rhs.get();
    bool swapped = false;
    if (constant(*a) && !constant(*b)) {
      std::swap(a, b);
      swapped = true;
    }
    Ty ta = operand(*a);
    scalar_operand(*a, ta);
    bool is_signed = ta.is_signed;
    if (auto c = constant(*b)) {
      uint64_t v = static_cast<uint64_t>(*c);
      // C converts the constant to the operand's type: -1 against a u32 is 0xffffffff.
      if (!ta.is_signed && ta.size < 8) v &= (1ull << (8 * ta.size)) - 1;
      emit(RS_FOP_CONST, v);
    } else {
      Ty tb = operand(*b);
      scalar_operand(*b, tb);
      is_signed = is_signed && tb.is_signed;
    }
    emit(RS_FOP_CMP, 0, 0, 0, cmp_code(e.op, swapped) | (is_signed ? RS_FCMP_SIGNED : 0));
  }

  void string(const ArgExpr& e) {
    const ArgExpr& lit = e.lhs->kind == ArgExprKind::Str ? *e.lhs : *e.rhs;
    const ArgExpr& other = e.lhs->kind == ArgExprKind::Str ? *e.rhs : *e.lhs;
    if (other.kind == ArgExprKind::Str) throw ArgExprError(e.pos, "two strings compared");
    if (e.op != ArgExprOp::Eq && e.op != ArgExprOp::Ne)
      throw ArgExprError(e.pos, "strings compare only with == and !=");
    if (lit.text.size() > kMaxStrLen)
      throw ArgExprError(
          lit.pos, "strings longer than " + std::to_string(kMaxStrLen) + " bytes are not compared");
    if (lit.text.find('\0') != std::string::npos)
      throw ArgExprError(lit.pos, "a string constant cannot hold a NUL");
    Ty p = operand(other);
    Ty c = p.kind == Ty::Ptr ? pointee(p) : Ty{};
    if (p.kind != Ty::Ptr || c.kind != Ty::Scalar || c.size != 1)
      throw ArgExprError(other.start,
                         "a string compares with a char array or a char pointer, not " +
                             describe(p.kind == Ty::Ptr ? c : p));
    if (used_strs_ >= RS_FILTER_MAX_STRS)
      throw ArgExprError(lit.pos, "at most " + std::to_string(RS_FILTER_MAX_STRS) +
                                      " strings per function's filters");
    rs_filter_str& s = out_.strs[used_strs_];
    size_t covered = lit.prefix ? lit.text.size() : lit.text.size() + 1;  // the NUL counts
    for (size_t i = 0; i < covered; ++i) {
      uint64_t byte = i < lit.text.size() ? static_cast<unsigned char>(lit.text[i]) : 0;
      s.bytes[i / 8] |= byte << (8 * (i % 8));
      s.mask[i / 8] |= 0xffull << (8 * (i % 8));
    }
    emit(RS_FOP_STR, used_strs_++, 0, p.user ? RS_FFL_USER : 0);
    if (e.op == ArgExprOp::Ne) emit(RS_FOP_NOT);
  }

  const FuncArgs& args_;
  const struct btf* btf_;
  const std::unordered_map<std::string, int64_t>& enums_;
  rs_arg_filter& out_;
  int derefs_ = 0;
  uint32_t used_strs_ = 0;
};

// The names e uses that are neither parameters nor enum constants.
void unknown_names(const ArgExpr& e, const FuncArgs& args,
                   const std::unordered_map<std::string, int64_t>& enums,
                   std::set<std::string>& out) {
  if (e.kind == ArgExprKind::Name && !find_param(args, e.text) && !enums.count(e.text))
    out.insert(e.text);
  if (e.lhs) unknown_names(*e.lhs, args, enums, out);
  if (e.rhs) unknown_names(*e.rhs, args, enums, out);
}

}  // namespace

ArgFilterCompiler::ArgFilterCompiler(const std::vector<std::string>& exprs) {
  for (const std::string& text : exprs) {
    try {
      exprs_.push_back({text, parse_arg_expr(text)});
    } catch (const ArgExprError& err) {
      throw UserError(arg_expr_message(text, err));
    }
  }
}

ArgFilterCompiler::~ArgFilterCompiler() = default;

const ArgFilterCompiler::EnumIndex& ArgFilterCompiler::enums_of(const struct btf* btf) {
  auto [it, added] = enums_.try_emplace(btf);
  if (!added || !btf) return it->second;
  for (uint32_t id = 1; id < btf__type_cnt(btf); ++id) {
    const struct btf_type* t = btf__type_by_id(btf, id);
    if (btf_is_enum(t)) {
      const struct btf_enum* v = btf_enum(t);
      for (uint16_t i = 0; i < btf_vlen(t); ++i, ++v)
        it->second.try_emplace(btf__name_by_offset(btf, v->name_off), v->val);
    } else if (btf_is_enum64(t)) {
      const struct btf_enum64* v = btf_enum64(t);
      for (uint16_t i = 0; i < btf_vlen(t); ++i, ++v)
        it->second.try_emplace(btf__name_by_offset(btf, v->name_off),
                               static_cast<int64_t>(btf_enum64_value(v)));
    }
  }
  return it->second;
}

ArgFilterProgram ArgFilterCompiler::compile(const FuncArgs& args) {
  ArgFilterProgram out;
  const EnumIndex& enums = enums_of(args.btf);
  std::set<std::string> missing;
  for (const Parsed& p : exprs_) unknown_names(*p.tree, args, enums, missing);
  if (!missing.empty()) {
    out.missing = *missing.begin();
    return out;
  }
  rs_func_args slots = args.to_bpf();
  out.prog.stack_slots = slots.stack_slots;
  out.prog.slots_from = slots.slots_from;
  Codegen gen(args, enums, out.prog);
  std::vector<size_t> jumps;
  for (const Parsed& p : exprs_) {
    try {
      if (&p != &exprs_.front()) jumps.push_back(gen.jump(RS_FOP_JFALSE));
      gen.boolean(*p.tree);
    } catch (const ArgExprError& err) {
      return {.error = arg_expr_message(p.text, err)};
    }
  }
  for (size_t j : jumps) gen.patch(j);
  return out;
}

}  // namespace retsnoop
