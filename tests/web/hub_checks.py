"""Browser checks of models by name and weights read in place (issue: the Hub in the page).

The stand-in Hub (tests/hub/test_hub.py) serves tests/data/stories260K as test-org/stories260K on
loopback; the page is pointed at it with ?hf_endpoint=. Checked:
  hub-model     #model=ORG/NAME fetches config.json (the inspector shows the model); reading its
                weights fetches config.json, the header and the q/k rows by range and gives the
                same numbers (the view's CSV) as the page reading the whole file from its memory
                and as `pe-viz weights --csv` on the desktop (with --pe-viz); no CORS preflight,
                no request without a Range for the weights, fewer bytes than the file.
  hub-errors    a gated model without a token (named, and how to give one in the page), with one
                (a CORS preflight; the token not sent to the download host, not stored); a
                server that answers a range request with the whole file: stopped and named.
  sharded-drop  a sharded checkpoint's files dropped together are read through their index, with
                the shards held in place or copied into the page: the single file's numbers.
  held-weights  a .safetensors over the page's in-place threshold dropped with its config.json is
                not copied into the page's file system; it is read through File.slice, the same
                numbers again, fewer bytes than the file.
  hub-memory    (with --memory) a Llama-3-8B-shaped bf16 checkpoint (4 sparse shards, 16 GB,
                tests/bench/hub_bench.py writes it) held by the page and read in place: the tab's
                peak resident memory (the renderer's VmHWM), its wasm memory and JS heap.
Each check raises AssertionError (CheckFailure) naming what went wrong.
"""

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "data", "stories260K")
REPO = "test-org/stories260K"
GATED = "test-org/gated-stories"


class CheckFailure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailure(message)


class TestHub:
    """tests/hub/test_hub.py serving a copy of stories260K (and whatever else is put under root)."""

    def __init__(self):
        self.work = tempfile.mkdtemp(prefix="pe-viz-webhub-")
        self.root = os.path.join(self.work, "root")
        repo = os.path.join(self.root, *REPO.split("/"))
        os.makedirs(repo)
        for name in ("config.json", "model.safetensors"):
            shutil.copy(os.path.join(DATA, name), os.path.join(repo, name))
        # The same model, gated: only the token "hf_granted" may read it.
        gated = os.path.join(self.root, *GATED.split("/"))
        shutil.copytree(repo, gated)
        with open(os.path.join(gated, ".gated"), "w") as f:
            f.write("hf_granted\n")
        ready = os.path.join(self.work, "ready")
        self.proc = subprocess.Popen(["/usr/bin/python3", os.path.join(ROOT, "tests", "hub", "test_hub.py"), self.root,
                                      "--ready", ready], stdout=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(ready):
                break
            time.sleep(0.05)
        words = open(ready).read().split()
        self.endpoint = words[1]

    def control(self, query):
        with urllib.request.urlopen(self.endpoint + "/_control?" + query, timeout=10) as r:
            return json.load(r)

    def stats(self):
        with urllib.request.urlopen(self.endpoint + "/_stats", timeout=10) as r:
            return json.load(r)

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.work, ignore_errors=True)


def console_line(s, start, what, timeout=60):
    """The first console line after index `start` that contains `what`."""
    found = []

    def seen():
        found[:] = [m for m in s.page.console[start:] if what in m]
        return bool(found)

    s.page.wait_for(seen, timeout=timeout, what=f"console: {what}")
    return found[0]


def copied_csv(s):
    """File → Copy data (CSV): the numbers behind the view, from the page's clipboard."""
    s.page.evaluate("Module.peViz.clipboard = ''; 1")
    s.page.click(22, 11)  # File
    s.settle(0.3)
    s.page.click(60, 77)  # its third item, Copy data (CSV) (20 px a row at 1×)
    s.page.wait_for(lambda: s.page.evaluate("Module.peViz.clipboard.length") > 0, timeout=20, what="the CSV copied")
    return s.page.evaluate("Module.peViz.clipboard")


def norm_rows(csv_text):
    """The CSV's rows without comments: (fields as text, numbers as floats)."""
    rows = []
    for line in csv_text.splitlines():
        if not line or line.startswith("#"):
            continue
        rows.append(line.split(","))
    return rows


def same_numbers(a, b, what):
    ra, rb = norm_rows(a), norm_rows(b)
    check(len(ra) == len(rb), f"{what}: {len(ra)} rows against {len(rb)}")
    check(len(ra) > 100, f"{what}: only {len(ra)} rows")
    worst = 0.0
    for x, y in zip(ra, rb):
        check(len(x) == len(y), f"{what}: {x} against {y}")
        for u, v in zip(x, y):
            if u == v:
                continue
            try:
                fu, fv = float(u), float(v)
            except ValueError:
                raise CheckFailure(f"{what}: {x} against {y}")
            rel = abs(fu - fv) / max(abs(fu), abs(fv), 1e-300)
            worst = max(worst, rel)
            check(rel < 1e-12, f"{what}: {u} against {v} in {x}")
    return len(ra), worst


def desktop_csv(pe_viz, source):
    out = tempfile.mktemp(suffix=".csv")
    r = subprocess.run([pe_viz, "weights", "--model", source, "--csv", out], capture_output=True, text=True,
                       env=dict(os.environ, HF_HUB_OFFLINE="1"))
    check(r.returncode == 0, f"pe-viz weights failed: {r.stderr}")
    with open(out) as f:
        text = f.read()
    os.remove(out)
    return text


def read_in_page(s, source, timeout=120):
    """peViz.readWeights(source), as the frequency-usage view's Open does; the console line the
    page writes when the reading ended, once it says 'read'."""
    start = len(s.page.console)
    s.page.evaluate("Module.peViz.readWeights(" + json.dumps(source) + "); 1")
    line = console_line(s, start, "pe-viz: weights of " + source + ":", timeout=timeout)
    check(": read, " in line, f"the page did not read {source}: {line}")
    s.settle(0.5)
    return line


def bytes_moved(line):
    return int(line.split(": read, ", 1)[1].split(" bytes", 1)[0])


def drop_files_js(files):
    """JavaScript that drops File objects onto the page, as a reader does. `files`: (name, base64)."""
    parts = ", ".join(f"new File([bytes('{b64}')], {json.dumps(name)})" for name, b64 in files)
    return ("(function () { function bytes(b64) { var s = atob(b64), a = new Uint8Array(s.length);"
            " for (var i = 0; i < s.length; ++i) a[i] = s.charCodeAt(i); return a; }"
            " var dt = new DataTransfer(); [" + parts + "].forEach(function (f) { dt.items.add(f); });"
            " document.getElementById('canvas').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true,"
            " cancelable: true})); return 1; })()")


def test_hub_model(s, report, pe_viz=None, memory=False):
    size = os.path.getsize(os.path.join(DATA, "model.safetensors"))
    hub = TestHub()
    try:
        page = "index.html?hf_endpoint=" + urllib.parse.quote(hub.endpoint, safe="")
        # The link names a Hub model: its config.json is fetched (the inspector shows it).
        s.open("view=inspector&model=" + REPO, path=page)
        s.wait_fragment(lambda k: k.get("dim") == "8", timeout=30, what="stories260K's head_dim from the link's model")
        s.settle(0.3)
        s.screenshot("hub-model-inspector")
        after_config = hub.stats()
        check(after_config["preflights"] == 0, f"a CORS preflight was sent: {after_config}")
        # Its weights by range: the frequency-usage view from the Hub.
        line = read_in_page(s, REPO)
        s.wait_title("pe-viz · frequency-usage")
        s.screenshot("hub-model-frequency-usage")
        from_hub = copied_csv(s)
        stats = hub.stats()
        check(stats["preflights"] == 0, f"a CORS preflight was sent: {stats}")
        served = stats["total_bytes"]
        unranged = [r["path"] for r in stats["requests"] if r["path"].split("?")[0].endswith(".safetensors") and not r["range"]]
        check(not unranged, f"weights asked for without a Range: {unranged}")
        check(0 < served < size, f"{served} bytes served for a {size}-byte checkpoint: not read by range")
        moved = bytes_moved(line)
        # The same file read whole from the page's memory (as dropped before this change).
        with open(os.path.join(DATA, "config.json"), "rb") as f:
            config = f.read()
        with open(os.path.join(DATA, "model.safetensors"), "rb") as f:
            weights = f.read()
        s.page.evaluate(drop_files_js([("config.json", base64.b64encode(config).decode()),
                                       ("model.safetensors", base64.b64encode(weights).decode())]))
        s.page.wait_for(lambda: s.page.evaluate("Module.FS.analyzePath('/files/model.safetensors').exists"), timeout=20,
                        what="the dropped model.safetensors in the page's file system")
        read_in_page(s, "model.safetensors")
        from_memory = copied_csv(s)
        rows, worst = same_numbers(from_hub, from_memory, "Hub against the page's memory")
        report["hub-model"] = (f"#model={REPO} via ?hf_endpoint: config fetched; weights: {served} of {size} bytes served "
                               f"({moved} counted by the page), 0 preflights; {rows} CSV rows equal to the whole file's "
                               f"(largest relative difference {worst:.1e})")
        if pe_viz:
            rows, worst = same_numbers(from_hub, desktop_csv(pe_viz, DATA), "Hub in the page against pe-viz weights")
            report["hub-model"] += f"; and to `pe-viz weights --model tests/data/stories260K --csv` ({worst:.1e})"
        # A file held in place: over the threshold (lowered here to 0) it never enters the
        # page's file system; File.slice reads its header and q/k rows.
        s.page.evaluate("Module.peViz.inPlaceBytes = 0; 1")
        start = len(s.page.console)
        s.page.evaluate(drop_files_js([("model.safetensors", base64.b64encode(weights).decode())]))
        s.page.wait_for(lambda: s.page.evaluate("!!Module.peViz.held['model.safetensors']"), timeout=20, what="the file held")
        line = console_line(s, start, "pe-viz: weights of model.safetensors:", timeout=60)
        check(": read, " in line, f"the held file was not read: {line}")
        check(not s.page.evaluate("Module.FS.analyzePath('/files/model.safetensors').exists"),
              "the held file was copied into the page's file system")
        s.settle(0.5)
        held_moved = bytes_moved(line)
        check(0 < held_moved < size, f"{held_moved} bytes sliced out of a {size}-byte file")
        s.screenshot("held-weights-frequency-usage")
        held = copied_csv(s)
        rows, worst = same_numbers(held, from_memory, "held file against the page's memory")
        report["held-weights"] = (f"model.safetensors held (not in MEMFS), {held_moved} of {size} bytes sliced; {rows} CSV "
                                  f"rows equal ({worst:.1e})")
    finally:
        hub.close()


def test_hub_errors(s, report):
    """A gated model without a token says so and how to give one in the page; with the token
    typed (kept in memory only) it opens, the token never going to the download host; a server
    that answers a range request with the whole file is stopped and named."""
    hub = TestHub()
    try:
        page = "index.html?hf_endpoint=" + urllib.parse.quote(hub.endpoint, safe="")
        s.open("view=rope-cos", path=page)
        start = len(s.page.console)
        s.page.evaluate("location.hash = " + json.dumps("view=inspector&model=" + GATED) + "; 1")
        line = console_line(s, start, "pe-viz: model " + GATED + " not opened:", timeout=30)
        check("gated" in line and "Hub token field" in line, f"the gated model's message: {line}")
        # The token, typed into the page (here set as its field sets it), in memory only.
        s.page.evaluate("Module.peViz.setHubToken('hf_granted', false); 1")
        hub.control("reset=1")
        s.page.evaluate("location.hash = " + json.dumps("view=inspector&model=" + GATED + "&theta=777") + "; 1")
        s.wait_fragment(lambda k: k.get("dim") == "8", timeout=30, what="the gated model opened with its token")
        line = read_in_page(s, GATED)
        stats = hub.stats()
        check(stats["preflights"] > 0, "a token was sent without the browser asking first (no CORS preflight?)")
        leaked = [r["path"] for r in stats["requests"] if r["port"] == "cdn" and r["authorization"]]
        check(not leaked, f"the token went to the download host: {leaked}")
        check(s.page.evaluate("window.localStorage.getItem('pe-viz.hf-token')") is None, "the token was stored unasked")
        report["hub-gated"] = (f"{GATED}: refused without a token (message names the page's token field); with it: "
                               f"opened, weights read ({bytes_moved(line)} bytes), {stats['preflights']} preflights, the token "
                               f"never sent to the download host, not in local storage")
        # A server that ignores Range: the page stops it at its headers and says so.
        hub.control("ignore_range=1")
        start = len(s.page.console)
        s.page.evaluate("Module.peViz.readWeights(" + json.dumps(GATED) + "); 1")
        line = console_line(s, start, "pe-viz: weights of " + GATED + ":", timeout=60)
        check("not read" in line and "whole file" in line, f"a 200 to a range request: {line}")
        report["hub-range-ignored"] = line.split(": not read: ", 1)[-1][:160]
    finally:
        hub.close()


def sharded(weights, parts=2):
    """stories260K's model.safetensors as a sharded checkpoint: {file name: bytes}, the index."""
    n = int.from_bytes(weights[:8], "little")
    header = json.loads(weights[8:8 + n])
    data = weights[8 + n:]
    names = sorted(k for k in header if k != "__metadata__")
    files, weight_map = {}, {}
    for k in range(parts):
        fname = f"model-{k + 1:05d}-of-{parts:05d}.safetensors"
        mine = names[k::parts]
        h, body, at = {"__metadata__": {"format": "pt"}}, b"", 0
        for name in mine:
            a, b = header[name]["data_offsets"]
            h[name] = {"dtype": header[name]["dtype"], "shape": header[name]["shape"], "data_offsets": [at, at + b - a]}
            body += data[a:b]
            at += b - a
            weight_map[name] = fname
        text = json.dumps(h).encode()
        text += b" " * ((8 - len(text) % 8) % 8)
        files[fname] = len(text).to_bytes(8, "little") + text + body
    index = json.dumps({"metadata": {"total_size": len(data)}, "weight_map": weight_map}).encode()
    return files, index


def test_sharded_drop(s, report):
    """A sharded checkpoint's files dropped together (config.json, the index, the shards): the
    index is read, not a shard on its own; with the shards held in place and with them copied
    into the page, the numbers of the single file."""
    with open(os.path.join(DATA, "config.json"), "rb") as f:
        config = f.read()
    with open(os.path.join(DATA, "model.safetensors"), "rb") as f:
        weights = f.read()
    shards, index = sharded(weights)
    b64 = lambda data: base64.b64encode(data).decode()  # noqa: E731
    s.open("view=rope-cos")
    s.page.evaluate(drop_files_js([("config.json", b64(config)), ("model.safetensors", b64(weights))]))
    s.page.wait_for(lambda: s.page.evaluate("Module.FS.analyzePath('/files/model.safetensors').exists"), timeout=20,
                    what="the single file dropped")
    read_in_page(s, "model.safetensors")
    whole = copied_csv(s)
    results = []
    for threshold, how in (("1e12", "copied into the page"), ("0", "held in place")):
        s.page.evaluate(f"Module.peViz.inPlaceBytes = {threshold}; 1")
        start = len(s.page.console)
        # The shards last: the index, dropped with them, is still what is read.
        s.page.evaluate(drop_files_js([("model.safetensors.index.json", b64(index)), ("config.json", b64(config))] +
                                      [(name, b64(data)) for name, data in shards.items()]))
        line = console_line(s, start, "pe-viz: weights of ", timeout=60)
        check("model.safetensors.index.json: read" in line, f"shards dropped {how}: {line}")
        held = s.page.evaluate("Object.keys(Module.peViz.held).filter(function (k) { return k.indexOf('-of-') > 0; }).length")
        check(held == (len(shards) if threshold == "0" else 0), f"{held} shards held when {how}")
        s.settle(0.5)
        rows, worst = same_numbers(copied_csv(s), whole, f"sharded, {how}, against the single file")
        results.append(f"{how}: {bytes_moved(line)} bytes moved, {rows} rows equal")
    report["sharded-drop"] = f"{len(shards)} shards + index + config.json dropped together: " + "; ".join(results)


def renderer_pids(browser_pid):
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                pgid = int(f.read().rsplit(")", 1)[1].split()[2])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read()
        except (OSError, ValueError, IndexError):
            continue
        if pgid == browser_pid and b"--type=renderer" in cmd:
            pids.append(int(entry))
    return pids


def status_kib(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def test_held_checkpoint_memory(s, report):
    """A Llama-3-8B-shaped bf16 checkpoint (4 shards, 16 GB, sparse on disk) held by the page and
    read in place: the tab's peak memory."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
    from hub_bench import write_checkpoint  # noqa: E402
    work = tempfile.mkdtemp(prefix="pe-viz-webmem-")
    try:
        folder = os.path.join(work, "llama-8b")
        sizes = write_checkpoint(folder, 32)
        total = sum(os.path.getsize(os.path.join(folder, f)) for f in sizes["files"])
        s.open("view=frequency-usage")
        # The files as a file dialog gives them (File objects backed by the disk).
        s.page.evaluate("(function () { var i = document.createElement('input'); i.type = 'file'; i.multiple = true;"
                        " i.id = 'pe-test-files'; document.body.appendChild(i); return 1; })()")
        doc = s.page.call("DOM.getDocument")
        node = s.page.call("DOM.querySelector", nodeId=doc["root"]["nodeId"], selector="#pe-test-files")
        s.page.call("DOM.setFileInputFiles", nodeId=node["nodeId"], files=[os.path.join(folder, f) for f in sizes["files"]])
        with open(os.path.join(folder, "config.json"), "rb") as f:
            config = f.read().decode()
        with open(os.path.join(folder, "model.safetensors.index.json"), "rb") as f:
            index = f.read().decode()
        s.page.evaluate("(function () { var files = document.getElementById('pe-test-files').files;"
                        " for (var k = 0; k < files.length; ++k) Module.peViz.held[files[k].name] = files[k];"
                        " Module.FS.writeFile('/files/config.json', " + json.dumps(config) + ");"
                        " Module.FS.writeFile('/files/model.safetensors.index.json', " + json.dumps(index) + "); return 1; })()")
        pids = renderer_pids(s.browser.process.pid)
        for pid in pids:  # the peak from here on (Linux: "5" resets VmHWM)
            try:
                with open(f"/proc/{pid}/clear_refs", "w") as f:
                    f.write("5")
            except OSError:
                pass
        before = {pid: status_kib(pid, "VmRSS") for pid in pids}
        started = time.monotonic()
        line = read_in_page(s, "model.safetensors.index.json", timeout=900)
        seconds = time.monotonic() - started
        peak = max(status_kib(pid, "VmHWM") for pid in pids)
        wasm = s.page.evaluate("Module.HEAPU8.length")
        heap = s.page.call("Runtime.getHeapUsage")
        s.screenshot("held-8b-frequency-usage")
        moved = bytes_moved(line)
        report["hub-memory"] = (f"8B-shaped bf16, 4 shards, {total / 2**30:.1f} GiB held in place: {moved / 2**30:.2f} GiB sliced "
                                f"(q/k {sizes['qk'] / 2**30:.2f} GiB + headers) in {seconds:.0f} s; renderer peak RSS "
                                f"{peak / 2**20:.2f} GiB (before the read {max(before.values()) / 2**20:.2f} GiB), wasm memory "
                                f"{wasm / 2**20:.0f} MiB, JS heap {heap['usedSize'] / 2**20:.0f} MiB")
        check(peak < 2 * 2**20, f"the tab's peak memory {peak / 2**20:.2f} GiB is over 2 GiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)
