/* The settings table (vt/settings.def) at run time: defaults, presets,
 * setting a value from text with its range check, printing and the
 * Markdown reference. Files and the environment: settings_io.c. */
#include "vt/settings.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"
#include "vt/trace.h"

#define DEF_NUM(d) .def = (uint64_t)(d), .def_str = NULL
#define DEF_U32(d) DEF_NUM(d)
#define DEF_U64(d) DEF_NUM(d)
#define DEF_BOOL(d) DEF_NUM(d)
#define DEF_STR(d) .def = 0, .def_str = (d)

static const vt_setting_info table[VT_S_COUNT] = {
#define VT_SETTING(owner_, key_, type_, def_, min_, max_, flags_, unit_, help_)              \
  {.key = #key_, .unit = unit_, .help = help_, .owner = VT_OWNER_##owner_,                  \
   .type = VT_ST_##type_, .flags = (flags_), DEF_##type_(def_), .min = (uint64_t)(min_),    \
   .max = (uint64_t)(max_), .verilog_2024 = 0, .preset_param = false,                       \
   .offset = offsetof(vt_settings, key_)},
#define VT_TSETTING(key_, v2025, v2024, min_, max_, flags_, unit_, help_)                   \
  {.key = #key_, .unit = unit_, .help = help_, .owner = VT_OWNER_TIMING, .type = VT_ST_U32, \
   .flags = (flags_), .def = (v2025), .def_str = NULL, .min = (min_), .max = (max_),        \
   .verilog_2024 = (v2024), .preset_param = true, .offset = offsetof(vt_settings, key_)},
#include "vt/settings.def"
#undef VT_SETTING
#undef VT_TSETTING
};

const vt_setting_info *vt_setting_info_of(vt_setting_id id) {
  return (unsigned)id < VT_S_COUNT ? &table[id] : NULL;
}

int vt_setting_find(const char *key) {
  char k[64];
  size_t n = strlen(key);
  if (n >= sizeof k) return -1;
  for (size_t i = 0; i <= n; i++) k[i] = key[i] == '-' ? '_' : key[i];
  for (int i = 0; i < VT_S_COUNT; i++)
    if (!strcmp(k, table[i].key)) return i;
  return -1;
}

static void *field(vt_settings *s, int id) { return (char *)s + table[id].offset; }
static const void *cfield(const vt_settings *s, int id) {
  return (const char *)s + table[id].offset;
}

static void store_number(vt_settings *s, int id, uint64_t v) {
  switch (table[id].type) {
  case VT_ST_U32: *(uint32_t *)field(s, id) = (uint32_t)v; break;
  case VT_ST_U64: *(uint64_t *)field(s, id) = v; break;
  case VT_ST_BOOL: *(bool *)field(s, id) = v != 0; break;
  default: break;
  }
}

/* timing parameters not set explicitly take the preset's values */
static void apply_preset(vt_settings *s, bool verilog) {
  for (int i = 0; i < VT_S_COUNT; i++)
    if (table[i].preset_param && !s->source[i])
      store_number(s, i, verilog ? table[i].verilog_2024 : table[i].def);
}

void vt_settings_default(vt_settings *s) {
  memset(s, 0, sizeof *s);
  for (int i = 0; i < VT_S_COUNT; i++) {
    if (table[i].type == VT_ST_STR)
      snprintf((char *)field(s, i), VT_SETTING_STR_MAX, "%s", table[i].def_str);
    else
      store_number(s, i, table[i].def);
  }
}

bool vt_settings_explicit(const vt_settings *s, vt_setting_id id) {
  return (unsigned)id < VT_S_COUNT && s->source[id] != VT_SRC_DEFAULT;
}

static int parse_bool(const char *v, uint64_t *out) {
  static const char *const yes[] = {"1", "yes", "on", "true"}, *const no[] = {"0", "no", "off", "false"};
  for (int i = 0; i < 4; i++) {
    if (!strcmp(v, yes[i])) return (*out = 1), 0;
    if (!strcmp(v, no[i])) return (*out = 0), 0;
  }
  return -1;
}

static int set_string(vt_settings *s, int id, const char *value, const char *where, char *err,
                      size_t errn) {
  if (strlen(value) >= VT_SETTING_STR_MAX) {
    snprintf(err, errn, "%s: the value of %s is longer than %d characters", where, table[id].key,
             VT_SETTING_STR_MAX - 1);
    return -1;
  }
  if (id == VT_S_preset) {
    bool verilog = !strcmp(value, "verilog-2024");
    if (!verilog && strcmp(value, "ventus-2025")) {
      snprintf(err, errn, "%s: unknown preset '%s' (ventus-2025, verilog-2024)", where, value);
      return -1;
    }
    apply_preset(s, verilog);
  }
  vt_trace_format tf;
  if (id == VT_S_trace_format && vt_trace_format_parse(value, &tf) != 0) {
    snprintf(err, errn, "%s: unknown trace format '%s' (text, spike)", where, value);
    return -1;
  }
  snprintf((char *)field(s, id), VT_SETTING_STR_MAX, "%s", value);
  return 0;
}

int vt_settings_set(vt_settings *s, const char *key, const char *value, int source,
                    const char *where, char *err, size_t errn) {
  int id = vt_setting_find(key);
  if (id < 0) {
    snprintf(err, errn, "%s: unknown setting '%s'", where, key);
    return VT_SETTINGS_UNKNOWN;
  }
  const vt_setting_info *in = &table[id];
  if (!value) value = "";
  if (in->type == VT_ST_STR) {
    if (set_string(s, id, value, where, err, errn) != 0) return -1;
    s->source[id] = (uint8_t)source;
    return 0;
  }
  uint64_t v;
  if (in->type == VT_ST_BOOL ? parse_bool(value, &v) != 0 : vt_parse_u64(value, &v) != 0) {
    snprintf(err, errn, "%s: '%s' is not a valid value for %s (%s)", where, value, in->key,
             in->type == VT_ST_BOOL ? "0 or 1" : "a number");
    return -1;
  }
  if (v < in->min || v > in->max) {
    snprintf(err, errn, "%s: %s = %s is out of range (%llu to %llu %s)", where, in->key, value,
             (unsigned long long)in->min, (unsigned long long)in->max, in->unit);
    return -1;
  }
  if ((in->flags & VT_SF_POW2) && v && (v & (v - 1))) {
    snprintf(err, errn, "%s: %s = %s is not a power of two", where, in->key, value);
    return -1;
  }
  store_number(s, id, v);
  s->source[id] = (uint8_t)source;
  return 0;
}

void vt_settings_value_text(const vt_settings *s, vt_setting_id id, char *buf, size_t n) {
  const void *p = cfield(s, id);
  switch (table[id].type) {
  case VT_ST_U32: snprintf(buf, n, "%u", *(const uint32_t *)p); break;
  case VT_ST_U64: snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)p); break;
  case VT_ST_BOOL: snprintf(buf, n, "%d", *(const bool *)p ? 1 : 0); break;
  default: snprintf(buf, n, "%s", (const char *)p); break;
  }
}

static const char *owner_name(vt_setting_owner o) {
  switch (o) {
  case VT_OWNER_DEVICE: return "device";
  case VT_OWNER_TIMING: return "timing";
  case VT_OWNER_RUNTIME: return "runtime";
  default: return "output";
  }
}

void vt_settings_print(FILE *f, const vt_settings *s, unsigned owners) {
  unsigned last = 0;
  for (int i = 0; i < VT_S_COUNT; i++) {
    if (!(table[i].owner & owners)) continue;
    if (table[i].owner != last) fprintf(f, "# %s\n", owner_name(table[i].owner));
    last = table[i].owner;
    char v[VT_SETTING_STR_MAX];
    vt_settings_value_text(s, i, v, sizeof v);
    fprintf(f, "# %s\n%s = %s\n", table[i].help, table[i].key, v);
  }
}

static void range_text(const vt_setting_info *in, char *buf, size_t n) {
  if (in->type == VT_ST_STR) snprintf(buf, n, "text");
  else if (in->type == VT_ST_BOOL) snprintf(buf, n, "0, 1");
  else if (in->max == UINT64_MAX) snprintf(buf, n, "%llu ..", (unsigned long long)in->min);
  else snprintf(buf, n, "%llu .. %llu%s", (unsigned long long)in->min, (unsigned long long)in->max,
                (in->flags & VT_SF_POW2) ? ", power of two" : "");
}

void vt_settings_markdown(FILE *f) {
  fprintf(f, "| setting | owner | default | verilog-2024 | range | unit | meaning |\n"
             "| --- | --- | --- | --- | --- | --- | --- |\n");
  for (int i = 0; i < VT_S_COUNT; i++) {
    const vt_setting_info *in = &table[i];
    char def[64], r[64], v24[32] = "";
    if (in->type == VT_ST_STR) snprintf(def, sizeof def, "`%s`", in->def_str);
    else snprintf(def, sizeof def, "%llu", (unsigned long long)in->def);
    if (in->preset_param) snprintf(v24, sizeof v24, "%llu", (unsigned long long)in->verilog_2024);
    range_text(in, r, sizeof r);
    fprintf(f, "| `%s` | %s | %s | %s | %s | %s | %s |\n", in->key, owner_name(in->owner), def, v24,
            r, in->unit, in->help);
  }
}
