/* The benchmarked configuration (config/) with link integrity: every frame
 * ends with a u16 sequence number and a CRC-16/CCITT-FALSE. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configLINK_INTEGRITY 1
