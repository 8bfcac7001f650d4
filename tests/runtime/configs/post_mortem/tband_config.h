/* Post-mortem backend, two cores, a 1 KiB ring each, a small metadata area. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_POST_MORTEM 1
#define tband_configBACKEND_POST_MORTEM_BUF_SIZE 1024
#define tband_configMETADATA_BUF_SIZE 128
#define TBAND_HOST_CORES 2
