#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configMETADATA_BUF_SIZE 0
