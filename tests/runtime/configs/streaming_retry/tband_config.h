/* Streaming backend, two cores; start hands the stream hook what it dropped
 * again up to twice (tband_configBACKEND_STREAM_START_RETRIES 2); a 64-byte
 * metadata buffer, so that a few names overflow it. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configBACKEND_STREAM_START_RETRIES 2
#define tband_configMETADATA_BUF_SIZE 64
#define TBAND_HOST_CORES 2
