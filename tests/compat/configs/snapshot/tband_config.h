/* The reference firmware taking a snapshot, with the FreeRTOS module. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_SNAPSHOT 1
#define tband_configBACKEND_SNAPSHOT_BUF_SIZE 4096
#define tband_configFREERTOS_TRACE_ENABLE 1
#define tband_configMETADATA_BUF_SIZE 1024
