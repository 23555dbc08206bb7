/* The GDB remote serial protocol of vt_gdb (vt/debug.h): packet framing
 * (gdb_packet.c), the requests on a stopped device (gdb_proto.c), the
 * register set and its target description (gdb_target.c), and the socket
 * and front-end glue (gdb_stub.c). Framing and requests work on buffers
 * only, so the fuzz target drives them without a socket. */
#ifndef VT_GDB_INTERNAL_H
#define VT_GDB_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dbg_internal.h"

/* the largest packet (data between '$' and '#') accepted and announced
 * (qSupported PacketSize) */
#define GDB_MAX_PACKET 16384

/* --- framing (gdb_packet.c) --- */
typedef enum gdb_rx_event {
  GDB_RX_MORE,         /* nothing complete yet */
  GDB_RX_PACKET,       /* a packet with a good checksum: rx->data[0..len) */
  GDB_RX_BAD_CHECKSUM, /* answer '-' (GDB resends) */
  GDB_RX_TOO_LONG,     /* a packet longer than GDB_MAX_PACKET: an error reply */
  GDB_RX_INTERRUPT,    /* a 0x03 byte outside packets */
  GDB_RX_ACK,          /* '+' */
  GDB_RX_NAK           /* '-': resend the last packet */
} gdb_rx_event;

typedef struct gdb_rx {
  int state; /* RX_IDLE, RX_DATA, RX_SUM1, RX_SUM2 (gdb_packet.c) */
  char data[GDB_MAX_PACKET + 1]; /* NUL-terminated after GDB_RX_PACKET */
  size_t len;
  bool too_long;
  uint8_t sum, want;
} gdb_rx;

void gdb_rx_init(gdb_rx *rx);
gdb_rx_event gdb_rx_byte(gdb_rx *rx, uint8_t c);

/* a growing output buffer; oom set when an append failed */
typedef struct gdb_buf {
  char *p;
  size_t len, cap;
  bool oom;
} gdb_buf;
void gdb_buf_put(gdb_buf *b, const void *s, size_t n);
void gdb_buf_puts(gdb_buf *b, const char *s);
void gdb_buf_printf(gdb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gdb_buf_hex(gdb_buf *b, const void *bytes, size_t n);
/* 32-bit little-endian register value as 8 hex digits */
void gdb_buf_reg(gdb_buf *b, uint32_t v);
void gdb_buf_free(gdb_buf *b);
/* "$data#cs" (with '$', '#', '}' and '*' escaped) appended to out */
void gdb_frame(gdb_buf *out, const char *data, size_t n);

/* hex number of 1..max_digits digits at *s (before end); advances *s */
bool gdb_hex_number(const char **s, const char *end, unsigned max_digits, uint64_t *v);
/* 2n hex digits into n bytes; false on a bad digit */
bool gdb_hex_bytes(const char *s, size_t n, uint8_t *out);

/* --- the register set (gdb_target.c) --- */
enum {
  GDB_REG_PC = 32,
  GDB_REG_CSR = 65,   /* + CSR number */
  GDB_REG_XEXT = 4200, /* + (N - 32): x32..x255 */
  GDB_REG_VLANE = 4500, /* + N: vN of the selected lane */
  GDB_REG_LANE = 4756,  /* the selected lane (read-only) */
  GDB_REG_MASK = 4757   /* the SIMT mask (read-only) */
};
/* the target description XML (caller frees); NULL when out of memory */
char *gdb_target_xml(size_t *len);
bool gdb_reg_get(vt_dbg *d, unsigned num, uint32_t *v);
bool gdb_reg_set(vt_dbg *d, unsigned num, uint32_t v);

/* --- requests (gdb_proto.c) --- */
typedef enum gdb_action {
  GDB_REPLIED, /* the reply is in the output */
  GDB_RESUME,  /* c or s: the device runs on (reply later: the stop) */
  GDB_DETACH,  /* D: replied OK; the device runs to the end without stops */
  GDB_KILL     /* k: end the program */
} gdb_action;

typedef struct gdb_session {
  vt_dbg *d;
  char *xml;
  size_t xml_len;
  int step_thread; /* Hc: 0 any, -1 all, N > 0 thread N */
} gdb_session;

int gdb_session_init(gdb_session *s, vt_dbg *d);
void gdb_session_free(gdb_session *s);
/* gdb_proto.c helpers shared with gdb_query.c */
void gdb_reply(gdb_buf *out, const char *data); /* one framed packet */
/* thread id (global warp number + 1) -> select that warp; false when it is
 * not resident */
bool gdb_select_thread(gdb_session *s, uint64_t tid);
unsigned gdb_current_tid(const gdb_session *s);
/* "ADDR,LEN" at *p; LEN bounded so that the hex reply fits a packet */
bool gdb_addr_len(const char **p, const char *end, uint32_t *addr, uint32_t *len);
bool gdb_starts(const char *p, const char *end, const char *lit);
/* q packets (gdb_query.c) */
void gdb_query(gdb_session *s, const char *p, const char *end, gdb_buf *out);

/* Handle one packet's data; framed reply packets go to out. */
gdb_action gdb_handle(gdb_session *s, const char *pkt, size_t n, gdb_buf *out);
/* The stop reply for the debugger's last stop (T, W packet data). */
void gdb_stop_reply(gdb_session *s, gdb_buf *data);
#endif
