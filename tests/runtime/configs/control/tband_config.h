/* Streaming backend with the control channel, one core, a 32-byte receive
 * buffer (the default); defaults otherwise. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configUSE_CONTROL 1
/* The filter commands need the run-time filters. */
#define tband_configUSE_FILTERS 1
