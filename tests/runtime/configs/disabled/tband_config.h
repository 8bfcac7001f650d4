/* The tracer compiled out (tband_configENABLE defaults to 0). */
