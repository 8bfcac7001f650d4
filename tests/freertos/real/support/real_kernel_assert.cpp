// A failed configASSERT in the real kernel ends the test, naming the place.
#include <cstdio>
#include <cstdlib>

extern "C" void real_kernel_assert_failed(const char* file, int line) {
  std::fprintf(stderr, "FreeRTOS configASSERT failed at %s:%d\n", file, line);
  std::abort();
}
