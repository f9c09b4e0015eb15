// DWARF unwinding test workload: optimized C++ without frame pointers,
// frames in libstdc++ (std::sort's helpers, std::map's red-black tree,
// operator new), virtual calls, and a recursion deeper than a 4 KiB stack copy.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual double area(double k) const = 0;
};
struct Square : Shape {
  double s;
  explicit Square(double v) : s(v) {}
  double area(double k) const override { return s * s * k; }
};
struct Circle : Shape {
  double r;
  explicit Circle(double v) : r(v) {}
  double area(double k) const override { return 3.14159 * r * r * k; }
};

__attribute__((noinline)) double shapes(int n) {
  std::vector<std::unique_ptr<Shape>> v;
  for (int i = 0; i < n; ++i) {
    if (i % 3) v.push_back(std::make_unique<Square>(i * 0.5));
    else v.push_back(std::make_unique<Circle>(i * 0.25));
  }
  double t = 0;
  for (int rep = 0; rep < 20; ++rep)
    for (const auto& s : v) t += s->area(rep);
  return t;
}

__attribute__((noinline)) long sorting(int n, unsigned seed) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    v.push_back(std::to_string(seed % 1000003));
  }
  std::sort(v.begin(), v.end());
  return static_cast<long>(v.front().size() + v.back().size());
}

__attribute__((noinline)) long mapping(int n) {
  std::map<int, std::string> m;
  for (int i = 0; i < n; ++i) m[(i * 7919) % n] = std::to_string(i);
  long s = 0;
  for (const auto& [k, v] : m) s += k + static_cast<long>(v.size());
  return s;
}

// 60 frames of ~130 bytes: samples in the leaf need a ~8 KiB stack copy.
__attribute__((noinline)) long deep(int d, long acc) {
  volatile char pad[96];
  pad[d % 96] = static_cast<char>(acc);
  if (d == 0) {
    long s = 0;
    for (int i = 0; i < 3000000; ++i) s += i ^ acc;
    return s + pad[0];
  }
  return deep(d - 1, acc * 3 + d) + pad[d % 96];
}

int main(int argc, char** argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 12;
  double t = 0;
  long s = 0;
  for (int r = 0; r < rounds; ++r) {
    t += shapes(40000);
    s += sorting(60000, static_cast<unsigned>(r));
    s += mapping(60000);
    s += deep(60, r);
  }
  std::printf("%ld %.0f\n", s, t > 0 ? 1.0 : 0.0);
  return 0;
}
