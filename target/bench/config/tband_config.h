/* The benchmarked configuration: the defaults (markers and interrupts on,
 * 256-byte metadata buffer, strings cut at 20 bytes, a dropped-event counter
 * every 50 events) with the streaming backend. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
