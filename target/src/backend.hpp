// The backend chosen in tband_config.h. Each backend header provides, in
// namespace tband::rt::backend:
//   class CoreLock         held while a core handles one event: ctor(core)
//                          takes the core's backend lock if tracing is on;
//                          active() says whether it did
//   kReportsCheckEnabled   the slow path checks the on/off switch (one core)
//   class Writer           ctor(core); deliver(frame, len, is_metadata) hands an
//                          encoded frame over: kDelivered, kDropped or kFull;
//                          deliver_report(frame, len) the same for a report
//                          the tracer adds (no hook call);
//   kCanDrop               deliver() may come back kDropped (else the drop handling is left out)
//   kEncodesInPlace        in-place backends also have write<kMaxFramedLen[, kIsEvent]>(encode),
//                          which encodes straight into the backend's buffer
//   accepting()            tracing is on (a hint, checked without the lock)
//   stop_because_full()    called after a write came back kFull
//   metadata_changed(core, buffer)  after every metadata append
// Everything is resolved at compile time: no function pointers per event.
#pragma once

#if tband_configUSE_BACKEND_STREAMING == 1
#include "backend_streaming.hpp"
#elif tband_configUSE_BACKEND_SNAPSHOT == 1
#include "backend_snapshot.hpp"
#elif tband_configUSE_BACKEND_POST_MORTEM == 1
#include "backend_post_mortem.hpp"
#elif tband_configUSE_BACKEND_EXTERNAL == 1
#include "backend_external.hpp"
#endif
