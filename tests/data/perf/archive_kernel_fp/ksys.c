/* Spends time both in user space and in system calls, on two threads. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void user_spin(int n) {
  for (int i = 0; i < n; ++i) sink += (unsigned long)i * 3u;
}

__attribute__((noinline)) static void kernel_io(int fd_in, int fd_out, int n) {
  char buf[4096];
  for (int i = 0; i < n; ++i) {
    if (read(fd_in, buf, sizeof buf) < 0) return;
    if (write(fd_out, buf, sizeof buf) < 0) return;
  }
}

static void* io_thread(void* arg) {
  (void)arg;
  int in = open("/dev/zero", O_RDONLY), out = open("/dev/null", O_WRONLY);
  for (int r = 0; r < 40; ++r) { kernel_io(in, out, 2000); user_spin(200000); }
  close(in);
  close(out);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, io_thread, NULL);
  for (int r = 0; r < 40; ++r) user_spin(400000);
  pthread_join(t, NULL);
  printf("%lu\n", sink);
  return 0;
}
