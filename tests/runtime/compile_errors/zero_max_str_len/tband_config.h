#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configMAX_STR_LEN 0
