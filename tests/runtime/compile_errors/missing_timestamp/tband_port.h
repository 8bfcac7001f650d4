/* A port that forgets the timestamp. */
#define tband_portTIMESTAMP_RESOLUTION_NS 1
#define tband_portENTER_CRITICAL_FROM_ANY() ((void)0)
#define tband_portEXIT_CRITICAL_FROM_ANY() ((void)0)
#define tband_portBACKEND_STREAM_DATA(buf, len) false
