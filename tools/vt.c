/* vt: the command-line front end. Dispatches to sub-commands. */
#include <stdio.h>
#include <string.h>

#include "tools.h"
#include "vt/addrmap.h"
#include "vt/counters.h"
#include "vt/settings.h"

static const struct {
  const char *name, *summary;
  int (*fn)(int, char **);
} commands[] = {
    {"as", "assemble and link GNU-as syntax into an ELF32 executable", vt_cmd_as},
    {"objdump", "disassemble ELF files in llvm-objdump style", vt_cmd_objdump},
    {"run", "run test-vector launches (.metadata/.data) on the simulator", vt_cmd_run},
    {"launch", "run a kernel of an ELF program with arguments from the command line", vt_cmd_launch},
    {"cc", "compile OpenCL C into a kernel ELF (needs the LLVM 14 build)", vt_cmd_cc},
    {"sweep", "run a sweep file's points locally or on Slurm, collect every counter", vt_cmd_sweep},
    {"report", "write an offline HTML report of a sweep, a stats.json or a timeline", vt_cmd_report},
    {"debug", "run test vectors or a kernel under the debugger (or for GDB)", vt_cmd_debug},
};

static void usage(FILE *f) {
  fprintf(f, "usage: vt COMMAND [options] ...\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\nRun 'vt help COMMAND' (or 'vt COMMAND --help') for a command's options,\n"
             "'vt help settings', 'vt help counters' and 'vt help address-map' for the\n"
             "reference tables.\n");
}

/* vt help COMMAND = vt COMMAND --help; vt help settings|counters|address-map
 * prints the reference tables (docs/settings.md, docs/counters.md,
 * docs/formats.md) */
static int help(const char *topic) {
  if (!strcmp(topic, "settings")) {
    vt_settings_markdown(stdout);
    return 0;
  }
  if (!strcmp(topic, "counters")) {
    vt_counters_markdown(stdout);
    return 0;
  }
  if (!strcmp(topic, "address-map")) {
    vt_addrmap_print(stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(topic, commands[i].name)) {
      char *args[] = {(char *)topic, (char *)"--help", NULL};
      return commands[i].fn(2, args);
    }
  fprintf(stderr, "vt help: unknown topic '%s' (a command, settings, counters or address-map)\n", topic);
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
      (!strcmp(argv[1], "help") && argc == 2)) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "help")) return help(argv[2]);
  if (!strcmp(argv[1], "--version")) {
    printf("vt 0.1.0\n");
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "vt: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
