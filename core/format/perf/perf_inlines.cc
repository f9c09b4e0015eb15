#include "core/format/perf/perf_inlines.h"

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>

#include "core/format/perf/perf_symbols.h"
#include "core/symbols/inline_resolver.h"

namespace profscope::perf {

InlineCounts AddInlineFrames(const std::vector<uint8_t>& unwound, const std::vector<int32_t>& dso,
                             symbols::SymbolStore& store, StackBuilder& sb, DecodeResult& out,
                             std::vector<uint8_t>* inlined) {
  InlineCounts c;
  Profile& p = out.profile;
  if (unwound.empty() || dso.size() != p.mappings.size()) return c;
  // What the debug information may take: a share of the decode's budget left.
  const uint64_t used = MemoryBudget::Bytes(p);
  const uint64_t avail = out.budget.limit() > used ? out.budget.limit() - used : 0;
  elf::DwarfLimits limits;
  limits.max_bytes = std::max<uint64_t>(avail / 4, 1u << 20);
  const uint64_t cap = std::min<uint64_t>(std::max<uint64_t>(avail / 2, 1u << 20), uint64_t{512} << 20);

  std::unordered_map<int32_t, std::unique_ptr<symbols::InlineResolver>> resolvers;  // by DSO
  // Per old frame row: kNone = not looked at yet, -1 = unchanged, else the
  // start of its replacement (root first) in `repl`, with its length in `repl_len`.
  const size_t nframes = p.frames.address.size();
  std::vector<int32_t> repl_at(nframes, kNone);
  std::vector<uint32_t> repl_len(nframes, 0);
  std::vector<int32_t> repl;

  auto decide = [&](int32_t fr) {
    const size_t f = static_cast<size_t>(fr);
    repl_at[f] = -1;
    if (f >= unwound.size() || !unwound[f]) return;
    const int32_t m = p.frames.mapping[f];
    if (m == kNone) return;
    const int32_t d = dso[static_cast<size_t>(m)];
    if (d == kNone || store.Kind(d) != symbols::DsoKind::kUser) return;
    const uint64_t addr = p.frames.address[f];
    const uint64_t map_ip = MapIp(store, d, p.mappings, static_cast<size_t>(m), addr);
    const symbols::Symbol* sym = store.Find(d, map_ip);
    if (!sym) return;  // append_inlines needs the frame's symbol
    auto it = resolvers.find(d);
    if (it == resolvers.end()) {
      std::unique_ptr<symbols::InlineResolver> r;
      if (const std::vector<uint8_t>* bytes = store.SymbolFileBytes(d)) {
        r = std::make_unique<symbols::InlineResolver>(*bytes, cap, limits);
        if (const auto* probs = r->problems()) {
          const std::string src = store.SourceOf(d);
          for (const auto& pr : *probs)
            out.diags.Add(DiagCode::kDebugInfoDamaged, Severity::kWarning, 0, 0,
                          src + ": " + pr.message + " (.debug_info offset " + std::to_string(pr.offset) +
                              "); inlined frames perf would show may be missing");
        }
      }
      it = resolvers.emplace(d, std::move(r)).first;
    }
    if (!it->second) return;
    ++c.frames;
    const std::vector<std::string>& rec = it->second->Records(it->second->VaddrOfOffset(map_ip));
    if (rec.empty()) return;
    const int32_t old_func = p.frames.func[f];
    if (rec.size() == 1 && p.strings.Get(p.funcs.name[static_cast<size_t>(old_func)]) == rec[0]) return;
    repl_at[f] = static_cast<int32_t>(repl.size());
    repl_len[f] = static_cast<uint32_t>(rec.size());
    for (size_t k = rec.size(); k-- > 0;) {
      const int32_t func = sb.Func(p.strings.Intern(rec[k]), m);
      const int32_t nf = sb.Frame(addr, func, m);
      repl.push_back(nf);
      if (inlined && rec[k] != sym->name) {
        if (inlined->size() <= static_cast<size_t>(nf)) inlined->resize(static_cast<size_t>(nf) + 1, 0);
        (*inlined)[static_cast<size_t>(nf)] = 1;
      }
    }
    ++c.expanded;
    c.inline_frames += rec.size() - 1;
  };

  // perf's order of addr2line questions: samples in order, frames leaf first.
  const size_t nstacks = p.stacks.frame.size();
  std::vector<uint8_t> seen(nstacks, 0);
  for (size_t i = 0; i < p.samples.size(); ++i) {
    for (int32_t k = p.samples.stack[i]; k != kNone && static_cast<size_t>(k) < nstacks;
         k = p.stacks.prefix[static_cast<size_t>(k)]) {
      if (seen[static_cast<size_t>(k)]) break;  // its prefix was walked already
      seen[static_cast<size_t>(k)] = 1;
      const int32_t fr = p.stacks.frame[static_cast<size_t>(k)];
      if (fr >= 0 && static_cast<size_t>(fr) < nframes && repl_at[static_cast<size_t>(fr)] == kNone) decide(fr);
    }
  }
  if (repl.empty()) return c;

  // New stack rows: parents come before children, so one pass in row order.
  std::vector<int32_t> remap(nstacks, kNone);
  for (size_t k = 0; k < nstacks; ++k) {
    const int32_t prefix = p.stacks.prefix[k];
    const int32_t fr = p.stacks.frame[k];
    const int32_t np = prefix == kNone ? kNone : remap[static_cast<size_t>(prefix)];
    const bool expands = fr >= 0 && static_cast<size_t>(fr) < nframes && repl_at[static_cast<size_t>(fr)] >= 0;
    if (!expands && np == prefix) {
      remap[k] = static_cast<int32_t>(k);
      continue;
    }
    if (!expands) {
      remap[k] = sb.Stack(np, fr);
      continue;
    }
    int32_t s = np;
    const size_t at = static_cast<size_t>(repl_at[static_cast<size_t>(fr)]);
    for (uint32_t j = 0; j < repl_len[static_cast<size_t>(fr)]; ++j) s = sb.Stack(s, repl[at + j]);
    remap[k] = s;
  }
  p.samples.stack.Transform([&](size_t, int32_t s) {
    if (s == kNone || static_cast<size_t>(s) >= nstacks || remap[static_cast<size_t>(s)] == s) return s;
    ++c.samples;
    return remap[static_cast<size_t>(s)];
  });
  return c;
}

}  // namespace profscope::perf
