/* Streaming backend with compact timestamps, one core, defaults otherwise:
 * timestamps as deltas from the core's last absolute timestamp. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configCOMPACT_TIMESTAMPS 1
#define TBAND_HOST_CORES 1
