/* The configuration the reference tracer's bare-metal integration test used
 * for tests/vectors/reference_baremetal.bin: streaming, no metadata buffer, no
 * periodic dropped-event counter. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configUSE_METADATA_BUF 0
#define tband_configTRACE_DROP_CNT_EVERY 0
