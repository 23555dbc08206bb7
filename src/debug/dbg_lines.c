/* A reader of DWARF line tables (.debug_line, DWARF 2 to 5, 32- and 64-bit
 * formats): the rows of every unit's line program, with file names, for
 * "which line is this pc" and "where does FILE:LINE start". vt as -g and
 * vt cc -g write version 4 (src/asm/dwarf.c). Every read is bounds
 * checked; a malformed unit ends the reading with a message. */
#include <stdlib.h>
#include <string.h>

#include "dbg_internal.h"

#define MAX_ROWS (4u << 20)
#define MAX_FILES (1u << 16)

typedef struct rd {
  const uint8_t *p, *end;
  bool bad;
} rd;

static uint64_t get_n(rd *r, unsigned n) {
  if (r->bad || (size_t)(r->end - r->p) < n) {
    r->bad = true;
    return 0;
  }
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++) v |= (uint64_t)r->p[i] << (8 * i);
  r->p += n;
  return v;
}

static uint64_t uleb(rd *r) {
  uint64_t v = 0;
  for (unsigned shift = 0; !r->bad; shift += 7) {
    unsigned b = (unsigned)get_n(r, 1);
    if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) break;
  }
  return v;
}

static int64_t sleb(rd *r) {
  uint64_t v = 0;
  unsigned shift = 0, b = 0;
  do {
    b = (unsigned)get_n(r, 1);
    if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
    shift += 7;
  } while ((b & 0x80) && !r->bad);
  if (shift < 64 && (b & 0x40)) v |= ~(uint64_t)0 << shift;
  return (int64_t)v;
}

static const char *cstr(rd *r) {
  const uint8_t *z = r->bad ? NULL : memchr(r->p, 0, (size_t)(r->end - r->p));
  if (!z) {
    r->bad = true;
    return "";
  }
  const char *s = (const char *)r->p;
  r->p = z + 1;
  return s;
}

static int add_file(dbg_lines *L, const char *dir, const char *name) {
  if (L->nfiles >= MAX_FILES) return -1;
  if (L->nfiles == L->fcap) {
    size_t cap = L->fcap ? 2 * L->fcap : 16;
    char **f = realloc(L->files, cap * sizeof *f);
    if (!f) return -1;
    L->files = f;
    L->fcap = cap;
  }
  bool join = dir && *dir && name[0] != '/';
  size_t n = (join ? strlen(dir) + 1 : 0) + strlen(name) + 1;
  char *s = malloc(n);
  if (!s) return -1;
  snprintf(s, n, "%s%s%s", join ? dir : "", join ? "/" : "", name);
  L->files[L->nfiles++] = s;
  return 0;
}

static int add_row(dbg_lines *L, uint32_t addr, uint32_t line, uint32_t file, bool end) {
  if (L->nrows >= MAX_ROWS) return -1;
  if (L->nrows == L->cap) {
    size_t cap = L->cap ? 2 * L->cap : 256;
    dbg_row *r = realloc(L->rows, cap * sizeof *r);
    if (!r) return -1;
    L->rows = r;
    L->cap = cap;
  }
  dbg_row *prev = L->nrows ? &L->rows[L->nrows - 1] : NULL;
  bool first = !prev || prev->end || prev->line != line || prev->file != file;
  L->rows[L->nrows] = (dbg_row){addr, line, file, end, first && !end, (uint32_t)L->nrows};
  L->nrows++;
  return 0;
}

/* the unit's header fields the line program needs */
typedef struct unit {
  unsigned version, min_len, line_range, opcode_base, addr_size;
  int line_base;
  bool dwarf64;
  const uint8_t *op_lengths;
  uint32_t file0; /* global index of the unit's first file entry */
  uint32_t nfiles;
  const char **dirs;
  size_t ndirs;
} unit;

/* v5 entry: read the forms of one directory or file entry */
static int v5_entry(rd *r, const uint64_t *fmt, unsigned nfmt, const vt_elf *elf, bool dwarf64,
                    const char **path, uint64_t *dir) {
  *path = "";
  *dir = 0;
  for (unsigned k = 0; k < nfmt && !r->bad; k++) {
    uint64_t type = fmt[2 * k], form = fmt[2 * k + 1], v = 0;
    const char *s = NULL;
    switch (form) {
    case 0x08: s = cstr(r); break;                                   /* string */
    case 0x1f: case 0x0e: {                                          /* line_strp, strp */
      uint64_t off = get_n(r, dwarf64 ? 8 : 4);
      const vt_elf_section *sec =
          vt_elf_section_by_name(elf, form == 0x1f ? ".debug_line_str" : ".debug_str");
      if (sec && sec->data && off < sec->size && memchr(sec->data + off, 0, sec->size - off))
        s = (const char *)sec->data + off;
      else
        s = "?";
      break;
    }
    case 0x0f: v = uleb(r); break;                                   /* udata */
    case 0x0b: v = get_n(r, 1); break;                               /* data1 */
    case 0x05: v = get_n(r, 2); break;                               /* data2 */
    case 0x06: v = get_n(r, 4); break;                               /* data4 */
    case 0x07: v = get_n(r, 8); break;                               /* data8 */
    case 0x1e: get_n(r, 8); get_n(r, 8); break;                      /* data16 (MD5) */
    case 0x09: {                                                     /* block */
      uint64_t n = uleb(r);
      if (n > (uint64_t)(r->end - r->p)) r->bad = true;
      else r->p += n;
      break;
    }
    default: return -1;
    }
    if (type == 1 && s) *path = s;    /* DW_LNCT_path */
    if (type == 2) *dir = v;          /* DW_LNCT_directory_index */
  }
  return r->bad ? -1 : 0;
}

static int v5_tables(rd *r, unit *u, dbg_lines *L, const vt_elf *elf, char *err, size_t errn) {
  for (int pass = 0; pass < 2; pass++) {
    unsigned nfmt = (unsigned)get_n(r, 1);
    uint64_t fmt[2 * 16];
    if (nfmt > 16) {
      snprintf(err, errn, "too many entry formats");
      return -1;
    }
    for (unsigned k = 0; k < 2 * nfmt; k++) fmt[k] = uleb(r);
    uint64_t count = uleb(r);
    if (count > MAX_FILES) {
      snprintf(err, errn, "too many entries");
      return -1;
    }
    if (pass == 0 && count) {
      u->dirs = calloc(count, sizeof *u->dirs);
      if (!u->dirs) return -1;
      u->ndirs = count;
    }
    for (uint64_t i = 0; i < count; i++) {
      const char *path;
      uint64_t dir;
      if (v5_entry(r, fmt, nfmt, elf, u->dwarf64, &path, &dir) != 0) {
        snprintf(err, errn, "bad %s entry", pass ? "file" : "directory");
        return -1;
      }
      if (pass == 0) u->dirs[i] = path;
      else if (add_file(L, dir < u->ndirs ? u->dirs[dir] : NULL, path) != 0) return -1;
      else u->nfiles++;
    }
  }
  return 0;
}

static int v4_tables(rd *r, unit *u, dbg_lines *L) {
  size_t cap = 0;
  for (;;) {
    const char *dir = cstr(r);
    if (r->bad || !*dir) break;
    if (u->ndirs == cap) {
      cap = cap ? 2 * cap : 8;
      const char **d = realloc(u->dirs, cap * sizeof *d);
      if (!d || cap > MAX_FILES) {
        free(d ? d : u->dirs);
        u->dirs = NULL;
        return -1;
      }
      u->dirs = d;
    }
    u->dirs[u->ndirs++] = dir;
  }
  for (;;) {
    const char *name = cstr(r);
    if (r->bad || !*name) break;
    uint64_t dir = uleb(r);
    uleb(r);
    uleb(r);
    if (add_file(L, dir >= 1 && dir <= u->ndirs ? u->dirs[dir - 1] : NULL, name) != 0) return -1;
    u->nfiles++;
  }
  return r->bad ? -1 : 0;
}

/* the line program: its rows into L */
static int program(rd *r, const unit *u, dbg_lines *L) {
  uint64_t addr = 0;
  int64_t line = 1;
  uint64_t file = u->version >= 5 ? 0 : 1;
  while (r->p < r->end && !r->bad) {
    unsigned op = (unsigned)get_n(r, 1);
    /* file numbers start at 1 before DWARF 5, at 0 from it */
    uint64_t index = u->version >= 5 ? file : file - 1;
    uint32_t gfile = index < u->nfiles ? u->file0 + (uint32_t)index : UINT32_MAX;
    bool emit = false, end = false;
    if (op >= u->opcode_base) {
      unsigned adj = op - u->opcode_base;
      addr += (uint64_t)(adj / u->line_range) * u->min_len;
      line += u->line_base + (int)(adj % u->line_range);
      emit = true;
    } else if (op == 0) {
      uint64_t len = uleb(r);
      if (len == 0 || len > (uint64_t)(r->end - r->p)) return -1;
      const uint8_t *next = r->p + len;
      unsigned sub = (unsigned)get_n(r, 1);
      if (sub == 1) emit = end = true;
      else if (sub == 2) addr = get_n(r, (unsigned)(len - 1 > 8 ? 8 : len - 1));
      r->p = next;
    } else if (op == 1) emit = true;
    else if (op == 2) addr += uleb(r) * u->min_len;
    else if (op == 3) line += sleb(r);
    else if (op == 4) file = uleb(r);
    else if (op == 8) addr += (uint64_t)((255 - u->opcode_base) / u->line_range) * u->min_len;
    else if (op == 9) addr += get_n(r, 2);
    else
      for (unsigned k = 0; k < u->op_lengths[op - 1]; k++) uleb(r);
    if (emit && !r->bad) {
      if (gfile != UINT32_MAX && line > 0 && line <= UINT32_MAX && addr <= UINT32_MAX &&
          add_row(L, (uint32_t)addr, (uint32_t)line, gfile, end) != 0)
        return -1;
      if (end) addr = 0, line = 1, file = u->version >= 5 ? 0 : 1;
    }
  }
  return r->bad ? -1 : 0;
}

/* one unit at r->p; r->p moves past it */
static int read_unit(rd *r, dbg_lines *L, const vt_elf *elf, char *err, size_t errn) {
  unit u;
  memset(&u, 0, sizeof u);
  uint64_t len = get_n(r, 4);
  if (len == 0xffffffffu) u.dwarf64 = true, len = get_n(r, 8);
  if (r->bad || len > (uint64_t)(r->end - r->p)) {
    snprintf(err, errn, "truncated unit");
    return -1;
  }
  rd ur = {r->p, r->p + len, false};
  r->p += len;
  u.version = (unsigned)get_n(&ur, 2);
  if (u.version < 2 || u.version > 5) {
    snprintf(err, errn, "DWARF version %u is not supported", u.version);
    return -1;
  }
  if (u.version >= 5) {
    u.addr_size = (unsigned)get_n(&ur, 1);
    get_n(&ur, 1);
  }
  uint64_t hlen = get_n(&ur, u.dwarf64 ? 8 : 4);
  if (ur.bad || hlen > (uint64_t)(ur.end - ur.p)) {
    snprintf(err, errn, "bad header length");
    return -1;
  }
  rd prog = {ur.p + hlen, ur.end, false};
  u.min_len = (unsigned)get_n(&ur, 1);
  if (u.version >= 4) get_n(&ur, 1);
  get_n(&ur, 1); /* default_is_stmt */
  u.line_base = (int8_t)get_n(&ur, 1);
  u.line_range = (unsigned)get_n(&ur, 1);
  u.opcode_base = (unsigned)get_n(&ur, 1);
  if (ur.bad || u.line_range == 0 || u.opcode_base == 0 ||
      (size_t)(ur.end - ur.p) < u.opcode_base - 1) {
    snprintf(err, errn, "bad header");
    return -1;
  }
  u.op_lengths = ur.p;
  ur.p += u.opcode_base - 1;
  u.file0 = (uint32_t)L->nfiles;
  int rc = u.version >= 5 ? v5_tables(&ur, &u, L, elf, err, errn) : v4_tables(&ur, &u, L);
  if (rc == 0 && program(&prog, &u, L) != 0) {
    snprintf(err, errn, "bad line program");
    rc = -1;
  } else if (rc != 0 && !*err) {
    snprintf(err, errn, "bad file table");
  }
  free(u.dirs);
  return rc;
}

static int by_address(const void *a, const void *b) {
  const dbg_row *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  if (x->end != y->end) return x->end ? -1 : 1; /* a sequence ends before the next starts */
  return x->order < y->order ? -1 : x->order > y->order;
}

int dbg_lines_load(dbg_lines *L, const vt_elf *elf, char *err, size_t errn) {
  const vt_elf_section *s = vt_elf_section_by_name(elf, ".debug_line");
  if (!s || !s->data || s->size == 0) return 0;
  rd r = {s->data, s->data + s->size, false};
  int rc = 0;
  err[0] = 0;
  while (r.p < r.end && rc == 0) {
    rc = read_unit(&r, L, elf, err, errn);
    if (rc != 0 && !*err) snprintf(err, errn, "out of memory");
  }
  if (rc != 0) {
    char why[256];
    snprintf(why, sizeof why, "%s", err);
    snprintf(err, errn, ".debug_line: %s", why);
  }
  if (L->nrows) qsort(L->rows, L->nrows, sizeof *L->rows, by_address);
  return rc;
}

void dbg_lines_free(dbg_lines *L) {
  for (size_t i = 0; i < L->nfiles; i++) free(L->files[i]);
  free(L->files);
  free(L->rows);
  memset(L, 0, sizeof *L);
}

bool dbg_lines_at(const dbg_lines *L, uint32_t pc, const char **file, uint32_t *line) {
  size_t lo = 0, hi = L->nrows; /* first row with addr > pc */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (L->rows[mid].addr <= pc) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return false;
  const dbg_row *r = &L->rows[lo - 1];
  if (r->end) return false;
  *file = L->files[r->file];
  *line = r->line;
  return true;
}

/* does the table's name match what the user typed (equal, or a suffix at
 * a '/')? */
static bool file_matches(const char *table, const char *user) {
  size_t a = strlen(table), b = strlen(user);
  if (b > a) return false;
  return !strcmp(table + a - b, user) && (a == b || table[a - b - 1] == '/');
}

size_t dbg_lines_find(const dbg_lines *L, const char *file, uint32_t line, uint32_t *addrs,
                      size_t max, uint32_t *found) {
  uint32_t best = UINT32_MAX;
  for (size_t i = 0; i < L->nrows; i++) {
    const dbg_row *r = &L->rows[i];
    if (!r->end && r->line >= line && r->line < best && file_matches(L->files[r->file], file))
      best = r->line;
  }
  *found = best;
  size_t n = 0;
  for (size_t i = 0; i < L->nrows && best != UINT32_MAX; i++) {
    const dbg_row *r = &L->rows[i];
    if (r->end || !r->first || r->line != best || !file_matches(L->files[r->file], file)) continue;
    if (n && addrs && n <= max && addrs[n - 1] == r->addr) continue;
    if (n < max && addrs) addrs[n] = r->addr;
    n++;
  }
  return n;
}
