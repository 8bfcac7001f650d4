/* Layout of the post-mortem block: the contract between the firmware that
 * writes it and the host reader (host/postmortem/) that recovers events from a
 * raw memory dump. C and C++; constants only.
 *
 * Every header word is a uint32_t in the target's byte order, 4-byte aligned;
 * the magic tells the reader which byte order that was. Offsets are relative to
 * the start of the block, so the block can live at any address.
 *
 *   block header (TBAND_PM_HEADER_SIZE bytes)
 *   core descriptor 0 .. core_count-1 (TBAND_PM_CORE_DESC_SIZE bytes each)
 *   per core: metadata area (metadata_size bytes), event ring (ring_size bytes)
 *
 * A ring holds whole COBS frames, each ending in 0x00. Its valid bytes run
 * from `tail` to `head`, circularly:
 *   - not WRAPPED: [0, head)          (tail is 0)
 *   - WRAPPED:     [tail, ring_size) + [0, head); tail == head means the ring is full.
 * If TAIL_AT_FRAME is clear, the bytes from tail up to and including the first
 * 0x00 are the rest of a frame whose start was overwritten: skip them.
 *
 * The writer moves tail past the bytes it is about to overwrite *before* it
 * copies a frame, and moves head only after the frame's last byte is written.
 * A dump taken at any instant, even in the middle of a write, therefore holds
 * only whole frames between tail and head. */
#ifndef TBAND_POST_MORTEM_LAYOUT_H_
#define TBAND_POST_MORTEM_LAYOUT_H_

/* "TBPM" in memory on a little-endian target; "MPBT" on a big-endian one. */
#define TBAND_PM_MAGIC 0x4D504254u
#define TBAND_PM_VERSION 1u

/* Block header: word offsets in bytes. */
#define TBAND_PM_HEADER_SIZE 32u
#define TBAND_PM_OFF_MAGIC 0u
#define TBAND_PM_OFF_VERSION 4u
#define TBAND_PM_OFF_HEADER_SIZE 8u   /* header plus all core descriptors, in bytes */
#define TBAND_PM_OFF_CORE_COUNT 12u
#define TBAND_PM_OFF_RING_SIZE 16u    /* bytes per core ring */
#define TBAND_PM_OFF_METADATA_SIZE 20u /* bytes per core metadata area, 0 if none */
#define TBAND_PM_OFF_BLOCK_SIZE 24u   /* bytes of the whole block */
/* 28: reserved, 0 */

/* Core descriptor i starts at TBAND_PM_HEADER_SIZE + i * TBAND_PM_CORE_DESC_SIZE. */
#define TBAND_PM_CORE_DESC_SIZE 32u
#define TBAND_PM_CORE_OFF_RING 0u           /* block offset of the ring */
#define TBAND_PM_CORE_OFF_HEAD 4u           /* next byte to write */
#define TBAND_PM_CORE_OFF_TAIL 8u           /* oldest kept byte, plus the flags below */
#define TBAND_PM_CORE_OFF_METADATA 12u      /* block offset of the metadata area */
#define TBAND_PM_CORE_OFF_METADATA_LEN 16u  /* bytes of metadata frames in it */
#define TBAND_PM_CORE_OFF_META_LOST_EVTS 20u  /* metadata events that did not fit, total */
#define TBAND_PM_CORE_OFF_META_LOST_BYTES 24u /* their framed bytes, total */
/* 28: reserved, 0 */

/* Flags in the tail word; the position is the rest. */
#define TBAND_PM_TAIL_WRAPPED 0x80000000u
#define TBAND_PM_TAIL_AT_FRAME 0x40000000u
#define TBAND_PM_TAIL_POS_MASK 0x3FFFFFFFu

#endif /* TBAND_POST_MORTEM_LAYOUT_H_ */
