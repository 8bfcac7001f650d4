/* Run-time filters on: streaming backend, two cores (threads), event marker 7
 * left out at boot, a table of 3 objects (filters_test.cpp). */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configUSE_FILTERS 1
#define tband_configFILTER_MAX_OBJECTS 3
#define tband_configFILTER_INITIAL_OFF_OBJECTS TBAND_FILTER_OBJECT(TBAND_FILTER_KEY_EVTMARKER_ID, 7)
#define TBAND_HOST_CORES 2
