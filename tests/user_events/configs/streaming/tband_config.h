/* User-event hooks through the streaming backend: two cores, defaults otherwise. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define TBAND_HOST_CORES 2
