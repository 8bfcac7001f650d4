/* Image (a): markers and interrupts, 256-byte metadata buffer, snapshot backend with 4 KiB. */
#define tband_configENABLE 1
#define tband_configMARKER_TRACE_ENABLE 1
#define tband_configISR_TRACE_ENABLE 1
#define tband_configMETADATA_BUF_SIZE 256
#define tband_configUSE_BACKEND_SNAPSHOT 1
#define tband_configBACKEND_SNAPSHOT_BUF_SIZE 4096
#define TBAND_CM4_NS_PER_CYCLE 10
#define TBAND_CM4_SNAPSHOT_FULL() image_snapshot_full()
#ifdef __cplusplus
extern "C"
#endif
void image_snapshot_full(void);
