/* The reference firmware streaming, with the FreeRTOS module (the reference's
 * settings names only). */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configFREERTOS_TRACE_ENABLE 1
#define tband_configMETADATA_BUF_SIZE 1024
