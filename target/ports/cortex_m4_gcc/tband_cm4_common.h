/* What the Cortex-M4 ports share (cortex_m4_gcc, bare metal, and
 * cortex_m4_freertos): one core, the DWT cycle counter extended to 64 bits as
 * the clock (tband_port_cortex_m4.c, unless the configuration defines
 * tband_portTIMESTAMP()), and the backend hooks from tband_config.h's
 * TBAND_CM4_* settings. Each port adds its critical section. */
#ifndef TBAND_PORT_CM4_COMMON_H_
#define TBAND_PORT_CM4_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
void tband_cm4_init_cycle_counter(void);
uint64_t tband_cm4_timestamp(void);
#ifdef __cplusplus
}
#endif

#define tband_portNUMBER_OF_CORES 1

#ifndef tband_portTIMESTAMP
#ifndef TBAND_CM4_NS_PER_CYCLE
#error "tband Cortex-M4 port: define TBAND_CM4_NS_PER_CYCLE (nanoseconds per CPU cycle) in tband_config.h"
#endif
#define tband_portTIMESTAMP() tband_cm4_timestamp()
#define tband_portTIMESTAMP_RESOLUTION_NS TBAND_CM4_NS_PER_CYCLE
#endif

#ifdef TBAND_CM4_STREAM
#define tband_portBACKEND_STREAM_DATA(buf, len) TBAND_CM4_STREAM((buf), (len))
#endif
#ifdef TBAND_CM4_STREAM_START_RETRY_WAIT
#define tband_portBACKEND_STREAM_START_RETRY_WAIT() TBAND_CM4_STREAM_START_RETRY_WAIT()
#endif
#ifdef TBAND_CM4_EXTERNAL
#define tband_portBACKEND_EXTERNAL_EVENT(buf, len, is_metadata) TBAND_CM4_EXTERNAL((buf), (len), (is_metadata))
#endif
#ifdef TBAND_CM4_SNAPSHOT_FULL
#define tband_portBACKEND_SNAPSHOT_BUF_FULL_CALLBACK() TBAND_CM4_SNAPSHOT_FULL()
#endif

#endif /* TBAND_PORT_CM4_COMMON_H_ */
