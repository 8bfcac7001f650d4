#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
