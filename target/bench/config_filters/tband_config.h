/* The benchmarked configuration (config/) with the run-time filters compiled
 * in (tband_configUSE_FILTERS): what the check costs a traced event, and what
 * a filtered hook costs (filter_mode.hpp, BENCH_FILTER_MODE). */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configUSE_FILTERS 1
