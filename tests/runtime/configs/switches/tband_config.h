/* Markers switched off, interrupts on, strings cut at 4 bytes, periodic
 * counter every 3 events. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configMARKER_TRACE_ENABLE 0
#define tband_configMAX_STR_LEN 4
#define tband_configTRACE_DROP_CNT_EVERY 3
