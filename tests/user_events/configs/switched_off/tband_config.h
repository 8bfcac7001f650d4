/* The streaming configuration with the lab group's hooks switched off: the
 * tracer's objects must equal those of a schema without the group. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define TBAND_HOST_CORES 2
#define tband_configLAB_TRACE_ENABLE 0
