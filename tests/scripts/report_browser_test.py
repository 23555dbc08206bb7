#!/usr/bin/env python3
"""vt report in a real browser (docs/report.md, "Tested in a browser").

Makes the three kinds of report (a sweep of 18 points with a failing
workload, a run's statistics JSON, a timeline), opens each in headless
Chromium through the DevTools protocol (--remote-debugging-pipe), and
checks: the page raised no console error, exception or failed load; every
chart drew its data (the points Chart.js placed, read from the rendered
page, equal the rows of the CSV beside the chart, and are on the canvas);
counts known from the inputs (6 points of cycles against sms, 2 SMs, 8
workgroups); a screenshot is not blank (decoded here: many colours, not
mostly white). With --screenshots DIR it also writes the screenshots there
(docs/images holds the ones docs/report.md shows).

Usage: report_browser_test.py VT EXAMPLES_DIR SOURCE_DIR TMP_ROOT [--screenshots DIR]
"""
import base64
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

passed = failed = 0


def report(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + name, flush=True)
    else:
        failed += 1
        print("FAIL " + name + (": " + detail if detail else ""), flush=True)


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Page:
    """One headless Chromium driven over --remote-debugging-pipe (fds 3, 4)."""

    def __init__(self, exe, profile):
        to_chrome, self.w = os.pipe()
        self.r, from_chrome = os.pipe()

        def fds():  # (dup first: a pipe end may already be 3 or 4, close-on-exec)
            t, f = os.dup(to_chrome), os.dup(from_chrome)
            os.dup2(t, 3)
            os.dup2(f, 4)

        args = [exe, "--headless", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=1280,1000", "--hide-scrollbars",
                "--force-device-scale-factor=1"]
        if os.getuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses root without it
        # close_fds would close 3 and 4 after preexec_fn: keep everything open
        self.proc = subprocess.Popen(args, preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(to_chrome)
        os.close(from_chrome)
        self.buf, self.next_id, self.events, self.session = b"", 0, [], None
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(domain + ".enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": False})

    def message(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise RuntimeError("Chromium did not answer")
            chunk = os.read(self.r, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, timeout=60):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session:
            msg["sessionId"] = self.session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self.message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def evaluate(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError("evaluate: " + json.dumps(r["exceptionDetails"])[:500])
        return r["result"].get("value")

    def open(self, path):
        self.events = []
        self.call("Page.navigate", {"url": "file://" + path})
        deadline = time.time() + 60
        while not self.evaluate("document.readyState === 'complete' && document.body && "
                                "document.body.hasAttribute('data-drawn')"):
            if time.time() > deadline:
                raise RuntimeError("the page did not finish drawing")
            time.sleep(0.1)

    def errors(self):
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console." + p["type"] + ": " + json.dumps(p.get("args"))[:300])
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append("log: " + p["entry"].get("text", ""))
        return out

    def screenshot(self):
        return base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def png_pixels(data):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB/RGBA PNG"""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "unexpected PNG format"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, prev, stride = zlib.decompress(idat), [], bytearray(w * bpp), w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def not_blank(png):
    w, h, bpp, rows = png_pixels(png)
    colours, ink = set(), 0
    for row in rows[::4]:
        for x in range(0, w * bpp, bpp * 4):
            px = row[x:x + 3]
            colours.add(px)
            ink += px != b"\xff\xff\xff"
    samples = (len(rows[::4])) * len(range(0, w * bpp, bpp * 4))
    return len(colours) >= 16 and ink / samples > 0.03, f"{len(colours)} colours, {ink / samples:.1%} not white"


COUNT = """JSON.stringify(Array.from(document.querySelectorAll('figure.chart')).map(function(fig){
  var ch = Chart.getChart(fig.querySelector('canvas')), pts = 0, inside = 0;
  var a = ch.chartArea;
  ch.data.datasets.forEach(function(d, i) {
    var m = ch.getDatasetMeta(i);
    pts += m.data.length;
    m.data.forEach(function(e) {
      var p = e.getProps(['x', 'y'], true);
      if (isFinite(p.x) && isFinite(p.y) && p.x >= a.left - 1 && p.x <= a.right + 1 &&
          p.y >= a.top - 1 && p.y <= a.bottom + 1) inside++;
    });
  });
  var csv = fig.querySelector('pre.csv').textContent.replace(/\\n$/, '').split('\\n').length - 1;
  return {id: fig.id, points: pts, inside: inside, csv: csv};
}))"""


def check_page(page, name, path, shots, known):
    try:
        page.open(path)
    except RuntimeError as e:
        report(False, name + "_renders", str(e))
        return
    charts = json.loads(page.evaluate(COUNT))
    errs = page.errors()
    report(not errs, name + "_no_console_errors", "; ".join(errs))
    bad = [c for c in charts if not c["points"] or c["points"] != c["csv"] or c["inside"] != c["points"]]
    report(charts and not bad, name + f"_charts_drew_their_data ({len(charts)} charts)", json.dumps(bad))
    by_id = {c["id"]: c for c in charts}
    for cid, want in known.items():
        got = by_id.get(cid, {}).get("points")
        report(got == want, f"{name}_{cid}_has_{want}_points", f"got {got}")
    png = page.screenshot()
    ok, detail = not_blank(png)
    report(ok, name + "_screenshot_not_blank", detail)
    for d in shots:
        with open(os.path.join(d, f"report-{name}.png"), "wb") as f:
            f.write(png)


def make_inputs(vt, examples, source, work):
    data = os.path.join(source, "examples/sweep/data")
    sweep = os.path.join(work, "r.sweep")
    with open(sweep, "w") as f:
        f.write(f"""[sweep]
name = report test
output = {work}/sweep
mode = timing
baseline = sms=1 warp_slots=4
[axes]
sms = 1, 2, 4
warp_slots = 4, 8
[workload vecadd]
launch = {examples}/vecadd.elf
global = 1024
local = 128
arg = in:{data}/vecadd_a.bin
arg = in:{data}/vecadd_b.bin
arg = out:4096
expect = arg2:{data}/vecadd_c.bin
[workload matmul]
launch = {examples}/matmul.elf
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
[workload wrong]
launch = {examples}/vecadd.elf
global = 1024
local = 128
arg = in:{data}/vecadd_a.bin
arg = in:{data}/vecadd_b.bin
arg = out:4096
expect = arg2:{data}/vecadd_a.bin
""")
    r = subprocess.run([vt, "sweep", "-q", sweep], capture_output=True, text=True)
    report(r.returncode == 1 and "18 points: 12 ok, 6 failed" in r.stderr, "sweep_ran", r.stderr)
    r = subprocess.run([vt, "launch", os.path.join(examples, "matmul.elf"), "--global", "64,64", "--local",
                        "8,8", "--arg", "out:16384", "--arg", "out:16384", "--arg", "out:16384", "--arg",
                        "i32:64", "--arg", "i32:64", "--arg", "local:256", "--arg", "local:256", "--timing",
                        "-q", "--stats-json", os.path.join(work, "stats.json")], capture_output=True, text=True)
    report(r.returncode == 0, "stats_written", r.stderr)
    r = subprocess.run([vt, "launch", os.path.join(examples, "vecadd.elf"), "--global", "1024", "--local", "128",
                        "--arg", "out:4096", "--arg", "out:4096", "--arg", "out:4096", "--timing", "-q",
                        "--timeline", os.path.join(work, "timeline.json")], capture_output=True, text=True)
    report(r.returncode == 0, "timeline_written", r.stderr)
    outputs = {}
    for name, src in (("sweep", "sweep"), ("stats", "stats.json"), ("timeline", "timeline.json")):
        out = os.path.join(work, name + ".html")  # inputs named relatively: pages show short names
        r = subprocess.run([vt, "report", "-o", out, src], capture_output=True, text=True, cwd=work)
        report(r.returncode == 0 and os.path.exists(out), name + "_report_written", r.stderr)
        outputs[name] = out
    return outputs


def main():
    args = sys.argv[1:]
    shots = []
    if "--screenshots" in args:
        i = args.index("--screenshots")
        shots = [os.path.abspath(args[i + 1])]
        del args[i:i + 2]
    vt, examples, source, tmp_root = (os.path.abspath(a) for a in args[:4])
    exe = browser()
    if not exe:
        print("no Chromium (sh scripts/install-deps.sh browser)")
        return 1 if os.environ.get("CI") else 77
    os.makedirs(tmp_root, exist_ok=True)
    work = tempfile.mkdtemp(prefix="report_browser.", dir=tmp_root)
    outputs = make_inputs(vt, examples, source, work)
    page = Page(exe, os.path.join(work, "profile"))
    try:
        check_page(page, "sweep", outputs["sweep"], shots, {"w0-cycles-sms": 6, "w1-ipc-warp_slots": 6})
        check_page(page, "stats", outputs["stats"], shots, {"sm-busy": 2, "hit-rates": 6})
        check_page(page, "timeline", outputs["timeline"], shots, {"workgroups": 8, "occupancy": 400})
    finally:
        page.close()
    print(f"{passed} passed, {failed} failed")
    if failed == 0:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("temporary files kept in " + work)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
