/* The benchmark's configuration with the snapshot backend: the defaults
 * (markers and interrupts on, 256-byte metadata buffer, strings cut at 20
 * bytes, a dropped-event counter every 50 events) and a 16 MiB snapshot
 * buffer, large enough that one run of every loop never fills it (a full
 * buffer would stop tracing and make the later calls cheap). */
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_SNAPSHOT 1
#ifndef BENCH_SNAPSHOT_BUF_SIZE /* the Cortex-M4 count's shorter run sets 1 MiB */
#define BENCH_SNAPSHOT_BUF_SIZE (16u * 1024u * 1024u)
#endif
#define tband_configBACKEND_SNAPSHOT_BUF_SIZE BENCH_SNAPSHOT_BUF_SIZE
