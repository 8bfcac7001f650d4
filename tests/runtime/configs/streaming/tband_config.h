/* Streaming backend, two cores (threads), defaults otherwise: metadata buffer
 * of 256 bytes, strings cut at 20 bytes, a dropped-event counter every 50 events. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define TBAND_HOST_CORES 2
