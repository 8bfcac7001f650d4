/* User-event hooks through the external backend: one core, strings cut at 8 bytes. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_EXTERNAL 1
#define tband_configMAX_STR_LEN 8
