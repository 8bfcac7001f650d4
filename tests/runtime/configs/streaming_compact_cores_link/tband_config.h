/* Streaming backend with compact timestamps and link integrity, two cores
 * (threads): each core's stream announces both, integrity first. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configCOMPACT_TIMESTAMPS 1
#define tband_configLINK_INTEGRITY 1
#define TBAND_HOST_CORES 2
