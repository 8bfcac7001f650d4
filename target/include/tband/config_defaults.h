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
/* Built for size (1: the hooks share one body and the compact encoder) or
 * for speed (0: each hook inlines its own encoder). The one place that follows
 * the compiler's -Os: define it in tband_config.h (or for every file of the
 * tracer from the build system) to choose regardless of flags. Every file of
 * the tracer must see the same value: a mismatch fails to link. */
#ifndef tband_configOPTIMIZE_FOR_SIZE
#if defined(__OPTIMIZE_SIZE__)
#define tband_configOPTIMIZE_FOR_SIZE 1
#else
#define tband_configOPTIMIZE_FOR_SIZE 0
#endif
#endif

/* ---- Run-time filters (target/README.md, "Run-time filters") -------------- */
/* 1: the hooks check a per-event-id enable set and a table of objects left
 * out (tband_filter_* in tband.h); 0: no filter code at all. */
#ifndef tband_configUSE_FILTERS
#define tband_configUSE_FILTERS 0
#endif
/* Entries of the table of objects left out (4 bytes each). */
#ifndef tband_configFILTER_MAX_OBJECTS
#define tband_configFILTER_MAX_OBJECTS 8
#endif
/* The filter at boot, as comma-separated lists (empty: everything traced):
 * event ids, TBAND_FILTER_GROUP_* (tband_user_events.h), and
 * TBAND_FILTER_OBJECT(TBAND_FILTER_KEY_*, object id). */
#ifndef tband_configFILTER_INITIAL_OFF_IDS
#define tband_configFILTER_INITIAL_OFF_IDS
#endif
#ifndef tband_configFILTER_INITIAL_OFF_GROUPS
#define tband_configFILTER_INITIAL_OFF_GROUPS
#endif
#ifndef tband_configFILTER_INITIAL_OFF_OBJECTS
#define tband_configFILTER_INITIAL_OFF_OBJECTS
#endif

/* ---- Metadata buffer -------------------------------------------------------- */
#ifndef tband_configUSE_METADATA_BUF
#define tband_configUSE_METADATA_BUF 1
#endif
#ifndef tband_configMETADATA_BUF_SIZE
#define tband_configMETADATA_BUF_SIZE 256
#endif

/* ---- Backends (exactly one) ------------------------------------------------- */
/* Either tband_configBACKEND, one of the names below, or (as the reference
 * tracer's configs do) one tband_configUSE_BACKEND_* switch set to 1: each
 * is derived from the other, and the tracer reads tband_configBACKEND. */
#define TBAND_BACKEND_STREAMING 1
#define TBAND_BACKEND_SNAPSHOT 2
#define TBAND_BACKEND_POST_MORTEM 3
#define TBAND_BACKEND_EXTERNAL 4
#ifdef tband_configBACKEND
#ifndef tband_configUSE_BACKEND_STREAMING
#define tband_configUSE_BACKEND_STREAMING (tband_configBACKEND == TBAND_BACKEND_STREAMING)
#endif
#ifndef tband_configUSE_BACKEND_SNAPSHOT
#define tband_configUSE_BACKEND_SNAPSHOT (tband_configBACKEND == TBAND_BACKEND_SNAPSHOT)
#endif
#ifndef tband_configUSE_BACKEND_POST_MORTEM
#define tband_configUSE_BACKEND_POST_MORTEM (tband_configBACKEND == TBAND_BACKEND_POST_MORTEM)
#endif
#ifndef tband_configUSE_BACKEND_EXTERNAL
#define tband_configUSE_BACKEND_EXTERNAL (tband_configBACKEND == TBAND_BACKEND_EXTERNAL)
#endif
#endif
#ifndef tband_configUSE_BACKEND_STREAMING
#define tband_configUSE_BACKEND_STREAMING 0
#endif
#ifndef tband_configBACKEND_STREAM_STAGING_BUF_SIZE
#define tband_configBACKEND_STREAM_STAGING_BUF_SIZE 0
#endif
#ifndef tband_configBACKEND_STREAM_START_RETRIES
#define tband_configBACKEND_STREAM_START_RETRIES 0
#endif
/* Link integrity (streaming only): every frame ends, inside its COBS
 * encoding, with a u16 per-core sequence number and a CRC-16/CCITT-FALSE, so
 * the host counts frames the link lost or corrupted (target/README.md). */
#ifndef tband_configLINK_INTEGRITY
#define tband_configLINK_INTEGRITY 0
#endif
/* Compact timestamps (streaming, one core, no staging): timestamps as deltas
 * from the core's last absolute timestamp, announced by compact_timestamps,
 * so the host needs no flag (target/README.md). 0: the reference's bytes. */
#ifndef tband_configCOMPACT_TIMESTAMPS
#define tband_configCOMPACT_TIMESTAMPS 0
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

#ifndef tband_configBACKEND
#if tband_configUSE_BACKEND_STREAMING == 1
#define tband_configBACKEND TBAND_BACKEND_STREAMING
#elif tband_configUSE_BACKEND_SNAPSHOT == 1
#define tband_configBACKEND TBAND_BACKEND_SNAPSHOT
#elif tband_configUSE_BACKEND_POST_MORTEM == 1
#define tband_configBACKEND TBAND_BACKEND_POST_MORTEM
#elif tband_configUSE_BACKEND_EXTERNAL == 1
#define tband_configBACKEND TBAND_BACKEND_EXTERNAL
#else
#define tband_configBACKEND 0 /* none: config_checks.h says so */
#endif
#endif

/* ---- Control channel (host to target: tband_rx_feed(), tband_rx_poll()) ---- */
#ifndef tband_configUSE_CONTROL
#define tband_configUSE_CONTROL 0
#endif
/* Longest command frame, decoded (command byte, arguments, CRC-16): a filter
 * group's name is the longest argument ("key:evtmarker_id" and the like). */
#ifndef tband_configCONTROL_RX_BUF_SIZE
#define tband_configCONTROL_RX_BUF_SIZE 32
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
