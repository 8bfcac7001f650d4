/* User-event hooks through the snapshot backend: two cores, 2 KiB buffers. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_SNAPSHOT 1
#define tband_configBACKEND_SNAPSHOT_BUF_SIZE 2048
#define TBAND_HOST_CORES 2
