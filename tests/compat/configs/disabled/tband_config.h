/* The reference firmware with tracing off (the reference wants a backend
 * chosen even then). */
#define tband_configENABLE 0
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configFREERTOS_TRACE_ENABLE 1
