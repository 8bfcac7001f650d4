#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configBACKEND_STREAM_START_RETRIES -1
