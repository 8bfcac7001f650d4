/* Four cores (threads) streaming; small metadata buffer so that it overflows. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configMETADATA_BUF_SIZE 96
#define TBAND_HOST_CORES 4
