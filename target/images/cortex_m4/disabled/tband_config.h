/* Image with the tracer compiled out: must have no tband symbols and exactly
 * the code of the same image without the calls. */
#define tband_configENABLE 0
