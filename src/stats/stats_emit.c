/* Every output of the statistics, generated from the counters table: the
 * text table, JSON, CSV and the Markdown reference (docs/counters.md). The
 * timing model's counters appear when a launch ran on it. */
#include <string.h>

#include "stats_internal.h"

static bool shown(const vt_stats *s, int c) {
  return vt_counter_table[c].model == VT_CM_FUNC || s->timed;
}

static void fmt_value(char *buf, size_t n, const vt_stats *s, int launch, int sm, int c) {
  double v = vt_stats_value(s, launch, sm, (vt_counter)c);
  vt_counter_kind k = vt_counter_table[c].kind;
  if (k == VT_CK_RATIO) snprintf(buf, n, "%.4f", v);
  else if (k == VT_CK_SEC) snprintf(buf, n, "%.6f", v);
  else snprintf(buf, n, "%.0f", v);
}

void vt_stats_report(const vt_stats *s, FILE *f) {
  fprintf(f, "%-26s %-18s %14s", "counter", "unit", "total");
  for (unsigned k = 0; k < s->max_sms; k++) {
    char h[16];
    snprintf(h, sizeof h, "sm%u", k);
    fprintf(f, " %14s", h);
  }
  fputc('\n', f);
  for (int c = 0; c < VT_C_COUNT; c++) {
    if (!shown(s, c)) continue;
    char v[64];
    fmt_value(v, sizeof v, s, -1, -1, c);
    fprintf(f, "%-26s %-18s %14s", vt_counter_table[c].name, vt_counter_table[c].unit, v);
    for (unsigned k = 0; k < s->max_sms; k++) {
      fmt_value(v, sizeof v, s, -1, (int)k, c);
      fprintf(f, " %14s", v);
    }
    fputc('\n', f);
  }
}

static void json_string(FILE *f, const char *str) {
  fputc('"', f);
  for (; str && *str; str++) {
    unsigned char ch = (unsigned char)*str;
    if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
    else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
    else fputc(ch, f);
  }
  fputc('"', f);
}

static void json_counters(FILE *f, const vt_stats *s, int launch, int sm, const char *indent) {
  fputs("{", f);
  bool first = true;
  for (int c = 0; c < VT_C_COUNT; c++) {
    if (!shown(s, c)) continue;
    char v[64];
    fmt_value(v, sizeof v, s, launch, sm, c);
    fprintf(f, "%s\n%s  \"%s\": %s", first ? "" : ",", indent, vt_counter_table[c].name, v);
    first = false;
  }
  fprintf(f, "\n%s}", indent);
}

static void json_timing_config(FILE *f, const vt_settings *ts) {
  fputs(",\n  \"config\": {", f);
  bool first = true;
  for (int i = 0; i < VT_S_COUNT; i++) {
    const vt_setting_info *in = vt_setting_info_of(i);
    if (!in->preset_param) continue;
    char v[VT_SETTING_STR_MAX];
    vt_settings_value_text(ts, i, v, sizeof v);
    fprintf(f, "%s\n    \"%s\": %s", first ? "" : ",", in->key, v);
    first = false;
  }
  fputs("\n  }", f);
}

int vt_stats_write_json(const vt_stats *s, const vt_settings *timing_settings, const char *fin,
                        FILE *f) {
  fputs("{\n  \"total\": ", f);
  json_counters(f, s, -1, -1, "  ");
  if (s->timed && fin) {
    fputs(",\n  \"fin\": ", f);
    json_string(f, fin);
  }
  if (s->timed && timing_settings) json_timing_config(f, timing_settings);
  fputs(",\n  \"sms\": [", f);
  for (unsigned k = 0; k < s->max_sms; k++) {
    fprintf(f, "%s\n    ", k ? "," : "");
    json_counters(f, s, -1, (int)k, "    ");
  }
  fputs("\n  ],\n  \"launches\": [", f);
  for (unsigned L = 0; L < s->n; L++) {
    fprintf(f, "%s\n    {\n      \"name\": ", L ? "," : "");
    json_string(f, vt_stats_launch_name(s, L));
    fputs(",\n      \"total\": ", f);
    json_counters(f, s, (int)L, -1, "      ");
    fputs(",\n      \"sms\": [", f);
    for (unsigned k = 0; k < s->l[L].nsm; k++) {
      fprintf(f, "%s\n        ", k ? "," : "");
      json_counters(f, s, (int)L, (int)k, "        ");
    }
    fputs("\n      ]\n    }", f);
  }
  fputs("\n  ]\n}\n", f);
  return ferror(f) ? -1 : 0;
}

static void csv_row(FILE *f, const vt_stats *s, const char *scope, int launch, int sm) {
  fprintf(f, "%s,", scope);
  if (launch >= 0) {
    fprintf(f, "%d,\"", launch);
    for (const char *n = vt_stats_launch_name(s, (unsigned)launch); *n; n++) {
      if (*n == '"') fputc('"', f);
      fputc(*n, f);
    }
    fputc('"', f);
  } else {
    fputs(",", f);
  }
  if (sm >= 0) fprintf(f, ",%d", sm);
  else fputs(",all", f);
  for (int c = 0; c < VT_C_COUNT; c++) {
    if (!shown(s, c)) continue;
    char v[64];
    fmt_value(v, sizeof v, s, launch, sm, c);
    fprintf(f, ",%s", v);
  }
  fputc('\n', f);
}

int vt_stats_write_csv(const vt_stats *s, FILE *f) {
  fputs("scope,launch,name,sm", f);
  for (int c = 0; c < VT_C_COUNT; c++)
    if (shown(s, c)) fprintf(f, ",%s", vt_counter_table[c].name);
  fputc('\n', f);
  csv_row(f, s, "total", -1, -1);
  for (unsigned k = 0; k < s->max_sms; k++) csv_row(f, s, "total", -1, (int)k);
  for (unsigned L = 0; L < s->n; L++) {
    csv_row(f, s, "launch", (int)L, -1);
    for (unsigned k = 0; k < s->l[L].nsm; k++) csv_row(f, s, "launch", (int)L, (int)k);
  }
  return ferror(f) ? -1 : 0;
}

void vt_counters_markdown(FILE *f) {
  static const char *const kinds[] = {"sum", "max", "max over SMs, sum over launches",
                                      "sum (seconds)", "ratio"};
  fputs("| counter | model | unit | aggregation | description |\n"
        "|---|---|---|---|---|\n", f);
  for (int c = 0; c < VT_C_COUNT; c++) {
    const vt_counter_info *in = &vt_counter_table[c];
    fprintf(f, "| `%s` | %s | %s | %s | %s |\n", in->name,
            in->model == VT_CM_FUNC ? "functional" : "timing", in->unit, kinds[in->kind], in->desc);
  }
}
