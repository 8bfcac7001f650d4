/* The benchmarked configuration (config/) with compact timestamps: deltas
 * from the core's last absolute timestamp instead of the 64-bit time. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configCOMPACT_TIMESTAMPS 1
