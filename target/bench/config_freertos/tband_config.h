/* The benchmarked FreeRTOS configuration: the benchmark's base configuration
 * (config/tband_config.h) with the FreeRTOS module, task and queue tracing
 * on, and a metadata buffer large enough that the creation hooks' names all
 * fit (their figures are then those of a buffer with room). */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configFREERTOS_TRACE_ENABLE 1
#define tband_configMETADATA_BUF_SIZE 4096
