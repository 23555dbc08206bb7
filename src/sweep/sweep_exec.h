/* Starting programs by argument vector (no shell) for vt sweep's batch
 * backends: sbatch, squeue, sacct and user launchers. */
#ifndef VT_SWEEP_EXEC_H
#define VT_SWEEP_EXEC_H

/* fork + execvp in cwd (NULL: this one), stdin /dev/null, stdout/stderr to
 * the descriptors (-1: inherited). The pid, or -1. A program that cannot
 * be executed exits with 127. */
int sweep_spawn(char *const argv[], const char *cwd, int out_fd, int err_fd);
/* Wait for it: the exit status, 128 + signal, or -1. */
int sweep_wait(int pid);
/* Run and capture stdout and stderr together (at most 1 MiB kept) into a
 * malloc'd *out. The exit status (127: not found), or -1. */
int sweep_capture(char *const argv[], const char *cwd, char **out);
#endif
