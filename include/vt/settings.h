/* vt/settings.h - every setting of vt in one table (vt/settings.def): the
 * simulated device, the timing model, the runtime and a run's outputs.
 *
 *   vt_settings s;
 *   vt_settings_default(&s);                       // defaults, preset ventus-2025
 *   vt_settings_set(&s, "sms", "4", "--sms", err, sizeof err);
 *   vt_settings_load(&s, "my.cfg", err, sizeof err);      // KEY = VALUE lines
 *   vt_settings_from_env(&s, err, sizeof err);            // VT_CONFIG, VT_<KEY>
 *   vt_settings_print(stdout, &s, VT_OWNER_ALL);          // --dump-config
 *
 * A vt_settings is a plain value (no pointers): copy it freely. */
#ifndef VT_SETTINGS_H
#define VT_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VT_SETTING_STR_MAX 512 /* bytes of a string setting, NUL included */

typedef enum vt_setting_owner {
  VT_OWNER_DEVICE = 1,
  VT_OWNER_TIMING = 2,
  VT_OWNER_RUNTIME = 4,
  VT_OWNER_OUTPUT = 8,
  VT_OWNER_ALL = 15
} vt_setting_owner;

typedef enum vt_setting_type { VT_ST_U32, VT_ST_U64, VT_ST_BOOL, VT_ST_STR } vt_setting_type;

enum { VT_SF_POW2 = 1 };

typedef enum vt_setting_id {
#define VT_SETTING(owner, key, ...) VT_S_##key,
#define VT_TSETTING(key, ...) VT_S_##key,
#include "vt/settings.def"
#undef VT_SETTING
#undef VT_TSETTING
  VT_S_COUNT
} vt_setting_id;

#define VT_SETTING_FIELD_U32(key) uint32_t key;
#define VT_SETTING_FIELD_U64(key) uint64_t key;
#define VT_SETTING_FIELD_BOOL(key) bool key;
#define VT_SETTING_FIELD_STR(key) char key[VT_SETTING_STR_MAX];
typedef struct vt_settings {
#define VT_SETTING(owner, key, type, ...) VT_SETTING_FIELD_##type(key)
#define VT_TSETTING(key, ...) uint32_t key;
#include "vt/settings.def"
#undef VT_SETTING
#undef VT_TSETTING
  /* where each setting came from: 0 default/preset, else set explicitly */
  uint8_t source[VT_S_COUNT];
} vt_settings;

typedef struct vt_setting_info {
  const char *key, *unit, *help;
  vt_setting_owner owner;
  vt_setting_type type;
  unsigned flags;         /* VT_SF_* */
  uint64_t def, min, max; /* numbers; def of a timing parameter = ventus-2025 */
  uint64_t verilog_2024;  /* timing parameters: the other preset */
  bool preset_param;      /* a VT_TSETTING row */
  const char *def_str;    /* STR default */
  size_t offset;          /* in vt_settings */
} vt_setting_info;

/* Where a value came from (vt_settings.source). */
enum { VT_SRC_DEFAULT = 0, VT_SRC_FILE, VT_SRC_ENV, VT_SRC_OPTION, VT_SRC_API };

const vt_setting_info *vt_setting_info_of(vt_setting_id id);
/* The setting called 'key' ('-' may stand for '_'), or -1. */
int vt_setting_find(const char *key);

void vt_settings_default(vt_settings *s);
/* Set one setting from text with its range check. 'where' prefixes messages
 * ("file:line", "--sms", "VT_SMS"). Returns 0; -1 with a message in err
 * naming 'where' and the key; VT_SETTINGS_UNKNOWN if no setting has that
 * name (err names it too). 'source' is a VT_SRC_* value. */
#define VT_SETTINGS_UNKNOWN 1
int vt_settings_set(vt_settings *s, const char *key, const char *value, int source,
                    const char *where, char *err, size_t errn);
/* The value as text (what --dump-config prints). */
void vt_settings_value_text(const vt_settings *s, vt_setting_id id, char *buf, size_t n);
/* Was the setting given explicitly (file, environment, option, API)? */
bool vt_settings_explicit(const vt_settings *s, vt_setting_id id);

/* A file of 'KEY = VALUE' lines ('#' comments); settings are VT_SRC_FILE. */
int vt_settings_load(vt_settings *s, const char *path, char *err, size_t errn);
/* The driver's environment: the file named by VT_CONFIG, then every
 * VT_<KEY> variable that is set (VT_SMS, VT_TIMING, VT_L1D_SETS, ...; the
 * preset first). VT_TIMING may also name a preset: timing on with it. */
int vt_settings_from_env(vt_settings *s, char *err, size_t errn);

/* '# help' and 'key = value' lines for the settings of the given owners,
 * in table order; --config reads them back to the same settings. */
void vt_settings_print(FILE *f, const vt_settings *s, unsigned owners);
/* The settings reference (docs/settings.md). */
void vt_settings_markdown(FILE *f);

/* Read a file of 'key = value' lines, calling fn for each with "file:line"
 * as 'where'; stops at the first non-zero return. 0, or the failing return
 * (-1 with err for a malformed line or an unreadable file). */
typedef int (*vt_config_fn)(void *ctx, const char *key, const char *value, const char *where,
                            char *err, size_t errn);
int vt_config_file_parse(const char *path, vt_config_fn fn, void *ctx, char *err, size_t errn);

#ifdef __cplusplus
}
#endif
#endif
