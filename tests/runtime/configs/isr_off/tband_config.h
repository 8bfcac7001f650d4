/* Interrupts switched off, markers on. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configISR_TRACE_ENABLE 0
#define tband_configTRACE_DROP_CNT_EVERY 0
