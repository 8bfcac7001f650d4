/* Benchmark port: one core, bare metal without traced interrupts (so the
 * critical section has nothing to do), the timestamp from a variable the
 * benchmark sets before each call, and the stream going to a sink in another
 * translation unit that only reports "not dropped". */
#ifndef TBAND_PORT_BENCH_H_
#define TBAND_PORT_BENCH_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
extern uint64_t tband_bench_now;
bool tband_bench_sink(const uint8_t* buf, size_t len);
#ifdef __cplusplus
}
#endif

#define tband_portTIMESTAMP() tband_bench_now
#define tband_portTIMESTAMP_RESOLUTION_NS 1
#define tband_portENTER_CRITICAL_FROM_ANY() ((void)0)
#define tband_portEXIT_CRITICAL_FROM_ANY() ((void)0)
#define tband_portBACKEND_STREAM_DATA(buf, len) tband_bench_sink((buf), (len))

#endif /* TBAND_PORT_BENCH_H_ */
