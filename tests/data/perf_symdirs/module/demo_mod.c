/* Stands in for a kernel module's code: a relocatable object (ET_REL, like
 * a .ko) with two functions in .text. */
int demo_mod_add(int a, int b) { return a + b; }
int demo_mod_loop(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += demo_mod_add(s, i);
  return s;
}
