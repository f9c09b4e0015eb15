#include "core/format/perf/simpleperf/simpleperf_features.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <protozero/pbf_reader.hpp>
#include <protozero/varint.hpp>

#include "core/format/elf/elf_reader.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_record_fields.h"
#include "core/format/perf/simpleperf/simpleperf_format.h"

namespace profscope::perf {

namespace {


constexpr int kMaxDepth = 16;

// ---- protobuf ---------------------------------------------------------------
// protozero throws on malformed input, so every message is first checked at
// its own level: well-formed keys and varints, allowed tags and wire types,
// lengths inside the buffer. Only then does protozero iterate it.
bool ReadVarint(const uint8_t* p, size_t n, size_t* i, uint64_t* v) {
  uint64_t r = 0;
  for (int k = 0; k < 10; ++k) {
    if (*i >= n) return false;
    uint8_t b = p[(*i)++];
    r |= static_cast<uint64_t>(b & 0x7f) << (7 * k);
    if (!(b & 0x80)) { *v = r; return true; }
  }
  return false;
}

// Returns the offset of the first byte that breaks the wire format, or n.
size_t WireCheck(const uint8_t* p, size_t n) {
  size_t i = 0;
  while (i < n) {
    size_t at = i;
    uint64_t key;
    if (!ReadVarint(p, n, &i, &key)) return at;
    uint32_t k32 = static_cast<uint32_t>(key);
    uint32_t tag = k32 >> 3;
    if (tag == 0 || (tag >= 19000 && tag <= 19999)) return at;
    uint64_t v;
    switch (k32 & 7) {
      case 0: if (!ReadVarint(p, n, &i, &v)) return at; break;
      case 1: if (n - i < 8) return at; i += 8; break;
      case 2:
        if (!ReadVarint(p, n, &i, &v) || v > 0xffffffffu || v > n - i) return at;
        i += static_cast<size_t>(v);
        break;
      case 5: if (n - i < 4) return at; i += 4; break;
      default: return at;
    }
  }
  return n;
}

bool PackedVarintsOk(const uint8_t* p, size_t n) {
  size_t i = 0;
  uint64_t v;
  while (i < n)
    if (!ReadVarint(p, n, &i, &v)) return false;
  return true;
}

enum class Pb { kU64, kHex, kString, kBytes, kMessage, kPackedU64, kEnum };
struct PbMsg;
struct PbField {
  uint32_t num;
  const char* name;
  Pb kind;
  const PbMsg* sub;
  const char* const* enum_names;
  size_t enum_count;
  bool repeated = false;
};
struct PbMsg {
  const char* name;
  const PbField* fields;
  size_t count;
};

// record_file.proto
const PbField kSymbolFields[] = {{1, "vaddr", Pb::kHex, nullptr, nullptr, 0},
                                 {2, "len", Pb::kU64, nullptr, nullptr, 0},
                                 {3, "name", Pb::kString, nullptr, nullptr, 0}};
const PbMsg kSymbolMsg{"Symbol", kSymbolFields, 3};
const PbField kDexFields[] = {{1, "dex_file_offset", Pb::kPackedU64, nullptr, nullptr, 0}};
const PbMsg kDexMsg{"DexFile", kDexFields, 1};
const PbField kElfFields[] = {{1, "file_offset_of_min_vaddr", Pb::kHex, nullptr, nullptr, 0}};
const PbMsg kElfMsg{"ElfFile", kElfFields, 1};
const PbField kKmodFields[] = {{1, "memory_offset_of_min_vaddr", Pb::kHex, nullptr, nullptr, 0}};
const PbMsg kKmodMsg{"KernelModule", kKmodFields, 1};
const char* const kDsoTypeNames[] = {"DSO_KERNEL", "DSO_KERNEL_MODULE", "DSO_ELF_FILE", "DSO_DEX_FILE",
                                     "DSO_SYMBOL_MAP_FILE", "DSO_UNKNOWN_FILE"};
const PbField kFileFeatureFields[] = {{1, "path", Pb::kString, nullptr, nullptr, 0},
                                      {2, "type", Pb::kEnum, nullptr, kDsoTypeNames, 6},
                                      {3, "min_vaddr", Pb::kHex, nullptr, nullptr, 0},
                                      {4, "symbol", Pb::kMessage, &kSymbolMsg, nullptr, 0, true},
                                      {5, "dex_file", Pb::kMessage, &kDexMsg, nullptr, 0},
                                      {6, "elf_file", Pb::kMessage, &kElfMsg, nullptr, 0},
                                      {7, "kernel_module", Pb::kMessage, &kKmodMsg, nullptr, 0}};
const PbMsg kFileFeatureMsg{"FileFeature", kFileFeatureFields, 7};
const PbField kUnwindFileFields[] = {{1, "path", Pb::kString, nullptr, nullptr, 0},
                                     {2, "size", Pb::kU64, nullptr, nullptr, 0}};
const PbMsg kUnwindFileMsg{"File", kUnwindFileFields, 2};
const PbField kDebugUnwindFields[] = {{1, "file", Pb::kMessage, &kUnwindFileMsg, nullptr, 0, true}};
const PbMsg kDebugUnwindMsg{"DebugUnwindFeature", kDebugUnwindFields, 1};
// etm_branch_list.proto (ETMBranchList) / branch_list.proto (BranchList): same numbering.
const PbField kBranchFields[] = {{1, "branch", Pb::kBytes, nullptr, nullptr, 0},
                                 {2, "branch_size", Pb::kU64, nullptr, nullptr, 0},
                                 {3, "count", Pb::kU64, nullptr, nullptr, 0}};
const PbMsg kBranchMsg{"Branch", kBranchFields, 3};
const PbField kAddressFields[] = {{1, "addr", Pb::kHex, nullptr, nullptr, 0},
                                  {2, "branches", Pb::kMessage, &kBranchMsg, nullptr, 0, true}};
const PbMsg kAddressMsg{"Address", kAddressFields, 2};
const PbField kKernelInfoFields[] = {{1, "kernel_start_addr", Pb::kHex, nullptr, nullptr, 0}};
const PbMsg kKernelInfoMsg{"KernelBinaryInfo", kKernelInfoFields, 1};
const char* const kBinaryTypeNames[] = {"ELF_FILE", "KERNEL", "KERNEL_MODULE"};
const PbField kBinaryFields[] = {{1, "path", Pb::kString, nullptr, nullptr, 0},
                                 {2, "build_id", Pb::kString, nullptr, nullptr, 0},
                                 {3, "addrs", Pb::kMessage, &kAddressMsg, nullptr, 0, true},
                                 {4, "type", Pb::kEnum, nullptr, kBinaryTypeNames, 3},
                                 {5, "kernel_info", Pb::kMessage, &kKernelInfoMsg, nullptr, 0}};
const PbMsg kBinaryMsg{"Binary", kBinaryFields, 5};
const PbField kBranchListFields[] = {{1, "magic", Pb::kString, nullptr, nullptr, 0},
                                     {2, "binaries", Pb::kMessage, &kBinaryMsg, nullptr, 0, true},
                                     {3, "lbr_data", Pb::kBytes, nullptr, nullptr, 0}};
const PbMsg kBranchListMsg{"ETMBranchList", kBranchListFields, 3};

const PbField* FindPbField(const PbMsg* m, uint32_t num) {
  if (!m) return nullptr;
  for (size_t i = 0; i < m->count; ++i)
    if (m->fields[i].num == num) return &m->fields[i];
  return nullptr;
}

bool Printable(const char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(p[i]);
    if (c < 32 && c != '\n' && c != '\t') return false;
  }
  return true;
}

// Decodes one message's fields into `out` (absolute offsets from `base`,
// the offset of data[0]). Returns false when the wire format is broken.
bool PbToFields(const uint8_t* data, size_t size, uint64_t base, const PbMsg* msg, std::vector<Field>& out,
                Diagnostics& diags, int depth) {
  size_t bad = WireCheck(data, size);
  if (bad != size) {
    out.push_back(Field{"unparsed", base + bad, size - bad,
                        Dec(size - bad) + " bytes that are not well-formed protobuf", {}});
    diags.Error(DiagCode::kBadFeature, base + bad, size - bad,
                std::string(msg ? msg->name : "protobuf") + " message at " + Hex(base) +
                    ": malformed protobuf at byte " + Dec(bad) + " of " + Dec(size));
  }
  std::map<uint32_t, size_t> seen;
  protozero::pbf_reader r(reinterpret_cast<const char*>(data), bad);
  const char* start = reinterpret_cast<const char*>(data);
  size_t before = 0;
  while (r.next()) {
    const PbField* fd = FindPbField(msg, r.tag());
    std::string name = fd ? fd->name : "field " + Dec(r.tag());
    size_t idx = seen[r.tag()]++;
    if (fd && fd->repeated) name += "[" + Dec(idx) + "]";
    else if (idx) name += "[" + Dec(idx) + "]";
    Field f{name, 0, 0, "", {}};
    Pb want = fd ? fd->kind : Pb::kBytes;
    switch (r.wire_type()) {
      case protozero::pbf_wire_type::varint: {
        uint64_t v = r.get_uint64();
        if (fd && fd->kind == Pb::kEnum) {
          f.value = Dec(v);
          if (v < fd->enum_count) f.value += std::string(" (") + fd->enum_names[v] + ")";
        } else {
          f.value = fd && fd->kind == Pb::kHex ? Hex(v) : Dec(v);
        }
        break;
      }
      case protozero::pbf_wire_type::fixed64: f.value = Hex(r.get_fixed64()); break;
      case protozero::pbf_wire_type::fixed32: f.value = Hex(r.get_fixed32()); break;
      case protozero::pbf_wire_type::length_delimited: {
        protozero::data_view v = r.get_view();
        const uint8_t* vp = reinterpret_cast<const uint8_t*>(v.data());
        uint64_t voff = base + static_cast<uint64_t>(v.data() - start);
        if (want == Pb::kMessage && depth < kMaxDepth) {
          PbToFields(vp, v.size(), voff, fd->sub, f.children, diags, depth + 1);
          // A short summary: the first string member, else the member count.
          for (const Field& c : f.children)
            if (!c.value.empty() && c.value[0] == '"') { f.value = c.value; break; }
          if (f.value.empty()) f.value = Dec(f.children.size()) + " fields";
        } else if (want == Pb::kPackedU64) {
          if (PackedVarintsOk(vp, v.size())) {
            const char* p = v.data();
            const char* e = p + v.size();
            size_t k = 0;
            while (p < e) {
              const char* q = p;
              uint64_t x = protozero::decode_varint(&p, e);
              f.children.push_back(Field{name + "[" + Dec(k++) + "]", base + static_cast<uint64_t>(q - start),
                                         static_cast<uint64_t>(p - q), Hex(x), {}});
            }
            f.value = Dec(k) + " values";
          } else {
            f.value = Dec(v.size()) + " bytes (not packed varints)";
          }
        } else if (want == Pb::kString || (!fd && Printable(v.data(), v.size()) && v.size())) {
          f.value = QuoteString(std::string(v.data(), v.size()));
        } else {
          f.value = Dec(v.size()) + " bytes";
        }
        break;
      }
      default:
        r.skip();
        break;
    }
    size_t after = bad - r.data().size();
    f.offset = base + before;
    f.size = after - before;
    before = after;
    out.push_back(std::move(f));
  }
  return bad == size;
}

// Reads a validated FileFeature message into `file`.
void ExtractFileFeature(const uint8_t* data, size_t size, SimpleperfFile& file) {
  if (WireCheck(data, size) != size) return;
  protozero::pbf_reader r(reinterpret_cast<const char*>(data), size);
  while (r.next()) {
    auto wt = r.wire_type();
    bool ld = wt == protozero::pbf_wire_type::length_delimited;
    bool vi = wt == protozero::pbf_wire_type::varint;
    switch (r.tag()) {
      case 1: if (ld) file.path = r.get_string(); else r.skip(); break;
      case 2: if (vi) file.type = static_cast<uint32_t>(r.get_uint64()); else r.skip(); break;
      case 3: if (vi) file.min_vaddr = r.get_uint64(); else r.skip(); break;
      case 4: {
        if (!ld) { r.skip(); break; }
        protozero::data_view v = r.get_view();
        if (WireCheck(reinterpret_cast<const uint8_t*>(v.data()), v.size()) != v.size()) break;
        protozero::pbf_reader s(v);
        SimpleperfSymbol sym;
        while (s.next()) {
          auto swt = s.wire_type();
          if (s.tag() == 1 && swt == protozero::pbf_wire_type::varint) sym.vaddr = s.get_uint64();
          else if (s.tag() == 2 && swt == protozero::pbf_wire_type::varint) sym.len = s.get_uint64();
          else if (s.tag() == 3 && swt == protozero::pbf_wire_type::length_delimited) sym.name = s.get_string();
          else s.skip();
        }
        file.symbols.push_back(std::move(sym));
        break;
      }
      case 5:
      case 6:
      case 7: {
        if (!ld) { r.skip(); break; }
        uint32_t tag = r.tag();
        protozero::data_view v = r.get_view();
        if (WireCheck(reinterpret_cast<const uint8_t*>(v.data()), v.size()) != v.size()) break;
        protozero::pbf_reader s(v);
        while (s.next()) {
          if (s.tag() != 1) { s.skip(); continue; }
          if (tag == 5) {
            if (s.wire_type() == protozero::pbf_wire_type::varint) {
              file.dex_file_offsets.push_back(s.get_uint64());
            } else if (s.wire_type() == protozero::pbf_wire_type::length_delimited) {
              protozero::data_view pv = s.get_view();
              if (!PackedVarintsOk(reinterpret_cast<const uint8_t*>(pv.data()), pv.size())) continue;
              const char* p = pv.data();
              const char* e = p + pv.size();
              while (p < e) file.dex_file_offsets.push_back(protozero::decode_varint(&p, e));
            } else {
              s.skip();
            }
          } else if (s.wire_type() == protozero::pbf_wire_type::varint) {
            uint64_t x = s.get_uint64();
            if (tag == 6) { file.has_file_offset_of_min_vaddr = true; file.file_offset_of_min_vaddr = x; }
            else { file.has_memory_offset_of_min_vaddr = true; file.memory_offset_of_min_vaddr = x; }
          } else {
            s.skip();
          }
        }
        if (tag == 6 && !file.has_file_offset_of_min_vaddr) { file.has_file_offset_of_min_vaddr = true; }
        if (tag == 7 && !file.has_memory_offset_of_min_vaddr) { file.has_memory_offset_of_min_vaddr = true; }
        break;
      }
      default: r.skip(); break;
    }
  }
}

void DropOrigin(SimpleperfInfo& info, uint32_t origin) {
  info.files.erase(std::remove_if(info.files.begin(), info.files.end(),
                                  [&](const SimpleperfFile& f) { return f.origin == origin; }),
                   info.files.end());
  info.indexed = false;
}

std::string FileSummary(const SimpleperfFile& f) {
  const char* tn = SimpleperfDsoTypeName(f.type);
  return QuoteString(f.path) + " (" + (*tn ? tn : Dec(f.type).c_str()) + ", " + Dec(f.symbols.size()) + " symbols)";
}

// ---- FILE (128) ---------------------------------------------------------------
void DecodeFile(ByteReader r, SimpleperfInfo& info, Field& top, Diagnostics& diags) {
  DropOrigin(info, kSpFeatFile);
  size_t k = 0;
  while (r.remaining() > 0) {
    uint64_t at = r.abs_pos();
    if (r.remaining() < 4) {
      top.children.push_back(Field{"unparsed", at, r.remaining(), Dec(r.remaining()) + " bytes", {}});
      diags.Error(DiagCode::kBadFeature, at, r.remaining(), "SIMPLEPERF_FILE at " + Hex(top.offset) + ": " +
                  Dec(r.remaining()) + " bytes at " + Hex(at) + " are too few for a file_struct size");
      break;
    }
    uint32_t size = r.U32();
    Field f{"file[" + Dec(k++) + "]", at, 4, "", {}};
    f.children.push_back(Field{"size", at, 4, Dec(size), {}});
    bool truncated = size > r.remaining();
    ByteReader e = r.Sub(size);
    SimpleperfFile file;
    file.origin = kSpFeatFile;
    auto fail = [&](const std::string& what) {
      f.children.push_back(Field{"truncated", e.abs_pos(), e.remaining(), what, {}});
      diags.Error(DiagCode::kBadFeature, e.abs_pos(), e.remaining(),
                  "SIMPLEPERF_FILE " + f.name + " at " + Hex(at) + ": " + what);
    };
    do {
      uint64_t p0 = e.abs_pos();
      file.path = e.CString();
      if (!e.ok()) { fail("file_path has no terminating NUL"); break; }
      f.children.push_back(Field{"file_path", p0, e.abs_pos() - p0, QuoteString(file.path), {}});
      if (!e.Has(16)) { fail("file_type, min_vaddr and symbol_count need 16 bytes"); break; }
      p0 = e.abs_pos();
      file.type = e.U32();
      const char* tn = SimpleperfDsoTypeName(file.type);
      f.children.push_back(Field{"file_type", p0, 4, Dec(file.type) + (*tn ? std::string(" (") + tn + ")" : ""), {}});
      p0 = e.abs_pos();
      file.min_vaddr = e.U64();
      f.children.push_back(Field{"min_vaddr", p0, 8, Hex(file.min_vaddr), {}});
      p0 = e.abs_pos();
      uint32_t count = e.U32();
      f.children.push_back(Field{"symbol_count", p0, 4, Dec(count), {}});
      Field syms{"symbol_table", e.abs_pos(), 0, "", {}};
      bool ok = true;
      for (uint32_t s = 0; s < count; ++s) {
        uint64_t s0 = e.abs_pos();
        if (!e.Has(12)) { ok = false; break; }
        SimpleperfSymbol sym;
        sym.vaddr = e.U64();
        sym.len = e.U32();
        sym.name = e.CString();
        if (!e.ok()) { ok = false; break; }
        Field sf{"symbol[" + Dec(s) + "]", s0, e.abs_pos() - s0, QuoteString(sym.name) + " @ " + Hex(sym.vaddr) + ", len " + Dec(sym.len), {}};
        sf.children.push_back(Field{"start_vaddr", s0, 8, Hex(sym.vaddr), {}});
        sf.children.push_back(Field{"len", s0 + 8, 4, Dec(sym.len), {}});
        sf.children.push_back(Field{"symbol_name", s0 + 12, e.abs_pos() - s0 - 12, QuoteString(sym.name), {}});
        syms.children.push_back(std::move(sf));
        file.symbols.push_back(std::move(sym));
      }
      syms.size = e.abs_pos() - syms.offset;
      syms.value = Dec(file.symbols.size()) + " symbols";
      f.children.push_back(std::move(syms));
      if (!ok) { fail("symbol " + Dec(file.symbols.size()) + " of " + Dec(count) + " does not fit"); break; }
      if (file.type == kDsoDexFile && e.remaining() >= 4) {
        p0 = e.abs_pos();
        uint32_t n = e.U32();
        f.children.push_back(Field{"dex_file_offset_count", p0, 4, Dec(n), {}});
        if (n > e.remaining() / 8) { fail("dex_file_offsets need " + Dec(8ull * n) + " bytes"); break; }
        Field offs{"dex_file_offsets", e.abs_pos(), 8ull * n, Dec(n) + " offsets", {}};
        for (uint32_t d = 0; d < n; ++d) {
          uint64_t d0 = e.abs_pos();
          uint64_t v = e.U64();
          file.dex_file_offsets.push_back(v);
          offs.children.push_back(Field{"dex_file_offset[" + Dec(d) + "]", d0, 8, Hex(v), {}});
        }
        f.children.push_back(std::move(offs));
      } else if (file.type == kDsoElfFile && e.remaining() >= 8) {
        p0 = e.abs_pos();
        file.has_file_offset_of_min_vaddr = true;
        file.file_offset_of_min_vaddr = e.U64();
        f.children.push_back(Field{"file_offset_of_min_vaddr", p0, 8, Hex(file.file_offset_of_min_vaddr), {}});
      } else if (file.type == kDsoKernelModule && e.remaining() >= 8) {
        p0 = e.abs_pos();
        file.has_memory_offset_of_min_vaddr = true;
        file.memory_offset_of_min_vaddr = e.U64();
        f.children.push_back(Field{"memory_offset_of_min_vaddr", p0, 8, Hex(file.memory_offset_of_min_vaddr), {}});
      }
      if (e.remaining()) {
        f.children.push_back(Field{"unparsed", e.abs_pos(), e.remaining(), Dec(e.remaining()) + " bytes", {}});
        e.Skip(e.remaining());
      }
    } while (false);
    if (truncated) {
      diags.Error(DiagCode::kBadFeature, at, 4 + e.size(),
                  "SIMPLEPERF_FILE " + f.name + " at " + Hex(at) + " declares " + Dec(size) +
                      " bytes but the section has only " + Dec(e.size()) + " left");
    }
    f.size = 4 + e.size();
    f.value = FileSummary(file);
    top.children.push_back(std::move(f));
    info.files.push_back(std::move(file));
  }
  top.value = Dec(k) + " files";
}

// ---- FILE2 (132) --------------------------------------------------------------
void DecodeFile2(ByteReader r, SimpleperfInfo& info, Field& top, Diagnostics& diags) {
  DropOrigin(info, kSpFeatFile2);
  size_t k = 0;
  while (r.remaining() > 0) {
    uint64_t at = r.abs_pos();
    if (r.remaining() < 4) {
      top.children.push_back(Field{"unparsed", at, r.remaining(), Dec(r.remaining()) + " bytes", {}});
      diags.Error(DiagCode::kBadFeature, at, r.remaining(), "SIMPLEPERF_FILE2 at " + Hex(top.offset) + ": " +
                  Dec(r.remaining()) + " bytes at " + Hex(at) + " are too few for a message size");
      break;
    }
    uint32_t size = r.U32();
    Field f{"file[" + Dec(k++) + "]", at, 0, "", {}};
    f.children.push_back(Field{"size", at, 4, Dec(size), {}});
    if (size > r.remaining()) {
      diags.Error(DiagCode::kBadFeature, at, 4 + r.remaining(),
                  "SIMPLEPERF_FILE2 " + f.name + " at " + Hex(at) + " declares a " + Dec(size) +
                      "-byte FileFeature but only " + Dec(r.remaining()) + " bytes remain");
    }
    ByteReader m = r.Sub(size);
    Field msg{"FileFeature", m.base(), m.size(), "", {}};
    PbToFields(m.data(), m.size(), m.base(), &kFileFeatureMsg, msg.children, diags, 0);
    SimpleperfFile file;
    file.origin = kSpFeatFile2;
    ExtractFileFeature(m.data(), m.size(), file);
    msg.value = FileSummary(file);
    f.value = msg.value;
    f.children.push_back(std::move(msg));
    f.size = 4 + m.size();
    top.children.push_back(std::move(f));
    info.files.push_back(std::move(file));
  }
  top.value = Dec(k) + " files";
}

// ---- META_INFO (129) ----------------------------------------------------------
void DecodeMetaInfo(ByteReader r, SimpleperfInfo& info, Field& top, Diagnostics& diags) {
  info.meta_info.clear();
  while (r.remaining() > 0) {
    uint64_t at = r.abs_pos();
    std::string key = r.CString();
    std::string value;
    bool ok = r.ok();
    if (ok) { value = r.CString(); ok = r.ok(); }
    if (!ok) {
      top.children.push_back(Field{"unparsed", at, r.abs_pos() - at, "a key/value pair without its terminating NUL", {}});
      diags.Error(DiagCode::kBadString, at, r.abs_pos() - at,
                  "SIMPLEPERF_META_INFO at " + Hex(top.offset) + ": the key/value pair at " + Hex(at) +
                      " runs to the end of the section without a NUL");
      break;
    }
    Field f{key.empty() ? std::string("(empty key)") : key, at, r.abs_pos() - at, QuoteString(value), {}};
    f.children.push_back(Field{"key", at, key.size() + 1, QuoteString(key), {}});
    f.children.push_back(Field{"value", at + key.size() + 1, value.size() + 1, QuoteString(value), {}});
    top.children.push_back(std::move(f));
    info.meta_info.emplace_back(std::move(key), std::move(value));
  }
  top.value = Dec(info.meta_info.size()) + " entries";
}

// ---- DEBUG_UNWIND (130) / DEBUG_UNWIND_FILE (131) -----------------------------------
void DecodeDebugUnwind(ByteReader r, SimpleperfInfo& info, Field& top, Diagnostics& diags) {
  info.debug_unwind_files.clear();
  PbToFields(r.data(), r.size(), r.base(), &kDebugUnwindMsg, top.children, diags, 0);
  if (WireCheck(r.data(), r.size()) == r.size()) {
    protozero::pbf_reader m(reinterpret_cast<const char*>(r.data()), r.size());
    while (m.next()) {
      if (m.tag() != 1 || m.wire_type() != protozero::pbf_wire_type::length_delimited) { m.skip(); continue; }
      protozero::data_view v = m.get_view();
      if (WireCheck(reinterpret_cast<const uint8_t*>(v.data()), v.size()) != v.size()) continue;
      protozero::pbf_reader f(v);
      SimpleperfInfo::UnwindFile uf;
      while (f.next()) {
        if (f.tag() == 1 && f.wire_type() == protozero::pbf_wire_type::length_delimited) uf.path = f.get_string();
        else if (f.tag() == 2 && f.wire_type() == protozero::pbf_wire_type::varint) uf.size = f.get_uint64();
        else f.skip();
      }
      info.debug_unwind_files.push_back(std::move(uf));
    }
  }
  top.value = Dec(info.debug_unwind_files.size()) + " files";
}

void DecodeDebugUnwindFile(ByteReader r, SimpleperfInfo& info, Field& top, Diagnostics& diags) {
  uint64_t pos = 0;
  size_t k = 0;
  for (const auto& uf : info.debug_unwind_files) {
    uint64_t left = r.size() - pos;
    uint64_t take = uf.size <= left ? uf.size : left;
    Field f{"file[" + Dec(k) + "]", r.base() + pos, take, QuoteString(uf.path) + ", " + Dec(uf.size) + " bytes", {}};
    if (take >= 4 && std::memcmp(r.data() + pos, "\x7f" "ELF", 4) == 0) f.value += " (ELF)";
    top.children.push_back(std::move(f));
    if (take < uf.size) {
      diags.Error(DiagCode::kBadFeature, r.base() + pos, take,
                  "SIMPLEPERF_DEBUG_UNWIND_FILE: file " + Dec(k) + " (" + uf.path + ") is listed with " +
                      Dec(uf.size) + " bytes but only " + Dec(left) + " remain in the section");
    }
    pos += take;
    ++k;
  }
  if (pos < r.size()) {
    top.children.push_back(Field{info.debug_unwind_files.empty() ? "data" : "unlisted", r.base() + pos, r.size() - pos,
                                 Dec(r.size() - pos) + " bytes" +
                                     (info.debug_unwind_files.empty() ? std::string(" (no DEBUG_UNWIND file list)") : ""),
                                 {}});
  }
  top.value = Dec(k) + " embedded files";
}

// ---- INIT_MAP (134): records like the data section's ---------------------------------
void DecodeInitMap(ByteReader r, Field& top, Diagnostics& diags) {
  size_t k = 0;
  while (r.remaining() > 0) {
    uint64_t at = r.abs_pos();
    if (r.remaining() < 8) {
      top.children.push_back(Field{"unparsed", at, r.remaining(), Dec(r.remaining()) + " bytes", {}});
      diags.Error(DiagCode::kBadFeature, at, r.remaining(), "SIMPLEPERF_INIT_MAP: " + Dec(r.remaining()) +
                  " bytes at " + Hex(at) + " are too few for a record header");
      break;
    }
    uint32_t type = r.PeekU32(r.pos());
    uint16_t misc = r.PeekU16(r.pos() + 4);
    uint16_t s16 = r.PeekU16(r.pos() + 6);
    uint64_t size = RecordSizeFromHeader(type, misc, s16);
    if (size < 8 || size > r.remaining()) {
      top.children.push_back(Field{"unparsed", at, r.remaining(), Dec(r.remaining()) + " bytes", {}});
      diags.Error(DiagCode::kBadFeature, at, r.remaining(), "SIMPLEPERF_INIT_MAP: record at " + Hex(at) +
                  " declares size " + Dec(size) + " but " + Dec(r.remaining()) + " bytes remain");
      break;
    }
    ByteReader rec = r.Sub(static_cast<size_t>(size));
    const char* n = RecordTypeName(type);
    Field f{"record[" + Dec(k++) + "]", at, size, (*n ? std::string(n) : "type " + Dec(type)), {}};
    FieldList fl;
    DecodeRecordFields(rec, nullptr, fl, &diags);
    f.children = std::move(fl.items());
    top.children.push_back(std::move(f));
  }
  top.value = Dec(k) + " records";
}

// simpleperf report's symbol names: demangled, the dynamic linker's
// "__dl_" prefix shown as "[linker]".
std::string DisplaySymbol(const std::string& raw) {
  if (raw.rfind("__dl_", 0) == 0) return "[linker]" + elf::Demangle(raw.substr(5));
  return elf::Demangle(raw);
}

const SimpleperfFile* FindFile(SimpleperfInfo& info, const std::string& path) {
  if (!info.indexed) {
    info.by_path.clear();
    for (size_t i = 0; i < info.files.size(); ++i) {
      auto& s = info.files[i].symbols;
      std::stable_sort(s.begin(), s.end(), [](const SimpleperfSymbol& a, const SimpleperfSymbol& b) { return a.vaddr < b.vaddr; });
      info.by_path.emplace(info.files[i].path, i);  // the first entry of a path wins
    }
    info.kernel_syms.clear();
    const std::string& ks = info.kallsyms;
    size_t p = 0;
    while (p < ks.size()) {
      size_t e = ks.find('\n', p);
      if (e == std::string::npos) e = ks.size();
      // "ffffff8008080000 T _text"
      size_t sp1 = ks.find(' ', p);
      if (sp1 != std::string::npos && sp1 < e) {
        size_t sp2 = ks.find(' ', sp1 + 1);
        if (sp2 != std::string::npos && sp2 < e) {
          uint64_t a = 0;
          bool ok = sp1 > p;
          for (size_t i = p; i < sp1 && ok; ++i) {
            char c = ks[i];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0) ok = false; else a = a * 16 + static_cast<uint64_t>(d);
          }
          size_t ne = ks.find_first_of(" \t", sp2 + 1);
          if (ne == std::string::npos || ne > e) ne = e;
          if (ok && a) info.kernel_syms.emplace_back(a, ks.substr(sp2 + 1, ne - sp2 - 1));
        }
      }
      p = e + 1;
    }
    std::stable_sort(info.kernel_syms.begin(), info.kernel_syms.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    info.indexed = true;
  }
  auto it = info.by_path.find(path);
  return it == info.by_path.end() ? nullptr : &info.files[it->second];
}

}  // namespace

const std::string* SimpleperfInfo::Meta(const std::string& key) const {
  for (const auto& kv : meta_info)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

bool DecodeSimpleperfFeature(uint32_t id, ByteReader r, SimpleperfInfo& info, Field& top, Diagnostics& diags) {
  r.Seek(0);
  switch (id) {
    case kSpFeatFile: DecodeFile(r, info, top, diags); break;
    case kSpFeatMetaInfo: DecodeMetaInfo(r, info, top, diags); break;
    case kSpFeatDebugUnwind: DecodeDebugUnwind(r, info, top, diags); break;
    case kSpFeatDebugUnwindFile: DecodeDebugUnwindFile(r, info, top, diags); break;
    case kSpFeatFile2: DecodeFile2(r, info, top, diags); break;
    case kSpFeatEtmBranchList: {
      Field msg{"ETMBranchList", r.base(), r.size(), "", {}};
      PbToFields(r.data(), r.size(), r.base(), &kBranchListMsg, msg.children, diags, 0);
      size_t bins = 0;
      for (const Field& c : msg.children) bins += c.name.rfind("binaries", 0) == 0;
      msg.value = Dec(bins) + " binaries";
      top.value = msg.value;
      top.children.push_back(std::move(msg));
      break;
    }
    case kSpFeatInitMap: DecodeInitMap(r, top, diags); break;
    default: return false;
  }
  info.present = true;
  return true;
}

bool SimpleperfAuxtraceIndex(ByteReader r, Field& top, std::vector<std::pair<uint64_t, uint64_t>>* out) {
  if (r.size() == 0 || r.size() % 16 != 0) return false;
  uint64_t nr = r.PeekU64(0);
  if (nr <= (r.size() - 8) / 16) return false;  // perf's layout fits
  // simpleperf's first u64 is the offset of an AUXTRACE record, past the
  // 104-byte file header; a smaller value is a (truncated) perf count.
  if (nr < 104) return false;
  r.Seek(0);
  size_t k = 0;
  while (r.remaining() >= 16) {
    uint64_t at = r.abs_pos();
    uint64_t off = r.U64(), size = r.U64();
    Field f{"entry[" + Dec(k++) + "]", at, 16, Hex(off) + ", " + Dec(size) + " bytes", {}};
    f.children.push_back(Field{"file_offset", at, 8, Hex(off), {}});
    f.children.push_back(Field{"size", at + 8, 8, Dec(size), {}});
    top.children.push_back(std::move(f));
    out->emplace_back(off, size);
  }
  top.value = Dec(k) + " index entries (simpleperf layout: no count)";
  return true;
}

void ProcessSimpleperfRecord(ByteReader rec, SimpleperfInfo& info) {
  if (rec.size() < 8) return;
  uint32_t type = rec.PeekU32(0);
  if (!IsSimpleperfType(type)) return;
  info.present = true;
  ByteReader r = rec.Slice(8, rec.size() - 8);
  switch (type) {
    case kSpKernelSymbol: {
      uint32_t n = r.U32();
      if (r.ok() && n <= r.remaining()) {
        info.kallsyms.append(reinterpret_cast<const char*>(r.cursor()), n);
        if (!info.kallsyms.empty() && info.kallsyms.back() != '\n') info.kallsyms += '\n';
        info.indexed = false;
      }
      break;
    }
    case kSpDso: {
      SimpleperfFile f;
      f.type = static_cast<uint32_t>(r.U64());
      uint64_t id = r.U64();
      f.min_vaddr = r.U64();
      f.path = r.CString();
      if (!r.ok()) break;
      f.origin = kSpDso;
      info.dso_ids[id] = info.files.size();
      info.files.push_back(std::move(f));
      info.indexed = false;
      break;
    }
    case kSpSymbol: {
      SimpleperfSymbol s;
      s.vaddr = r.U64();
      s.len = r.U64();
      uint64_t id = r.U64();
      s.name = r.CString();
      if (!r.ok()) break;
      auto it = info.dso_ids.find(id);
      if (it == info.dso_ids.end()) break;
      info.files[it->second].symbols.push_back(std::move(s));
      info.indexed = false;
      break;
    }
    case kSpCallchain: {
      // Parsed by the decoder with ParseSimpleperfCallchain; nothing here.
      break;
    }
    default: break;
  }
}

namespace {

bool EndsWith(const std::string& s, const char* suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// JITDebugReader::IsPathInJITSymFile, and the "TemporaryFile-XXXXXX" names of old versions.
bool IsJitSymFile(const std::string& path) {
  if (path.find("_jit_app_cache:") != std::string::npos || path.find("_jit_zygote_cache:") != std::string::npos)
    return true;
  size_t slash = path.rfind('/');
  return path.compare(slash == std::string::npos ? 0 : slash + 1, 13, "TemporaryFile") == 0;
}

}  // namespace

std::vector<uint8_t> SimpleperfReportFrames(SimpleperfInfo& info, const std::vector<SimpleperfFrame>& frames) {
  enum Exec : uint8_t { kNative, kInterpreted, kJit, kArt };
  const size_t n = frames.size();
  std::vector<uint8_t> exec(n, kNative);
  std::vector<std::string> names(n);
  std::vector<uint8_t> art(n, 0), trampoline(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const SimpleperfFrame& f = frames[i];
    if (!f.path) continue;
    uint64_t v = 0;
    bool known = false;
    bool named = SimpleperfSymbolize(info, *f.path, f.map_start, f.map_pgoff, f.addr, f.kernel, &names[i], &v, &known);
    const SimpleperfFile* file = FindFile(info, *f.path);
    bool dex = file ? file->type == kDsoDexFile
                    : EndsWith(*f.path, ".dex") || EndsWith(*f.path, ".vdex") || EndsWith(*f.path, ".jar") ||
                          EndsWith(*f.path, ".apk");
    if (dex) exec[i] = kInterpreted;
    else if (IsJitSymFile(*f.path)) exec[i] = kJit;
    if (exec[i] == kNative) {
      if (EndsWith(*f.path, "/libart.so") || EndsWith(*f.path, "/libartd.so")) art[i] = 1;
      else if (named && names[i] == "art_jni_trampoline") art[i] = trampoline[i] = 1;
    }
  }
  // MarkArtFrame: art frames before or after a Java frame.
  bool near_java = false;
  std::vector<size_t> trampolines;
  for (size_t i = 0; i < n; ++i) {
    if (exec[i] == kInterpreted || exec[i] == kJit) {
      near_java = true;
      for (size_t j = i; j-- > 0;) {
        if (exec[j] != kNative || !art[j]) break;
        exec[j] = kArt;
        if (trampoline[j]) trampolines.push_back(j);
      }
    } else if (near_java && exec[i] == kNative && art[i]) {
      exec[i] = kArt;
      if (trampoline[i]) trampolines.push_back(i);
    } else {
      near_java = false;
    }
  }
  // What an art_jni_trampoline calls is a JNI method: shown.
  for (size_t t : trampolines)
    if (t > 0 && exec[t - 1] == kArt) exec[t - 1] = kNative;
  std::vector<size_t> kept;
  for (size_t i = 0; i < n; ++i)
    if (exec[i] != kArt) kept.push_back(i);
  // ConvertJITFrame: a JIT frame whose method also exists in a dex file is
  // that dex method; when its caller is that same method, the JIT frame goes.
  std::vector<uint8_t> keep(n, 0);
  for (size_t k = 0; k < kept.size(); ++k) {
    size_t i = kept[k];
    keep[i] = 1;
    if (exec[i] != kJit || names[i].empty() || k + 1 >= kept.size()) continue;
    size_t c = kept[k + 1];
    if (exec[c] == kInterpreted && names[c] == names[i]) keep[i] = 0;
  }
  return keep;
}

bool SimpleperfSymbolize(SimpleperfInfo& info, const std::string& path, uint64_t map_start, uint64_t map_pgoff,
                         uint64_t addr, bool kernel, std::string* name, uint64_t* vaddr, bool* known_file) {
  const SimpleperfFile* f = FindFile(info, path);
  *known_file = f != nullptr;
  uint64_t v = addr - map_start + map_pgoff;
  if (kernel && (!f || f->type == kDsoKernel)) v = addr;
  if (f) {
    switch (f->type) {
      case kDsoKernel: v = addr; break;
      case kDsoKernelModule:
        v = addr - map_start + f->min_vaddr - (f->has_memory_offset_of_min_vaddr ? f->memory_offset_of_min_vaddr : 0);
        break;
      case kDsoElfFile:
        if (IsJitSymFile(path)) v = addr;  // JIT symfiles hold absolute addresses
        else if (f->has_file_offset_of_min_vaddr) v = addr - map_start + map_pgoff - f->file_offset_of_min_vaddr + f->min_vaddr;
        else v = addr - map_start + f->min_vaddr;
        break;
      default: v = addr - map_start + map_pgoff; break;
    }
  }
  *vaddr = v;
  const std::vector<SimpleperfSymbol>* syms = f ? &f->symbols : nullptr;
  if (syms && !syms->empty()) {
    auto it = std::upper_bound(syms->begin(), syms->end(), v,
                               [](uint64_t x, const SimpleperfSymbol& s) { return x < s.vaddr; });
    if (it != syms->begin()) {
      --it;
      if (v < it->vaddr + (it->len ? it->len : 1)) { *name = DisplaySymbol(it->name); return true; }
    }
  }
  if (kernel && !info.kernel_syms.empty()) {
    const auto& ks = info.kernel_syms;
    auto it = std::upper_bound(ks.begin(), ks.end(), addr, [](uint64_t x, const auto& s) { return x < s.first; });
    if (it != ks.begin()) { --it; *name = DisplaySymbol(it->second); return true; }
  }
  return false;
}

std::string SimpleperfEventName(const SimpleperfInfo& info, size_t index, uint32_t type, uint64_t config) {
  const std::string* eti = info.Meta("event_type_info");
  if (!eti) return "";
  std::istringstream in(*eti);
  std::string line;
  for (size_t k = 0; std::getline(in, line); ++k) {
    if (k != index) continue;
    size_t c1 = line.find(','), c2 = c1 == std::string::npos ? c1 : line.find(',', c1 + 1);
    if (c2 == std::string::npos) return "";
    if (std::strtoull(line.c_str() + c1 + 1, nullptr, 10) != type || std::strtoull(line.c_str() + c2 + 1, nullptr, 10) != config)
      return "";
    return line.substr(0, c1);
  }
  return "";
}

std::string SimpleperfDsoDisplayName(const std::string& path) {
  if (path.find("_jit_app_cache:") != std::string::npos) return "[JIT app cache]";
  if (path.find("_jit_zygote_cache:") != std::string::npos) return "[JIT zygote cache]";
  return path;
}

}  // namespace profscope::perf
