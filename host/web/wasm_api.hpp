// The WebAssembly converter's entry points (web/README.md), called from
// JavaScript with ccall.
#pragma once

extern "C" {
/// Converts as `request_json` says (wasm_api.cpp); returns the summary as
/// JSON text, valid until the next call.
const char* tband_web_convert(const char* request_json);
/// One round of the warm-up (warm_up.cpp); returns its exit code (0: done).
int tband_web_warm_up();
}
