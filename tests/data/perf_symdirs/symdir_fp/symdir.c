/* A program without libc (one DSO: the program itself), frame pointers on:
 * two call paths spinning, for perf record -g. */
static volatile unsigned long sink;

__attribute__((noinline)) void leaf_a(unsigned long n) {
  for (unsigned long i = 0; i < n; i++) sink += i * 3;
}
__attribute__((noinline)) void mid_a(unsigned long n) {
  leaf_a(n);
  sink++;
}
__attribute__((noinline)) void leaf_b(unsigned long n) {
  for (unsigned long i = 0; i < n; i++) sink ^= i;
}
__attribute__((noinline)) void mid_b(unsigned long n) {
  leaf_b(n);
  sink++;
}
__attribute__((noinline)) void run(unsigned long rounds) {
  for (unsigned long k = 0; k < rounds; k++) {
    mid_a(200000 + VARIANT);
    mid_b(100000);
  }
}
void _start(void) {
  run(300);
  __asm__ volatile("mov $60, %eax\n xor %edi, %edi\n syscall");
}
