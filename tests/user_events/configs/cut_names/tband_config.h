/* schema_id with the user groups' names cut: strings of 2 bytes at most, shorter than "lab"
   (cut_names_test.cpp). The snapshot backend, one core. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_SNAPSHOT 1
#define tband_configBACKEND_SNAPSHOT_BUF_SIZE 1024
#define tband_configMAX_STR_LEN 2
#define TBAND_HOST_CORES 1
