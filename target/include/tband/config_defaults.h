/* Default values of every tband_config* option. Included by tband.h right
 * after the user's tband_config.h; do not include it yourself. */
#ifndef TBAND_CONFIG_DEFAULTS_H_
#define TBAND_CONFIG_DEFAULTS_H_

/* ---- General ---------------------------------------------------------------- */
#ifndef tband_configENABLE
#define tband_configENABLE 0
#endif
#ifndef tband_configMAX_STR_LEN
#define tband_configMAX_STR_LEN 20
#endif
#ifndef tband_configTRACE_DROP_CNT_EVERY
#define tband_configTRACE_DROP_CNT_EVERY 50
#endif
#ifndef tband_configMARKER_TRACE_ENABLE
#define tband_configMARKER_TRACE_ENABLE 1
#endif
#ifndef tband_configISR_TRACE_ENABLE
#define tband_configISR_TRACE_ENABLE 1
#endif

/* ---- Metadata buffer -------------------------------------------------------- */
#ifndef tband_configUSE_METADATA_BUF
#define tband_configUSE_METADATA_BUF 1
#endif
#ifndef tband_configMETADATA_BUF_SIZE
#define tband_configMETADATA_BUF_SIZE 256
#endif

/* ---- Backends (exactly one) ------------------------------------------------- */
#ifndef tband_configUSE_BACKEND_STREAMING
#define tband_configUSE_BACKEND_STREAMING 0
#endif
#ifndef tband_configBACKEND_STREAM_STAGING_BUF_SIZE
#define tband_configBACKEND_STREAM_STAGING_BUF_SIZE 0
#endif
#ifndef tband_configBACKEND_STREAM_START_RETRIES
#define tband_configBACKEND_STREAM_START_RETRIES 0
#endif
#ifndef tband_configUSE_BACKEND_SNAPSHOT
#define tband_configUSE_BACKEND_SNAPSHOT 0
#endif
#ifndef tband_configBACKEND_SNAPSHOT_BUF_SIZE
#define tband_configBACKEND_SNAPSHOT_BUF_SIZE 32768
#endif
#ifndef tband_configUSE_BACKEND_POST_MORTEM
#define tband_configUSE_BACKEND_POST_MORTEM 0
#endif
#ifndef tband_configBACKEND_POST_MORTEM_BUF_SIZE
#define tband_configBACKEND_POST_MORTEM_BUF_SIZE 4096
#endif
#ifndef tband_configUSE_BACKEND_EXTERNAL
#define tband_configUSE_BACKEND_EXTERNAL 0
#endif

/* ---- FreeRTOS (the module: tband/freertos.h, src/freertos_hooks.cpp) ------- */
#ifndef tband_configFREERTOS_TRACE_ENABLE
#define tband_configFREERTOS_TRACE_ENABLE 0
#endif
#ifndef tband_configFREERTOS_TASK_TRACE_ENABLE
#define tband_configFREERTOS_TASK_TRACE_ENABLE 1
#endif
#ifndef tband_configFREERTOS_QUEUE_TRACE_ENABLE
#define tband_configFREERTOS_QUEUE_TRACE_ENABLE 1
#endif
#ifndef tband_configFREERTOS_NOTIFY_TRACE_ENABLE
#define tband_configFREERTOS_NOTIFY_TRACE_ENABLE 1
#endif
#ifndef tband_configFREERTOS_EVENT_GROUP_TRACE_ENABLE
#define tband_configFREERTOS_EVENT_GROUP_TRACE_ENABLE 1
#endif
#ifndef tband_configFREERTOS_STREAM_BUFFER_TRACE_ENABLE
#define tband_configFREERTOS_STREAM_BUFFER_TRACE_ENABLE 1
#endif
#ifndef tband_configFREERTOS_TIMER_TRACE_ENABLE
#define tband_configFREERTOS_TIMER_TRACE_ENABLE 1
#endif
#ifndef tband_configFREERTOS_QUEUE_SET_TRACE_ENABLE
#define tband_configFREERTOS_QUEUE_SET_TRACE_ENABLE 1
#endif

#endif /* TBAND_CONFIG_DEFAULTS_H_ */
