// The user's port (tband_port.h), checked: a missing required macro stops the
// build with a message that names it. Only the tracer's sources include this.
#pragma once

#include "tband.h"
#include "tband_port.h"

#ifndef tband_portTIMESTAMP
#error "tband: tband_portTIMESTAMP() is not defined: define it in tband_port.h to return the uint64_t shared timestamp timer"
#endif
#ifndef tband_portTIMESTAMP_RESOLUTION_NS
#error "tband: tband_portTIMESTAMP_RESOLUTION_NS is not defined: define it in tband_port.h as the nanoseconds per timestamp tick"
#endif
#ifndef tband_portENTER_CRITICAL_FROM_ANY
#error "tband: tband_portENTER_CRITICAL_FROM_ANY() is not defined: define it in tband_port.h (see target/README.md, Critical sections)"
#endif
#ifndef tband_portEXIT_CRITICAL_FROM_ANY
#error "tband: tband_portEXIT_CRITICAL_FROM_ANY() is not defined: define it in tband_port.h (see target/README.md, Critical sections)"
#endif

#ifndef tband_portNUMBER_OF_CORES
#define tband_portNUMBER_OF_CORES 1
#endif
#if tband_portNUMBER_OF_CORES < 1
#error "tband: tband_portNUMBER_OF_CORES must be at least 1"
#endif
#ifndef tband_portGET_CORE_ID
#if tband_portNUMBER_OF_CORES == 1
#define tband_portGET_CORE_ID() 0u
#else
#error "tband: tband_portGET_CORE_ID() is not defined: with tband_portNUMBER_OF_CORES > 1 define it in tband_port.h to return the current core (0 .. cores-1)"
#endif
#endif

#if tband_configUSE_BACKEND_STREAMING == 1 && !defined(tband_portBACKEND_STREAM_DATA)
#error "tband: tband_portBACKEND_STREAM_DATA(buf, len) is not defined: the streaming backend needs it in tband_port.h (returns true if it dropped the data)"
#endif
// Optional: runs before start hands the hook data it dropped again
// (tband_configBACKEND_STREAM_START_RETRIES), e.g. to let the link drain.
#if tband_configUSE_BACKEND_STREAMING == 1 && !defined(tband_portBACKEND_STREAM_START_RETRY_WAIT)
#define tband_portBACKEND_STREAM_START_RETRY_WAIT() ((void)0)
#endif
// The external backend without tband_portBACKEND_EXTERNAL_EVENT calls the
// firmware's tband_submit_to_backend() (declared in tband.h); a firmware that
// defines neither gets a link error naming that function.
#if tband_configUSE_BACKEND_SNAPSHOT == 1 && !defined(tband_portBACKEND_SNAPSHOT_BUF_FULL_CALLBACK)
#define tband_portBACKEND_SNAPSHOT_BUF_FULL_CALLBACK() ((void)0)
#endif
