/* Streaming backend through a 64-byte staging buffer (a few frames), one
 * core, defaults otherwise: metadata buffer of 256 bytes, strings cut at 20
 * bytes, a dropped-event counter every 50 events. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configBACKEND_STREAM_STAGING_BUF_SIZE 64
