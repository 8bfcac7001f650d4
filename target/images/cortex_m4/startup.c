/* Minimal Cortex-M startup for the size images: vector table, .data copy,
 * .bss clear, main. (The images are measured, not run.) */
#include <stdint.h>

extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_top;
int main(void);
void reset_handler(void);
void default_handler(void);

void reset_handler(void) {
  const uint32_t* src = &__data_load;
  for (uint32_t* dst = &__data_start; dst < &__data_end;) {
    *dst++ = *src++;
  }
  for (uint32_t* dst = &__bss_start; dst < &__bss_end;) {
    *dst++ = 0;
  }
  (void)main();
  for (;;) {
  }
}

void default_handler(void) {
  for (;;) {
  }
}

__attribute__((section(".vectors"), used)) void (*const vector_table[16])(void) = {
    (void (*)(void))(&__stack_top), reset_handler, default_handler, default_handler,
    default_handler, default_handler, default_handler, 0, 0, 0, 0, default_handler, default_handler, 0,
    default_handler, default_handler,
};
