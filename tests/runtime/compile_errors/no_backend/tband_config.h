#define tband_configENABLE 1
