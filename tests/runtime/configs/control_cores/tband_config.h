/* Streaming backend with the control channel, link integrity and compact
 * timestamps, two cores (threads): the commands while the other core traces. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configUSE_CONTROL 1
#define tband_configLINK_INTEGRITY 1
#define tband_configCOMPACT_TIMESTAMPS 1
#define TBAND_HOST_CORES 2
