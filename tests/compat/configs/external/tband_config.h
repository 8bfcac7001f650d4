/* The reference firmware with the external backend, the reference's way: the
 * firmware defines tband_submit_to_backend(). (TBAND_HOST_SUBMIT_TO_BACKEND
 * tells the host port to leave its own external hook undefined.) */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_EXTERNAL 1
#define tband_configFREERTOS_TRACE_ENABLE 1
#define TBAND_HOST_SUBMIT_TO_BACKEND 1
