/* Compile-time checks of the configuration. Every message names the option
 * and says what to put in tband_config.h. Included by tband.h when
 * tband_configENABLE is 1 (a disabled tracer has nothing to configure). */
#ifndef TBAND_CONFIG_CHECKS_H_
#define TBAND_CONFIG_CHECKS_H_

#if !(tband_configMARKER_TRACE_ENABLE == 0 || tband_configMARKER_TRACE_ENABLE == 1)
#error "tband: tband_configMARKER_TRACE_ENABLE must be 0 or 1"
#endif
#if !(tband_configISR_TRACE_ENABLE == 0 || tband_configISR_TRACE_ENABLE == 1)
#error "tband: tband_configISR_TRACE_ENABLE must be 0 or 1"
#endif
#if !(tband_configOPTIMIZE_FOR_SIZE == 0 || tband_configOPTIMIZE_FOR_SIZE == 1)
#error "tband: tband_configOPTIMIZE_FOR_SIZE must be 0 (built for speed) or 1 (built for size)"
#endif
#if !(tband_configFREERTOS_TRACE_ENABLE == 0 || tband_configFREERTOS_TRACE_ENABLE == 1)
#error "tband: tband_configFREERTOS_TRACE_ENABLE must be 0 or 1"
#endif
#if !(tband_configFREERTOS_TASK_TRACE_ENABLE == 0 || tband_configFREERTOS_TASK_TRACE_ENABLE == 1)
#error "tband: tband_configFREERTOS_TASK_TRACE_ENABLE must be 0 or 1"
#endif
#if !(tband_configFREERTOS_QUEUE_TRACE_ENABLE == 0 || tband_configFREERTOS_QUEUE_TRACE_ENABLE == 1)
#error "tband: tband_configFREERTOS_QUEUE_TRACE_ENABLE must be 0 or 1"
#endif
#if !(tband_configFREERTOS_NOTIFY_TRACE_ENABLE == 0 || tband_configFREERTOS_NOTIFY_TRACE_ENABLE == 1)
#error "tband: tband_configFREERTOS_NOTIFY_TRACE_ENABLE must be 0 or 1"
#endif
#if !(tband_configFREERTOS_EVENT_GROUP_TRACE_ENABLE == 0 || tband_configFREERTOS_EVENT_GROUP_TRACE_ENABLE == 1)
#error "tband: tband_configFREERTOS_EVENT_GROUP_TRACE_ENABLE must be 0 or 1"
#endif
#if !(tband_configFREERTOS_STREAM_BUFFER_TRACE_ENABLE == 0 || tband_configFREERTOS_STREAM_BUFFER_TRACE_ENABLE == 1)
#error "tband: tband_configFREERTOS_STREAM_BUFFER_TRACE_ENABLE must be 0 or 1"
#endif
#if !(tband_configFREERTOS_TIMER_TRACE_ENABLE == 0 || tband_configFREERTOS_TIMER_TRACE_ENABLE == 1)
#error "tband: tband_configFREERTOS_TIMER_TRACE_ENABLE must be 0 or 1"
#endif
#if !(tband_configFREERTOS_QUEUE_SET_TRACE_ENABLE == 0 || tband_configFREERTOS_QUEUE_SET_TRACE_ENABLE == 1)
#error "tband: tband_configFREERTOS_QUEUE_SET_TRACE_ENABLE must be 0 or 1"
#endif
#if !(tband_configUSE_FILTERS == 0 || tband_configUSE_FILTERS == 1)
#error "tband: tband_configUSE_FILTERS must be 0 or 1"
#endif
#if tband_configUSE_FILTERS == 1 && (tband_configFILTER_MAX_OBJECTS < 1 || tband_configFILTER_MAX_OBJECTS > 255)
#error "tband: tband_configFILTER_MAX_OBJECTS must be 1 to 255"
#endif
#if !(tband_configUSE_METADATA_BUF == 0 || tband_configUSE_METADATA_BUF == 1)
#error "tband: tband_configUSE_METADATA_BUF must be 0 or 1"
#endif
#if !(tband_configUSE_BACKEND_STREAMING == 0 || tband_configUSE_BACKEND_STREAMING == 1)
#error "tband: tband_configUSE_BACKEND_STREAMING must be 0 or 1"
#endif
#if !(tband_configUSE_BACKEND_SNAPSHOT == 0 || tband_configUSE_BACKEND_SNAPSHOT == 1)
#error "tband: tband_configUSE_BACKEND_SNAPSHOT must be 0 or 1"
#endif
#if !(tband_configUSE_BACKEND_POST_MORTEM == 0 || tband_configUSE_BACKEND_POST_MORTEM == 1)
#error "tband: tband_configUSE_BACKEND_POST_MORTEM must be 0 or 1"
#endif
#if !(tband_configUSE_BACKEND_EXTERNAL == 0 || tband_configUSE_BACKEND_EXTERNAL == 1)
#error "tband: tband_configUSE_BACKEND_EXTERNAL must be 0 or 1"
#endif

#if (tband_configUSE_BACKEND_STREAMING + tband_configUSE_BACKEND_SNAPSHOT + \
     tband_configUSE_BACKEND_POST_MORTEM + tband_configUSE_BACKEND_EXTERNAL) == 0
#error "tband: no backend selected: set exactly one of tband_configUSE_BACKEND_STREAMING, tband_configUSE_BACKEND_SNAPSHOT, tband_configUSE_BACKEND_POST_MORTEM, tband_configUSE_BACKEND_EXTERNAL to 1 in tband_config.h"
#endif
#if (tband_configUSE_BACKEND_STREAMING + tband_configUSE_BACKEND_SNAPSHOT + \
     tband_configUSE_BACKEND_POST_MORTEM + tband_configUSE_BACKEND_EXTERNAL) > 1
#error "tband: more than one backend selected: set exactly one of tband_configUSE_BACKEND_STREAMING, tband_configUSE_BACKEND_SNAPSHOT, tband_configUSE_BACKEND_POST_MORTEM, tband_configUSE_BACKEND_EXTERNAL to 1, the others to 0"
#endif

#if tband_configMAX_STR_LEN < 1
#error "tband: tband_configMAX_STR_LEN must be at least 1"
#endif
#if tband_configTRACE_DROP_CNT_EVERY < 0
#error "tband: tband_configTRACE_DROP_CNT_EVERY must be 0 (no periodic counter) or more"
#endif
#if tband_configUSE_METADATA_BUF == 1 && tband_configMETADATA_BUF_SIZE < 1
#error "tband: tband_configMETADATA_BUF_SIZE must be at least 1 (or set tband_configUSE_METADATA_BUF to 0)"
#endif
#if tband_configBACKEND_STREAM_STAGING_BUF_SIZE < 0
#error "tband: tband_configBACKEND_STREAM_STAGING_BUF_SIZE must be 0 (every frame streamed as it is encoded) or more"
#endif
#if tband_configBACKEND_STREAM_START_RETRIES < 0 || tband_configBACKEND_STREAM_START_RETRIES > 65535
#error "tband: tband_configBACKEND_STREAM_START_RETRIES must be 0 (start gives up at the first drop) to 65535"
#endif
#if tband_configLINK_INTEGRITY != 0 && tband_configLINK_INTEGRITY != 1
#error "tband: tband_configLINK_INTEGRITY must be 0 or 1"
#endif
#if tband_configLINK_INTEGRITY == 1 && tband_configUSE_BACKEND_STREAMING != 1
#error "tband: tband_configLINK_INTEGRITY guards a streaming link: it needs tband_configUSE_BACKEND_STREAMING (a snapshot or post-mortem buffer is read whole, with no link to lose frames on)"
#endif
#if tband_configLINK_INTEGRITY == 1 && tband_configBACKEND_STREAM_STAGING_BUF_SIZE > 0
#error "tband: tband_configLINK_INTEGRITY needs tband_configBACKEND_STREAM_STAGING_BUF_SIZE 0: a dropped staged batch would use up sequence numbers, which must count link losses only"
#endif
#if tband_configCOMPACT_TIMESTAMPS != 0 && tband_configCOMPACT_TIMESTAMPS != 1
#error "tband: tband_configCOMPACT_TIMESTAMPS must be 0 or 1"
#endif
#if tband_configCOMPACT_TIMESTAMPS == 1 && tband_configUSE_BACKEND_STREAMING != 1
#error "tband: tband_configCOMPACT_TIMESTAMPS needs tband_configUSE_BACKEND_STREAMING: a snapshot or post-mortem buffer would need its anchors kept with it (not done)"
#endif
#if tband_configCOMPACT_TIMESTAMPS == 1 && tband_configBACKEND_STREAM_STAGING_BUF_SIZE > 0
#error "tband: tband_configCOMPACT_TIMESTAMPS needs tband_configBACKEND_STREAM_STAGING_BUF_SIZE 0: a dropped staged batch takes anchors with it that the tracer has not taken back"
#endif
#if tband_configUSE_BACKEND_SNAPSHOT == 1 && tband_configBACKEND_SNAPSHOT_BUF_SIZE < 1
#error "tband: tband_configBACKEND_SNAPSHOT_BUF_SIZE must be at least 1"
#endif
#if tband_configUSE_BACKEND_POST_MORTEM == 1 && tband_configBACKEND_POST_MORTEM_BUF_SIZE < 1
#error "tband: tband_configBACKEND_POST_MORTEM_BUF_SIZE must be at least 1"
#endif

#if !(tband_configUSE_CONTROL == 0 || tband_configUSE_CONTROL == 1)
#error "tband: tband_configUSE_CONTROL must be 0 or 1"
#endif
#if tband_configUSE_CONTROL == 1 && !(tband_configCONTROL_RX_BUF_SIZE >= 3 && tband_configCONTROL_RX_BUF_SIZE <= 255)
#error "tband: tband_configCONTROL_RX_BUF_SIZE must be 3 to 255 (a command byte and its CRC-16 at least)"
#endif

#endif /* TBAND_CONFIG_CHECKS_H_ */
