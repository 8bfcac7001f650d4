/* User-event hooks through the post-mortem backend: two cores, 2 KiB rings. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_POST_MORTEM 1
#define tband_configBACKEND_POST_MORTEM_BUF_SIZE 2048
#define TBAND_HOST_CORES 2
