/* Streaming backend through a 64-byte staging buffer, one core; start hands
 * the stream hook what it dropped again once
 * (tband_configBACKEND_STREAM_START_RETRIES 1); a 64-byte metadata buffer, so
 * that a few names overflow it. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configBACKEND_STREAM_STAGING_BUF_SIZE 64
#define tband_configBACKEND_STREAM_START_RETRIES 1
#define tband_configMETADATA_BUF_SIZE 64
