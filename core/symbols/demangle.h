// Symbol names as perf 6.1 prints them. Debian's perf 6.1 is built without
// libbfd and with libiberty (HAVE_CPLUS_DEMANGLE_SUPPORT): its
// util/symbol-elf.c demangle_sym() calls cplus_demangle(name, DMGL_NO_OPTS)
// (DMGL_PARAMS | DMGL_ANSI only with -v), so C++ names carry no parameter
// list, no return type and no cv-qualifiers of the function
// ("shapes::Grid<double>::sum", "fib_t<3>", "(anonymous namespace)::f").
// Kernel and kernel-module symbols are not demangled (symbol_conf.demangle_kernel
// is off by default). The same libiberty is linked natively (libiberty-dev)
// and in WASM (built from Debian's libiberty source package).
#pragma once

#include <string>

namespace profscope::symbols {

// `name` demangled the way perf's demangle_sym does for a user-space DSO;
// unchanged when it is not a mangled name.
std::string PerfDemangle(const std::string& name);

}  // namespace profscope::symbols
