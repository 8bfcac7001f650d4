// The backend chosen in tband_config.h (tband_configBACKEND, which
// config_defaults.h derives from the tband_configUSE_BACKEND_* switches when
// it is not set), checked against the contract every backend fulfils
// (backend_contract.hpp). To add a backend, see target/README.md.
#pragma once

#if tband_configBACKEND == TBAND_BACKEND_STREAMING
#include "backend_streaming.hpp"
#elif tband_configBACKEND == TBAND_BACKEND_SNAPSHOT
#include "backend_snapshot.hpp"
#elif tband_configBACKEND == TBAND_BACKEND_POST_MORTEM
#include "backend_post_mortem.hpp"
#elif tband_configBACKEND == TBAND_BACKEND_EXTERNAL
#include "backend_external.hpp"
#else
#error "tband: tband_configBACKEND names no backend (config_checks.h says which to set)"
#endif

#include "backend_contract.hpp"
