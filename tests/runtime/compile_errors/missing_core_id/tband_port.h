/* Two cores, but no way to tell which one runs. */
#define tband_portNUMBER_OF_CORES 2
#define tband_portTIMESTAMP() 0u
#define tband_portTIMESTAMP_RESOLUTION_NS 1
#define tband_portENTER_CRITICAL_FROM_ANY() ((void)0)
#define tband_portEXIT_CRITICAL_FROM_ANY() ((void)0)
#define tband_portBACKEND_STREAM_DATA(buf, len) false
