/* Snapshot backend, two cores, a small buffer so that tests fill it quickly. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_SNAPSHOT 1
#define tband_configBACKEND_SNAPSHOT_BUF_SIZE 512
#define TBAND_HOST_CORES 2
