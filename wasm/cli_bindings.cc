// embind entry point of the command line (core/api/cli.h) for wasm/cli.mjs:
//   runCli(args: string[], host) -> exit status
// where host gives the files and takes the output:
//   open(path) -> { read(offset, length) -> Uint8Array, size, close?() } | { error: string }
//   isDirectory(path) -> boolean, list(dir) -> string[]
//   writeFile(path, bytes: Uint8Array) -> "" | why it failed   (export -o)
//   vdso() -> { read, size } | null   (optional: the running kernel's vdso image)
//   stdout(bytes: Uint8Array), stderr(bytes: Uint8Array)  (chunks as they are made)
// The bytes are handed over as they are, so the output equals the native
// CLI's byte for byte (no UTF-8 round trip).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "core/api/cli.h"
#include "wasm/js_source.h"

using emscripten::val;

namespace {

// A host file: closed (host `close()`, when given) once the command line lets
// it go, as the native FILE is (a side folder's walk opens many files).
class HostFile : public profscope::wasm::JsSource {
 public:
  HostFile(val f) : JsSource(f["read"], f["size"].as<double>()), close_(f["close"]) {}
  ~HostFile() override {
    if (!close_.isUndefined() && !close_.isNull()) close_();
  }

 private:
  val close_;
};

class JsHost : public profscope::cli::Host {
 public:
  explicit JsHost(val host) : host_(std::move(host)) {}
  std::unique_ptr<profscope::ByteSource> Open(const std::string& path, std::string* error) override {
    val f = host_.call<val>("open", path);
    val e = f["error"];
    if (!e.isUndefined() && !e.isNull()) {
      *error = e.as<std::string>();
      return nullptr;
    }
    return std::make_unique<HostFile>(f);
  }
  bool IsDirectory(const std::string& path) override { return host_.call<bool>("isDirectory", path); }
  std::unique_ptr<profscope::ByteSource> RunningVdso() override {
    if (host_["vdso"].isUndefined()) return nullptr;
    val f = host_.call<val>("vdso");
    if (f.isNull() || f.isUndefined()) return nullptr;
    return std::make_unique<HostFile>(f);
  }
  std::vector<std::string> List(const std::string& dir) override {
    val names = host_.call<val>("list", dir);
    std::vector<std::string> out;
    const size_t n = names["length"].as<size_t>();
    for (size_t i = 0; i < n; ++i) out.push_back(names[i].as<std::string>());
    return out;
  }
  bool WriteFile(const std::string& path, std::string_view bytes, std::string* error) override {
    val data = val::global("Uint8Array")
                   .new_(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data())));
    *error = host_.call<std::string>("writeFile", path, data);
    return error->empty();
  }

 private:
  val host_;
};

class JsSink : public profscope::OutputSink {
 public:
  JsSink(val host, const char* method) : host_(std::move(host)), method_(method) {}

 protected:
  void Emit(std::string_view chunk) override {
    val bytes = val::global("Uint8Array")
                    .new_(emscripten::typed_memory_view(chunk.size(), reinterpret_cast<const uint8_t*>(chunk.data())));
    host_.call<void>(method_, bytes);
  }

 private:
  val host_;
  const char* method_;
};

int RunCli(val args, val host) {
  std::vector<std::string> a;
  const size_t n = args["length"].as<size_t>();
  for (size_t i = 0; i < n; ++i) a.push_back(args[i].as<std::string>());
  JsHost files(host);
  JsSink out(host, "stdout"), err(host, "stderr");
  return profscope::cli::Run(a, files, out, err);
}

}  // namespace

EMSCRIPTEN_BINDINGS(profscope_cli) { emscripten::function("runCli", &RunCli); }
