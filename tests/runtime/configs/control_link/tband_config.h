/* Streaming backend with the control channel and link integrity, one core:
 * every answer carries a trailer, also those sent while tracing is off. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configUSE_CONTROL 1
#define tband_configLINK_INTEGRITY 1
