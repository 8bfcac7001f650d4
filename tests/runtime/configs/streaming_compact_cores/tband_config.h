/* Streaming backend with compact timestamps, two cores (threads), defaults
 * otherwise: each core's stream announces them and carries its own anchors. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configCOMPACT_TIMESTAMPS 1
#define TBAND_HOST_CORES 2
