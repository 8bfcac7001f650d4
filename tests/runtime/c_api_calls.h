/* Implemented in C11 (c_api_calls.c); returns how many checks failed. */
#ifndef TBAND_TEST_C_API_CALLS_H_
#define TBAND_TEST_C_API_CALLS_H_

#ifdef __cplusplus
extern "C" {
#endif
int tband_c_api_calls(void);
#ifdef __cplusplus
}
#endif

#endif
