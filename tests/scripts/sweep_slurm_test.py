#!/usr/bin/env python3
"""vt sweep through a real one-node Slurm cluster (docs/sweep.md, "Testing
against Slurm").

Starts munged, slurmctld and slurmd on localhost with a configuration
written into a temporary folder (ProctrackType=proctrack/linuxproc,
TaskPlugin=task/none, JobAcctGatherType=jobacct_gather/none, no cgroups,
ports picked free at run time), runs a sweep of 24 points with
`vt sweep --slurm --chunk 3 --wait` (8 array tasks) and the same sweep with
the local backend, and checks that the rows are equal except host time
(host_time_s, the host_seconds counter) and peak RSS. Works as root (the
daemons run as root, as on a fresh CI machine) and as another user (the
daemons run as that user). Every daemon it started is stopped at the end.
If the daemons do not come up the test fails and prints their logs. Without
Slurm installed it is skipped (exit 77), except under CI (CI set), where
it fails.

Usage: sweep_slurm_test.py VT EXAMPLES_DIR SOURCE_DIR TMP_ROOT
"""
import csv
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PROGRAMS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"]
IGNORED = {"host_time_s", "peak_rss_kb", "host_seconds"}

passed = failed = 0


def report(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + name, flush=True)
    else:
        failed += 1
        print("FAIL " + name + (": " + detail if detail else ""), flush=True)


def free_ports(n):
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def write_key(path):
    with open(path, "wb") as f:
        f.write(os.urandom(1024))
    os.chmod(path, 0o400)


class Cluster:
    """munged + slurmctld + slurmd in folder d, stopped by stop()."""

    def __init__(self, d):
        self.d = d
        self.user = pwd.getpwuid(os.getuid()).pw_name
        self.conf = os.path.join(d, "slurm.conf")
        self.env = dict(os.environ, SLURM_CONF=self.conf)
        self.pidfiles = [os.path.join(d, n + ".pid") for n in ("slurmd", "slurmctld", "munged")]

    def path(self, name):
        return os.path.join(self.d, name)

    def configure(self):
        host = socket.gethostname().split(".")[0]
        node = subprocess.run(["slurmd", "-C"], capture_output=True, text=True, env=self.env)
        line = node.stdout.splitlines()[0] if node.stdout else ""
        if not line.startswith("NodeName="):
            raise RuntimeError("slurmd -C printed no node line: " + node.stdout + node.stderr)
        ctld_port, d_port = free_ports(2)
        for sub in ("state", "spool"):
            os.makedirs(self.path(sub), exist_ok=True)
        with open(self.conf, "w") as f:
            f.write(f"""ClusterName=vtsweeptest
SlurmctldHost={host}(127.0.0.1)
SlurmUser={self.user}
SlurmdUser={self.user}
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.path("munge.socket")}
StateSaveLocation={self.path("state")}
SlurmdSpoolDir={self.path("spool")}
SlurmctldPidFile={self.path("slurmctld.pid")}
SlurmdPidFile={self.path("slurmd.pid")}
SlurmctldLogFile={self.path("slurmctld.log")}
SlurmdLogFile={self.path("slurmd.log")}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
{line} NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")

    def start(self):
        write_key(self.path("munge.key"))
        subprocess.run(["munged", "--socket=" + self.path("munge.socket"),
                        "--key-file=" + self.path("munge.key"), "--pid-file=" + self.path("munged.pid"),
                        "--log-file=" + self.path("munged.log"), "--seed-file=" + self.path("munged.seed"),
                        "--force"], env=self.env, check=True, capture_output=True)
        self.wait_for(lambda: os.path.exists(self.path("munge.socket")), "munged's socket")
        self.configure()
        subprocess.run(["slurmctld", "-i"], env=self.env, check=True, capture_output=True)
        subprocess.run(["slurmd"], env=self.env, check=True, capture_output=True)
        self.wait_for(self.idle, "the node to be idle")

    def idle(self):
        r = subprocess.run(["sinfo", "-h", "-o", "%T"], env=self.env, capture_output=True, text=True)
        return r.returncode == 0 and r.stdout.strip() == "idle"

    def wait_for(self, cond, what, seconds=60):
        end = time.time() + seconds
        while time.time() < end:
            if cond():
                return
            time.sleep(0.25)
        raise RuntimeError("timed out waiting for " + what)

    def logs(self):
        out = []
        for n in ("munged.log", "slurmctld.log", "slurmd.log"):
            p = self.path(n)
            text = open(p, errors="replace").read() if os.path.exists(p) else "(not written)\n"
            out.append(f"----- {n}\n{text[-6000:]}")
        return "\n".join(out)

    def stop(self):
        """SIGTERM each daemon of our pid files, SIGKILL after 15 s."""
        pids = []
        for pf in self.pidfiles:
            try:
                pids.append(int(open(pf).read().split()[0]))
            except (OSError, ValueError, IndexError):
                continue
        for pid in pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        end = time.time() + 15
        for pid in pids:
            while alive(pid) and time.time() < end:
                time.sleep(0.1)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        return [pid for pid in pids if alive(pid)]


def alive(pid):
    """running (a zombie left to init counts as ended)"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def sweep_file(path, out, examples, data):
    with open(path, "w") as f:
        f.write(f"""[sweep]
name = slurm test
output = {out}
mode = timing
[axes]
sms = 1, 2, 4
warp_slots = 4, 8
l2_sets = 2, 64
[workload vecadd]
launch = {examples}/vecadd.elf
kernel = vecadd
global = 1024
local = 128
arg = in:{data}/vecadd_a.bin
arg = in:{data}/vecadd_b.bin
arg = out:4096
expect = arg2:{data}/vecadd_c.bin
[workload matmul]
launch = {examples}/matmul.elf
kernel = matmul
global = 32,32
local = 8,8
arg = in:{data}/matmul_a.bin
arg = in:{data}/matmul_b.bin
arg = out:4096
arg = i32:32
arg = i32:32
arg = local:256
arg = local:256
expect = arg2:{data}/matmul_c.bin
""")


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def run_sweeps(c, vt, examples, source, work):
    sweep = os.path.join(work, "grid.sweep")
    sweep_file(sweep, "unused", examples, os.path.join(source, "examples/sweep/data"))
    local, slurm = os.path.join(work, "local"), os.path.join(work, "slurm")
    r = subprocess.run([vt, "sweep", "-q", "-j", "2", "-o", local, sweep], capture_output=True, text=True)
    report(r.returncode == 0, "local_sweep", r.stderr)
    r = subprocess.run([vt, "sweep", "--slurm", "--chunk", "3", "--max-running", "2", "--wait", "--poll", "1",
                        "-o", slurm, sweep], env=c.env, capture_output=True, text=True, timeout=900)
    report(r.returncode == 0 and "8 array task(s)" in r.stderr, "slurm_sweep", r.stderr + c.logs())
    a, b = rows(os.path.join(local, "results.csv")), rows(os.path.join(slurm, "results.csv"))
    report(len(a) == 24 and len(b) == 24, "24_rows_each", f"{len(a)} local, {len(b)} slurm")
    diff = [(i, k, x[k], y.get(k)) for i, (x, y) in enumerate(zip(a, b)) for k in x
            if k not in IGNORED and x[k] != y.get(k)]
    report(not diff and all(x["status"] == "ok" for x in a), "rows_equal_local", str(diff[:5]))
    outs = sorted(n for n in os.listdir(os.path.join(slurm, "slurm")) if n.startswith("slurm-"))
    tasks = [open(os.path.join(slurm, "slurm", n)).read() for n in outs]
    report(len(outs) == 8 and all("3 points ran (3 ok, 0 failed)" in t for t in tasks), "array_task_outputs",
           str(tasks))
    r = subprocess.run([vt, "sweep", "--status", slurm], env=c.env, capture_output=True, text=True)
    report("24 points: 24 ok" in r.stdout and "0 array task(s) running, 0 pending" in r.stdout, "status",
           r.stdout + r.stderr)


def main():
    vt, examples, source, tmp_root = (os.path.abspath(a) for a in sys.argv[1:5])
    missing = [p for p in PROGRAMS if not shutil.which(p)]
    if missing:
        print("Slurm/munge programs not found: " + ", ".join(missing) +
              " (sh scripts/install-deps.sh cluster)")
        return 1 if os.environ.get("CI") else 77
    os.makedirs(tmp_root, exist_ok=True)
    work = tempfile.mkdtemp(prefix="sweep_slurm.", dir=tmp_root)
    # the munge socket path must stay below the 108 bytes of a unix socket
    state = work if len(work) < 60 else tempfile.mkdtemp(prefix="vt-slurm.")
    os.chmod(state, 0o755)
    c = Cluster(state)
    try:
        try:
            c.start()
            report(True, "daemons_started")
            run_sweeps(c, vt, examples, source, work)
        except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
            detail = getattr(e, "stderr", b"") or b""
            report(False, "daemons_started", f"{e} {detail!r}\n{c.logs()}")
    finally:
        left = c.stop()
        report(not left, "daemons_stopped", f"still running: {left}")
    print(f"{passed} passed, {failed} failed")
    if failed == 0:
        shutil.rmtree(work, ignore_errors=True)
        if state != work:
            shutil.rmtree(state, ignore_errors=True)
    else:
        print("temporary files kept in " + work)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
