/* Host build, streaming: every event goes to the trace file as it happens. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
