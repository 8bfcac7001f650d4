/* The simulator's tracer: streaming, up to four threads acting as cores. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define TBAND_HOST_CORES 4
