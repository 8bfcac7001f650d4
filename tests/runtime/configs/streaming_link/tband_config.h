/* Streaming backend with link integrity, two cores (threads), defaults
 * otherwise: every frame ends with a per-core sequence number and a CRC. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configLINK_INTEGRITY 1
#define TBAND_HOST_CORES 2
