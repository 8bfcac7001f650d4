/* The tracer compiled out, FreeRTOS tracing asked for: nothing exists. */
#define tband_configENABLE 0
#define tband_configFREERTOS_TRACE_ENABLE 1
