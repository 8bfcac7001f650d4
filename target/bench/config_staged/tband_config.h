/* The benchmark's streaming configuration (config/) with a 1 KiB staging
 * buffer: frames are encoded into it and handed to the stream hook when it
 * is full (or flushed), not one by one. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configBACKEND_STREAM_STAGING_BUF_SIZE 1024
