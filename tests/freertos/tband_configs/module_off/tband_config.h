/* The tracer on, its FreeRTOS module off (tband_configFREERTOS_TRACE_ENABLE
 * defaults to 0): no kernel hook exists. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
