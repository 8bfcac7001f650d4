/* Image (d): image (c), whose FreeRTOS module has task notifications, event
 * groups, stream buffers, timers and queue sets on by default, with the image calling their hooks
 * too (image_main.c); (c) does not, so the linker drops them there. */
#define TBAND_IMAGE_FREERTOS_OBJECTS 1
#include "../freertos/tband_config.h"
