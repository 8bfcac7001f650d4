/* Host build, snapshot: events fill a RAM buffer (large enough for the whole
 * plan); at the end the metadata buffer and the snapshot go to the trace file. */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_SNAPSHOT 1
#define tband_configBACKEND_SNAPSHOT_BUF_SIZE 16384
