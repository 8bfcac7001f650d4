#define tband_configENABLE 2
