/* Spends its time in system calls (getppid, write to /dev/null), for kernel samples. */
#include <fcntl.h>
#include <unistd.h>
int main(void) {
  int fd = open("/dev/null", O_WRONLY);
  char buf[4096] = {0};
  for (long i = 0; i < 300000; i++) {
    getppid();
    write(fd, buf, sizeof buf);
  }
  return 0;
}
