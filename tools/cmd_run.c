/* vt run: execute test-vector launches (NAME.metadata + NAME.data) in order
 * on one device whose memory persists, then dump memory, print statistics. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"
#include "vt/elf.h"
#include "vt/isa.h"
#include "vt/sim.h"
#include "vt/testvec.h"
#include "vt/timing.h"
#include "util/parse.h"

#define MAX_DUMPS 64

typedef struct dump_spec {
  uint32_t addr, len;
  const char *file;
} dump_spec;

typedef struct run_opts {
  vt_dev_config cfg;
  bool dump_config;
  const char *trace_path, *stats_json;
  dump_spec dumps[MAX_DUMPS];
  unsigned ndumps;
  const char *elfs[16];
  unsigned nelfs;
  bool quiet;
  /* timing model */
  bool timing;
  vt_timing_config tcfg;
  const char *preset, *stats_csv, *timeline;
} run_opts;

static void usage(FILE *f) {
  fprintf(f,
          "usage: vt run [options] A.metadata [B.metadata ...]\n"
          "Runs the launches in order (each NAME.data beside its NAME.metadata) on one device;\n"
          "memory persists between launches.\n\n"
          "options:\n"
          "  --dump ADDR:LEN:FILE  write LEN bytes of device memory at ADDR to FILE after the\n"
          "                        last launch (repeatable; hex 0x.. or decimal)\n"
          "  --max-insns N         per-launch budget of warp instructions\n"
          "  --trace FILE          one line per executed warp instruction (docs/run.md)\n"
          "  --elf FILE            load the PT_LOAD segments of an ELF kernel before the first\n"
          "                        launch (e.g. its .data/.rodata; repeatable)\n"
          "  --stats-json FILE     statistics as JSON (with --timing: the timing counters)\n"
          "  --timing              run with the cycle-approximate timing model (docs/timing.md):\n"
          "                        prints the FIN line and the counters\n"
          "  --preset P            timing parameters: ventus-2025 (default) or verilog-2024\n"
          "  --tcfg KEY=VALUE      set one timing parameter (repeatable; --dump-config lists them)\n"
          "  --stats-csv FILE      timing counters as CSV (per launch and SM)\n"
          "  --timeline FILE       Chrome/Perfetto trace-event JSON of the timing run\n"
          "  --counters-doc        print the Markdown table of the timing counters and exit\n"
          "  --sms N               number of SMs (default 2)\n"
          "  --warp-slots N        warp slots per SM (default 8; fixes the configuration)\n"
          "  --threads N           threads per warp (fixes the configuration)\n"
          "  --lds-bytes N         local memory per SM\n"
          "  --simt-depth N        SIMT stack entries per warp (default 1024)\n"
          "  --config FILE         'key = value' lines with the same names (sms, warp_slots,\n"
          "                        threads, lds_bytes, max_insns, simt_depth, preset and the\n"
          "                        timing parameters)\n"
          "  --dump-config         print the effective configuration and exit\n"
          "  -q, --quiet           no summary\n");
}

static int set_key(run_opts *o, const char *key, const char *val, const char *where) {
  char err[700];
  if (vt_dev_config_set(&o->cfg, key, val, where, err, sizeof err) != 0) {
    fprintf(stderr, "vt run: %s\n", err);
    return -1;
  }
  return 0;
}

static int set_any(void *ctx, const char *key, const char *val, const char *where, char *err,
                   size_t errn) {
  run_opts *o = ctx;
  if (!strcmp(key, "preset")) {
    if (vt_timing_config_preset(&o->tcfg, val) != 0) {
      snprintf(err, errn, "%s: unknown preset '%s' (ventus-2025, verilog-2024)", where, val);
      return -1;
    }
    return 0;
  }
  int rc = vt_timing_config_set(&o->tcfg, key, val, where, err, errn);
  if (rc <= 0) return rc;
  return vt_dev_config_set(&o->cfg, key, val, where, err, errn);
}

static int set_tcfg(run_opts *o, const char *arg) {
  char buf[256], err[700];
  snprintf(buf, sizeof buf, "%s", arg);
  char *eq = strchr(buf, '=');
  if (!eq) {
    fprintf(stderr, "vt run: bad --tcfg '%s' (expected KEY=VALUE)\n", arg);
    return -1;
  }
  *eq = 0;
  int rc = vt_timing_config_set(&o->tcfg, buf, eq + 1, "--tcfg", err, sizeof err);
  if (rc == 1) {
    fprintf(stderr, "vt run: --tcfg: unknown timing parameter '%s' (see --dump-config)\n", buf);
    return -1;
  }
  if (rc) fprintf(stderr, "vt run: %s\n", err);
  return rc;
}

static int read_config(run_opts *o, const char *path) {
  char err[700];
  if (vt_config_file_parse(path, set_any, o, err, sizeof err) != 0) {
    fprintf(stderr, "vt run: %s\n", err);
    return -1;
  }
  return 0;
}

static int parse_dump(run_opts *o, const char *arg) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", arg);
  char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  uint64_t a, l;
  if (!c1 || !c2 || o->ndumps >= MAX_DUMPS) goto bad;
  *c1 = *c2 = 0;
  if (vt_parse_u64(buf, &a) || vt_parse_u64(c1 + 1, &l) || a > 0xffffffffu || l > 0x100000000ull ||
      a + l > 0x100000000ull || !c2[1])
    goto bad;
  o->dumps[o->ndumps].addr = (uint32_t)a;
  o->dumps[o->ndumps].len = (uint32_t)l;
  o->dumps[o->ndumps].file = arg + (c2 + 1 - buf);
  o->ndumps++;
  return 0;
bad:
  fprintf(stderr, "vt run: bad --dump '%s' (expected ADDR:LEN:FILE)\n", arg);
  return -1;
}

typedef struct trace_ctx {
  FILE *f;
} trace_ctx;

static void trace_line(void *ctx, const vt_trace_event *ev) {
  FILE *f = ((trace_ctx *)ctx)->f;
  char dis[128];
  vt_disasm(ev->insn, ev->pc, NULL, dis, sizeof dis);
  for (char *c = dis; *c; c++)
    if (*c == '\t') *c = ' ';
  fprintf(f, "S%u WG%u W%u %08x %08x %-32s mask=%08x", ev->sm, ev->wg, ev->warp, ev->pc,
          ev->insn, dis, ev->mask);
  for (unsigned i = 0; i < ev->nwrites; i++) {
    const vt_trace_write *w = &ev->writes[i];
    if (w->kind == 'x')
      fprintf(f, " x%u=%08x", w->reg, w->value[0]);
    else if (w->kind == 'c')
      fprintf(f, " csr%03x=%08x", w->reg, w->value[0]);
    else {
      fprintf(f, " v%u[%08x]=", w->reg, w->lanes);
      bool first = true;
      for (int l = 31; l >= 0; l--)
        if ((w->lanes >> l) & 1) {
          fprintf(f, "%s%08x", first ? "" : ",", w->value[l]);
          first = false;
        }
    }
  }
  for (unsigned i = 0; i < ev->nmem; i++) {
    const vt_trace_mem *m = &ev->mem[i];
    if (m->is_store)
      fprintf(f, " st%u[%08x]=%0*x", 8 * m->size, m->addr, 2 * m->size, m->value);
    else
      fprintf(f, " ld%u[%08x]", 8 * m->size, m->addr);
  }
  fputc('\n', f);
}

static int write_stats_json(const char *path, const vt_run_stats *s) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "vt run: %s: %s\n", path, strerror(errno));
    return -1;
  }
  fprintf(f,
          "{\n  \"launches\": %llu,\n  \"workgroups\": %llu,\n  \"warps\": %llu,\n"
          "  \"warp_instructions\": %llu,\n  \"thread_instructions\": %llu,\n"
          "  \"scalar_instructions\": %llu,\n  \"vector_instructions\": %llu,\n"
          "  \"vector_branches\": %llu,\n  \"divergent_vector_branches\": %llu,\n"
          "  \"barriers\": %llu,\n  \"max_simt_depth\": %u,\n  \"host_seconds\": %.6f\n}\n",
          (unsigned long long)s->launches, (unsigned long long)s->workgroups,
          (unsigned long long)s->warps, (unsigned long long)s->warp_insns,
          (unsigned long long)s->thread_insns, (unsigned long long)s->scalar_insns,
          (unsigned long long)s->vector_insns, (unsigned long long)s->vbranches,
          (unsigned long long)s->divergent_vbranches, (unsigned long long)s->barriers,
          s->max_simt_depth, s->host_seconds);
  return fclose(f) == 0 ? 0 : -1;
}

int vt_cmd_run(int argc, char **argv) {
  run_opts o;
  memset(&o, 0, sizeof o);
  vt_dev_config_default(&o.cfg);
  vt_timing_config_preset(&o.tcfg, NULL);
  const char *files[256];
  int nfiles = 0;
  /* the preset first, so that --tcfg and --config settings apply on top of it */
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--preset")) {
      o.preset = argv[i + 1];
      if (vt_timing_config_preset(&o.tcfg, o.preset) != 0) {
        fprintf(stderr, "vt run: unknown preset '%s' (ventus-2025, verilog-2024)\n", o.preset);
        return 2;
      }
    }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      o.quiet = true;
    } else if (!strcmp(a, "--dump-config")) {
      o.dump_config = true;
    } else if (!strcmp(a, "--timing")) {
      o.timing = true;
    } else if (!strcmp(a, "--counters-doc")) {
      vt_timing_counters_markdown(stdout);
      return 0;
    } else if (a[0] == '-' && a[1] == '-' && a[2]) {
      if (!v) {
        fprintf(stderr, "vt run: %s needs a value\n", a);
        return 2;
      }
      i++;
      int rc = 0;
      if (!strcmp(a, "--dump")) rc = parse_dump(&o, v);
      else if (!strcmp(a, "--trace")) o.trace_path = v;
      else if (!strcmp(a, "--elf")) {
        if (o.nelfs == 16) {
          fprintf(stderr, "vt run: too many --elf files\n");
          return 2;
        }
        o.elfs[o.nelfs++] = v;
      }
      else if (!strcmp(a, "--stats-json")) o.stats_json = v;
      else if (!strcmp(a, "--stats-csv")) o.stats_csv = v, o.timing = true;
      else if (!strcmp(a, "--timeline")) o.timeline = v, o.timing = true;
      else if (!strcmp(a, "--preset")) o.timing = true;
      else if (!strcmp(a, "--tcfg")) rc = set_tcfg(&o, v);
      else if (!strcmp(a, "--config")) rc = read_config(&o, v);
      else if (!strcmp(a, "--max-insns")) rc = set_key(&o, "max_insns", v, "command line");
      else if (!strcmp(a, "--sms")) rc = set_key(&o, "sms", v, "command line");
      else if (!strcmp(a, "--warp-slots")) rc = set_key(&o, "warp_slots", v, "command line");
      else if (!strcmp(a, "--threads")) rc = set_key(&o, "threads", v, "command line");
      else if (!strcmp(a, "--lds-bytes")) rc = set_key(&o, "lds_bytes", v, "command line");
      else if (!strcmp(a, "--simt-depth")) rc = set_key(&o, "simt_depth", v, "command line");
      else {
        fprintf(stderr, "vt run: unknown option %s\n", a);
        return 2;
      }
      if (rc) return 2;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "vt run: unknown option %s\n", a);
      return 2;
    } else {
      if (nfiles == 256) {
        fprintf(stderr, "vt run: too many launches\n");
        return 2;
      }
      files[nfiles++] = a;
    }
  }
  if (o.dump_config) {
    vt_dev_config_print(stdout, &o.cfg);
    printf("# timing model (vt run --timing), preset %s\n", o.preset ? o.preset : "ventus-2025");
    vt_timing_config_print(stdout, &o.tcfg);
    return 0;
  }
  if (nfiles == 0) {
    usage(stderr);
    return 2;
  }
  vt_device *dev = vt_device_new(&o.cfg);
  if (!dev) {
    fprintf(stderr, "vt run: out of memory\n");
    return 1;
  }
  trace_ctx tc = {NULL};
  int status = 0;
  if (o.trace_path) {
    tc.f = fopen(o.trace_path, "w");
    if (!tc.f) {
      fprintf(stderr, "vt run: %s: %s\n", o.trace_path, strerror(errno));
      vt_device_free(dev);
      return 1;
    }
    vt_device_set_trace(dev, trace_line, &tc);
  }
  for (unsigned i = 0; i < o.nelfs && status == 0; i++) {
    char msg[512];
    vt_elf *elf = NULL;
    vt_error err;
    if (vt_elf_open_file(o.elfs[i], &elf, msg, sizeof msg) != 0) {
      fprintf(stderr, "vt run: %s\n", msg);
      status = 1;
    } else if (vt_device_load_elf(dev, elf, &err) != VT_OK) {
      fprintf(stderr, "vt run: %s: %s\n", o.elfs[i], err.message);
      status = 1;
    }
    vt_elf_free(elf);
  }
  vt_timing *tm = NULL;
  FILE *tlf = NULL;
  if (o.timing) {
    tm = vt_timing_new(&o.tcfg);
    if (!tm) status = 1;
    if (tm && o.timeline) {
      tlf = fopen(o.timeline, "w");
      if (!tlf) {
        fprintf(stderr, "vt run: %s: %s\n", o.timeline, strerror(errno));
        status = 1;
      } else {
        vt_timing_set_timeline(tm, tlf);
      }
    }
  }
  for (int i = 0; i < nfiles && status == 0; i++) {
    vt_error err;
    vt_testvec *tv = NULL;
    vt_launch l;
    const char *base = strrchr(files[i], '/');
    base = base ? base + 1 : files[i];
    if (vt_testvec_load(files[i], NULL, &tv, &err) != VT_OK ||
        vt_testvec_apply(dev, tv, &l, &err) != VT_OK ||
        (tm ? vt_timing_run(tm, dev, &l, base, &err) : vt_device_run(dev, &l, &err)) != VT_OK) {
      fprintf(stderr, "vt run: %s: %s\n", files[i], err.message);
      status = 1;
    }
    vt_testvec_free(tv);
  }
  if (tc.f && fclose(tc.f) != 0) status = 1;
  for (unsigned d = 0; d < o.ndumps && status == 0; d++) {
    uint8_t *buf = malloc(o.dumps[d].len ? o.dumps[d].len : 1);
    vt_error err;
    if (!buf) {
      status = 1;
      break;
    }
    if (vt_mem_read(dev, o.dumps[d].addr, buf, o.dumps[d].len, &err) != VT_OK) {
      fprintf(stderr, "vt run: --dump: %s\n", err.message);
      status = 1;
    } else {
      FILE *f = fopen(o.dumps[d].file, "wb");
      if (!f || fwrite(buf, 1, o.dumps[d].len, f) != o.dumps[d].len || fclose(f) != 0) {
        fprintf(stderr, "vt run: %s: cannot write\n", o.dumps[d].file);
        status = 1;
      }
    }
    free(buf);
  }
  vt_run_stats s;
  vt_device_stats(dev, &s);
  if (tm) {
    if (tlf) {
      if (vt_timing_close_timeline(tm) != 0 || fclose(tlf) != 0) {
        fprintf(stderr, "vt run: %s: write error\n", o.timeline);
        status = 1;
      }
    }
    if (!o.quiet) vt_timing_report(tm, stdout);
    const char *outs[2] = {o.stats_json, o.stats_csv};
    for (int k = 0; k < 2; k++) {
      if (!outs[k]) continue;
      FILE *f = fopen(outs[k], "w");
      if (!f || (k ? vt_timing_write_csv(tm, f) : vt_timing_write_json(tm, f)) != 0 ||
          fclose(f) != 0) {
        fprintf(stderr, "vt run: %s: cannot write\n", outs[k]);
        status = 1;
      }
    }
    vt_timing_free(tm);
  } else if (o.stats_json && write_stats_json(o.stats_json, &s) != 0) {
    status = 1;
  }
  if (!o.quiet)
    fprintf(stderr,
            "vt run: %llu launch(es), %llu workgroup(s), %llu warp-instructions, %llu "
            "thread-instructions, %.3f s host, %.2f M warp-insn/s\n",
            (unsigned long long)s.launches, (unsigned long long)s.workgroups,
            (unsigned long long)s.warp_insns, (unsigned long long)s.thread_insns,
            s.host_seconds, s.host_seconds > 0 ? (double)s.warp_insns / s.host_seconds / 1e6 : 0.0);
  vt_device_free(dev);
  return status;
}
