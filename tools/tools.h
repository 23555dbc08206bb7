/* Sub-command entry points of the vt command. Each returns the exit status. */
#ifndef VT_TOOLS_H
#define VT_TOOLS_H
int vt_cmd_as(int argc, char **argv);
int vt_cmd_objdump(int argc, char **argv);
int vt_cmd_run(int argc, char **argv);
int vt_cmd_launch(int argc, char **argv);
int vt_cmd_cc(int argc, char **argv);
int vt_cmd_sweep(int argc, char **argv);
int vt_cmd_report(int argc, char **argv);
int vt_cmd_debug(int argc, char **argv);
#endif
