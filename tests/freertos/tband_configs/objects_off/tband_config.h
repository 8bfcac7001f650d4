/* FreeRTOS tracing with the kernel objects' switches off (task
 * notifications, event groups, stream buffers, timers, queue sets): tasks and
 * queues only. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configFREERTOS_TRACE_ENABLE 1
#define tband_configFREERTOS_NOTIFY_TRACE_ENABLE 0
#define tband_configFREERTOS_EVENT_GROUP_TRACE_ENABLE 0
#define tband_configFREERTOS_STREAM_BUFFER_TRACE_ENABLE 0
#define tband_configFREERTOS_TIMER_TRACE_ENABLE 0
#define tband_configFREERTOS_QUEUE_SET_TRACE_ENABLE 0
#define tband_configMETADATA_BUF_SIZE 1024
