#!/usr/bin/python3
"""The browser build in a real browser: Debian's headless Chromium (WebGL 2 on SwiftShader)
driven over the DevTools protocol, the site served from 127.0.0.1 on a free port.

    /usr/bin/python3 tests/web/run_web_tests.py --site build-web/site [--pe-viz build/pe-viz]
        [--only NAME ...] [--shots DIR] [--bench] [--memory]

Checks: every view draws a picture that is not blank, with the title contract
(document.title becomes "pe-viz · VIEW" once a frame of VIEW is drawn); the URL fragment
round trip and a bad key (named in the status line, the app opens anyway); a key press
changes the view; a slider drag changes θ; → advances a lesson slide; a dropped config.json
changes the frequencies; a link opens no file or lesson file (not even a dropped one); a Hub
model by name (#model=, the stand-in Hub of tests/hub) and a held weights file read by range
give the numbers of the whole file (tests/web/hub_checks.py; --memory: an 8B-shaped checkpoint);
PNG and CSV downloads; the session kept in local storage; a
browser without WebGL 2 gets a page that says so; `pe-viz export --lesson … --interactive`
opens from disk (with --pe-viz). On an emulated phone (390 × 844 CSS px, pixel ratio 3)
and tablet (768 × 1024, 2) with a touch screen: every view drawn with no text cut (the
app's own report, app/ui/cut_text.hpp), the parameter drawer opened by a tap, a slider
dragged and a plot panned by a finger, the page never scrolled or zoomed, a lesson turned
by a tap on Next and by swipes. --bench reports first-frame time and frame medians.
Exit status 0 when every check passed.
"""

import argparse
import base64
import json
import os
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from devtools import Browser, DevToolsError, StaticServer  # noqa: E402
from pngread import read_png, region_colours  # noqa: E402
import hub_checks  # noqa: E402

WIDTH, HEIGHT = 1280, 800


class Failure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def fragment_keys(fragment):
    keys = {}
    for part in fragment.split("&"):
        if part:
            key, _, value = part.partition("=")
            keys[key] = value.replace("+", " ")
    return keys


class Session:
    """One browser tab on the served site, with helpers that wait for the app."""

    def __init__(self, browser, server, shots):
        self.browser, self.server, self.shots = browser, server, shots
        self.page = browser.page()
        self.page.set_size(WIDTH, HEIGHT)

    def open(self, fragment="", fresh_storage=True, path="index.html"):
        """A new page load (not a fragment change) at `fragment`; returns when the first frame
        is on screen (the title names a view)."""
        page = self.page
        page.navigate("about:blank")
        page.pump(0.1)
        if fresh_storage:
            page.call("Storage.clearDataForOrigin", origin=self.server.url("")[:-1], storageTypes="local_storage")
        started = time.monotonic()
        page.navigate(self.server.url(path) + ("#" + fragment if fragment else ""))
        page.wait_for(lambda: (page.title() or "").startswith("pe-viz ·"), timeout=60, what="the first frame (title)")
        return time.monotonic() - started

    def wait_title(self, title, timeout=30):
        self.page.wait_for(lambda: self.page.title() == title, timeout=timeout, what=f"title '{title}'")

    def wait_fragment(self, condition, timeout=10, what="the URL fragment"):
        return self.page.wait_for(lambda: condition(fragment_keys(self.page.fragment())) and self.page.fragment(),
                                  timeout=timeout, what=what)

    def screenshot(self, name=None):
        data = self.page.screenshot()
        if self.shots and name:
            os.makedirs(self.shots, exist_ok=True)
            with open(os.path.join(self.shots, name + ".png"), "wb") as f:
                f.write(data)
        return read_png(data)

    def settle(self, seconds=0.6):
        self.page.pump(seconds)

    def console_text(self):
        return "\n".join(self.page.console)


# ---------------------------------------------------------------------------- the checks

def view_names(s):
    """The app's own list: a bad view in a link is named with the allowed ones."""
    s.open("view=no-such-view")
    text = s.page.wait_for(lambda: next((m for m in s.page.console if "no-such-view" in m), None), timeout=10,
                           what="the message naming the bad view")
    check("one of " in text, "the bad view's message lists no views: " + text)
    names = text.split("one of ", 1)[1].split(")")[0].split(", ")
    check(len(names) >= 20 and "rope-cos" in names, f"view list looks wrong: {names}")
    return names


def test_every_view_draws(s, report):
    names = view_names(s)
    s.open("view=" + names[0])
    # Long tasks (main thread busy > 50 ms) while each view draws: the page must not freeze.
    s.page.evaluate("window.peLong = []; new PerformanceObserver(l => l.getEntries().forEach(e => "
                    "window.peLong.push([location.hash, Math.round(e.duration)]))).observe({type: 'longtask'}); 1")
    blank = []
    for name in names:
        # A link changed in the open page opens as a new one would (and is quicker to test).
        s.page.evaluate(f"location.hash = 'view={name}'; 1")
        s.wait_title(f"pe-viz · {name}")
        s.settle(0.5)
        png = s.screenshot(f"view-{name}")
        colours = region_colours(png, 0.32, 0.12, 0.98, 0.9)
        if len(colours) < 12:
            blank.append(f"{name} ({len(colours)} colours)")
    longest = s.page.evaluate("window.peLong.reduce((m, e) => e[1] > m[1] ? e : m, ['', 0])")
    report["longest_task_switching_views"] = longest
    check(not blank, "views that drew (next to) nothing: " + ", ".join(blank))


def test_fragment_round_trip(s, report):
    elapsed = s.open("view=rope-cos&preset=llama-3.1-8b&theta=1000000&length=8192")
    report["first_frame_seconds_rope_cos_llama"] = round(elapsed, 2)
    check(s.page.title() == "pe-viz · rope-cos", "title: " + s.page.title())
    history = s.page.evaluate("history.length")
    # The page writes its state back (history.replaceState), canonical: preset, then what differs.
    written = s.wait_fragment(lambda k: k.get("theta") == "1000000" and k.get("view") == "rope-cos",
                              what="theta=1000000 written back")
    keys = fragment_keys(written)
    check(keys.get("preset") == "llama-3.1-8b", "preset lost in " + written)
    check(keys.get("length", "8192") == "8192", "length changed in " + written)
    # Each change of state rewrites the address; pushing would add an entry per change (per
    # slider step), replacing keeps the one entry. Up: the next dimension pair.
    for pair in ("1", "2", "3"):
        s.page.key("ArrowUp", code="ArrowUp", key_code=38)
        s.wait_fragment(lambda k: k.get("pair") == pair, what=f"pair={pair} after ↑")
    after = s.page.evaluate("history.length")
    check(after == history, f"following the state added history entries ({history} → {after})")

    # A bad key and a bad value: the app opens anyway; the status line names them.
    s.open("view=relative-score&theta=abc&dim=63&bogus=1&length=300")
    check(s.page.title() == "pe-viz · relative-score", "title: " + s.page.title())
    message = next((m for m in s.page.console if "Link: left out" in m), "")
    for key in ("theta", "dim", "bogus"):
        check(key + " (" in message, f"the status line does not name '{key}': {message!r}")
    written = s.wait_fragment(lambda k: k.get("length") == "300", what="length=300 kept")
    check("bogus" not in written and "theta" not in written, "bad keys written back: " + written)
    s.screenshot("bad-key-status-line")


def test_key_changes_view(s, report):
    s.open("view=rope-cos")
    s.settle(0.3)
    s.page.key("3", code="Digit3", key_code=51, text="3")
    s.page.wait_for(lambda: s.page.title() not in ("pe-viz · rope-cos", ""), timeout=10, what="another view after key 3")
    after = s.page.title()
    s.page.key("PageDown", code="PageDown", key_code=34)
    s.page.wait_for(lambda: s.page.title() != after, timeout=10, what="another group after Page Down")
    report["keys"] = f"3 → {after}, Page Down → {s.page.title()}"


def test_slider_changes_theta(s, report):
    s.open("view=rope-spectrum")
    s.settle(0.3)
    before = fragment_keys(s.page.fragment()).get("theta", "10000")
    # The θ slider: the first control under "Encoding" in the parameter panel (1× UI,
    # 1280×800); a drag to the right raises θ.
    s.page.drag(100, 122, 210, 122, steps=12)
    written = s.wait_fragment(lambda k: k.get("theta", "10000") != before, what="θ changed by the drag")
    theta = float(fragment_keys(written)["theta"])
    check(theta > 10000, f"θ went down, not up: {theta}")
    report["slider"] = f"θ 10000 → {theta:g}"
    s.screenshot("slider-dragged")


def test_lesson_slides(s, report):
    s.open("lesson=positional-encoding-101")
    first = s.page.title()
    s.wait_fragment(lambda k: k.get("slide") == "1", what="slide=1")
    s.settle(0.3)
    s.page.key("ArrowRight", code="ArrowRight", key_code=39)
    s.wait_fragment(lambda k: k.get("slide") == "2", what="slide=2 after →")
    s.page.wait_for(lambda: s.page.title() != first, timeout=10, what="slide 2's view in the title")
    s.settle(1.5)  # the glide between slides
    s.screenshot("lesson-slide-2")
    report["lesson"] = f"{first} → {s.page.title()}"


CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "num_hidden_layers": 32,
    "max_position_embeddings": 131072,
    "rope_theta": 777777.0,
    "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                     "original_max_position_embeddings": 8192},
}


def drop_file(s, name, text):
    """A file dropped onto the canvas, as a person drags one from their desktop."""
    s.page.evaluate(
        "(function () { var dt = new DataTransfer();"
        f" dt.items.add(new File([{json.dumps(text)}], {json.dumps(name)}, {{type: 'application/json'}}));"
        " var c = document.getElementById('canvas');"
        " c.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));"
        " c.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true})); return 1; })()")


def test_dropped_config(s, report):
    s.open("view=inspector")
    drop_file(s, "config.json", json.dumps(CONFIG))
    written = s.wait_fragment(lambda k: k.get("theta") == "777777", what="θ of the dropped config")
    keys = fragment_keys(written)
    check(keys.get("dim") == "128" and keys.get("scaling") == "llama3", "dropped config not applied: " + written)
    s.settle(0.8)
    png = s.screenshot("inspector-dropped-config")
    check(len(region_colours(png, 0.32, 0.12, 0.98, 0.9)) >= 12, "inspector drew nothing")
    # The file picker's way in (File → Open model file…) goes through the same files.
    s.page.evaluate("Module.peViz.addFiles([new File([" + json.dumps(json.dumps(dict(CONFIG, rope_theta=123456.0)))
                    + "], 'picked.json')], 'model'); 1")
    s.wait_fragment(lambda k: k.get("theta") == "123456", what="θ of the picked config")
    report["config"] = "dropped θ 777777 (llama3 ×8, d 128), picked θ 123456"


def test_link_opens_no_files(s, report):
    """A link is input anyone can send: it sets what is shown and opens no file, model or lesson
    file, not even one the reader dropped onto this page before (the page keeps them in /files/).
    The reader pastes such a link into the open page: its other keys apply, the rest are named."""
    s.open("view=inspector")
    drop_file(s, "config.json", json.dumps(CONFIG))
    s.wait_fragment(lambda k: k.get("theta") == "777777", what="θ of the dropped config")
    link = ("view=rope-cos&config=/files/config.json&gguf=/files/config.json&weights=/files&model=/files/config.json"
            "&lesson=/files/config.json&theta=20000")
    s.page.evaluate("location.hash = " + json.dumps(link) + "; 1")
    # What the app writes back once it followed the link (the link itself is there at first).
    written = s.wait_fragment(lambda k: k.get("theta") == "20000" and k.get("view") == "rope-cos" and "lesson" not in k,
                              what="the link's other keys applied")
    s.wait_title("pe-viz · rope-cos")
    message = next((m for m in reversed(s.page.console) if "Link: left out" in m), "")
    for key in ("config", "gguf", "weights", "model", "lesson"):
        check(key + " (" in message, f"the status line does not name '{key}': {message!r}")
    keys = fragment_keys(written)
    # Opened from the defaults: the dropped file's d = 128 and llama3 scaling were not read again.
    check("dim" not in keys and "scaling" not in keys and "config" not in keys, "a file was opened: " + written)
    report["link-no-files"] = "config, gguf, weights, model, lesson file refused; " + written


def test_dropped_weights(s, report):
    """A trained checkpoint (tests/data/stories260K: config.json + model.safetensors) dropped onto
    the page together, as a model folder's files: the frequency-usage view reads its q/k weights."""
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "stories260K")
    with open(os.path.join(data, "config.json"), "rb") as f:
        config = f.read()
    with open(os.path.join(data, "model.safetensors"), "rb") as f:
        weights = f.read()
    s.open("view=rope-cos")
    s.page.evaluate(
        "(function () { function bytes(b64) { var s = atob(b64), a = new Uint8Array(s.length);"
        " for (var i = 0; i < s.length; ++i) a[i] = s.charCodeAt(i); return a; }"
        " var dt = new DataTransfer();"
        f" dt.items.add(new File([bytes('{base64.b64encode(config).decode()}')], 'config.json'));"
        f" dt.items.add(new File([bytes('{base64.b64encode(weights).decode()}')], 'model.safetensors'));"
        " var c = document.getElementById('canvas');"
        " c.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true})); return 1; })()")
    s.wait_title("pe-viz · frequency-usage", timeout=30)
    # The view's note names the measured share once the weights are read (a worker, or in place).
    s.page.wait_for(lambda: "stories260K" in s.console_text() or s.page.evaluate(
        "document.title") == "pe-viz · frequency-usage", timeout=30, what="the weights read")
    s.settle(2.0)
    png = s.screenshot("frequency-usage-dropped-weights")
    # A layers × pairs heatmap: many colours where the empty view draws one line.
    colours = region_colours(png, 0.32, 0.12, 0.98, 0.9)
    check(len(colours) >= 40, f"no heatmap after the weights were dropped ({len(colours)} colours)")
    report["weights"] = f"stories260K dropped (config.json + {len(weights)} B model.safetensors): {len(colours)} colours"


def downloaded(browser, suffix, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = [f for f in os.listdir(browser.downloads) if f.endswith(suffix)]
        if done:
            path = os.path.join(browser.downloads, done[0])
            time.sleep(0.2)
            return path
        time.sleep(0.1)
    raise Failure(f"no {suffix} download within {timeout} s (offered: {os.listdir(browser.downloads)})")


def test_downloads(s, report):
    s.open("view=relative-score")
    s.settle(0.3)
    for f in os.listdir(s.browser.downloads):
        os.remove(os.path.join(s.browser.downloads, f))
    # Ctrl+E opens the export dialog, Enter exports (a download named as the file would be).
    s.page.key("e", code="KeyE", key_code=69, hold=("Control",))
    s.settle(0.4)
    s.screenshot("export-dialog")
    s.page.key("Enter", code="Enter", key_code=13, text="\r")
    path = downloaded(s.browser, ".png")
    with open(path, "rb") as f:
        width, height, rows = read_png(f.read())
    check(width >= 320 and height >= 200, f"PNG of {width}×{height}")
    check(len({rows[y][4 * x:4 * x + 3] for y in range(0, height, 7) for x in range(0, width, 7)}) > 12,
          "the downloaded PNG is blank")
    report["png_download"] = f"{os.path.basename(path)}: {width}×{height}"
    # File → Download CSV: the numbers behind the view.
    s.page.click(22, 11)
    s.settle(0.3)
    s.screenshot("file-menu")
    s.page.click(60, 57)  # the second item, Download CSV (20 px a row at 1×)
    path = downloaded(s.browser, ".csv")
    with open(path) as f:
        lines = f.read().splitlines()
    check(len(lines) > 10 and "," in lines[0], f"CSV: {lines[:2]}")
    report["csv_download"] = f"{os.path.basename(path)}: {len(lines)} lines"


def test_session_kept(s, report):
    s.open("view=clock-hands&theta=20000")
    s.settle(2.8)  # the page keeps its session every 2 s when it changed
    stored = s.page.evaluate("localStorage.getItem('pe-viz.last-session')") or ""
    check('"clock-hands"' in stored, "no session in local storage: " + stored[:200])
    s.open("", fresh_storage=False)
    s.wait_title("pe-viz · clock-hands")
    written = s.wait_fragment(lambda k: k.get("theta") == "20000", what="θ restored from local storage")
    report["session"] = "restored " + written


def test_no_webgl2(s, report, site):
    with Browser(WIDTH, HEIGHT, extra_flags=["--disable-3d-apis"]) as plain, StaticServer(site) as server:
        page = plain.page()
        page.navigate(server.url("index.html"))
        page.wait_for(lambda: page.title() == "pe-viz · cannot run here", timeout=20, what="the no-WebGL page")
        text = page.evaluate("document.getElementById('pe-missing').innerText")
        check("WebGL 2" in text and "scripts/run.sh" in text, "the page does not say what is missing: " + text)


def test_interactive_export(s, report, pe_viz):
    with tempfile.TemporaryDirectory(prefix="pe-viz-lesson-") as out:
        import subprocess
        result = subprocess.run([pe_viz, "export", "--lesson", "positional-encoding-101", out, "--interactive"],
                                capture_output=True, text=True, timeout=120)
        check(result.returncode == 0, "export --interactive failed: " + result.stderr + result.stdout)
        page = s.page
        page.navigate("about:blank")
        page.pump(0.1)
        started = time.monotonic()
        page.navigate("file://" + os.path.join(out, "index.html"))
        page.wait_for(lambda: (page.title() or "").startswith("pe-viz ·"), timeout=60, what="the lesson page from disk")
        report["first_frame_seconds_file_lesson"] = round(time.monotonic() - started, 2)
        s.wait_fragment(lambda k: k.get("slide") == "1" and "lesson" not in k, what="slide=1 of the built-in lesson")
        first = page.title()
        s.settle(0.5)
        s.screenshot("interactive-lesson-slide-1")
        page.key("ArrowRight", code="ArrowRight", key_code=39)
        s.wait_fragment(lambda k: k.get("slide") == "2", what="slide=2 from disk")
        page.wait_for(lambda: page.title() != first, timeout=10, what="slide 2's view")


# ---------------------------------------------------------------------------- phones and tablets

PHONE = ("phone", 390, 844, 3.0)
TABLET = ("tablet", 768, 1024, 2.0)
# The dark theme's slider grab (ImGui's StyleColorsDark: SliderGrab 0.24, 0.52, 0.88).
SLIDER_GRAB = (61, 133, 224)


class OnDevice:
    """The tab as a phone or tablet with a touch screen while it lives; the desktop after."""

    def __init__(self, s, device):
        self.s, (self.name, self.width, self.height, self.ratio) = s, device

    def __enter__(self):
        self.s.page.set_device(self.width, self.height, self.ratio)
        return self

    def __exit__(self, *exc):
        self.s.page.set_size(WIDTH, HEIGHT)

    def shot(self, name=None, scale=None):
        """The screen at `scale` image pixels per CSS pixel (default: one, so that an image
        pixel is where a finger goes)."""
        data = self.s.page.screenshot(clip=(self.width, self.height, (scale or 1.0) / self.ratio))
        if self.s.shots and name:
            os.makedirs(self.s.shots, exist_ok=True)
            with open(os.path.join(self.s.shots, f"{self.name}-{name}.png"), "wb") as f:
                f.write(data)
        return read_png(data)

    def text_check(self):
        """The app's report on the frame it draws next: {cuts: [...], drawer: bool}."""
        return self.s.page.evaluate("Module.peViz.checkText()", timeout=30)

    def page_still(self):
        """The page itself neither scrolled nor zoomed under the fingers."""
        state = self.s.page.evaluate("[window.scrollX, window.scrollY, window.visualViewport ? visualViewport.scale : 1]")
        check(state == [0, 0, 1], f"the page scrolled or zoomed on the {self.name}: scroll, zoom = {state}")


def grab_rows(png, colour=SLIDER_GRAB, tolerance=6, y_from=0.0):
    """(y, x0, x1) of each image row holding the slider grab's colour, from y_from (fraction) down."""
    width, height, rows = png
    found = []
    for y in range(int(y_from * height), height):
        row = rows[y]
        xs = [x for x in range(width) if all(abs(row[4 * x + c] - colour[c]) <= tolerance for c in range(3))]
        if len(xs) >= 3:
            found.append((y, xs[0], xs[-1]))
    return found


def differs(a, b, box):
    """Whether two screenshots of one size differ inside box (fractions x0, y0, x1, y1)."""
    width, height, rows_a = a
    rows_b = b[2]
    x0, x1 = int(box[0] * width) * 4, int(box[2] * width) * 4
    return any(rows_a[y][x0:x1] != rows_b[y][x0:x1] for y in range(int(box[1] * height), int(box[3] * height)))


def every_view_on(s, report, device, names):
    with OnDevice(s, device) as d:
        s.open("view=" + names[0])
        shape = s.page.evaluate("[innerWidth, innerHeight, devicePixelRatio, Module.canvas.width, Module.canvas.height]")
        check(shape == [d.width, d.height, d.ratio, round(d.width * d.ratio), round(d.height * d.ratio)],
              f"the {d.name} page is not laid out as one (CSS size, ratio, canvas pixels): {shape}")
        cut, blank = [], []
        for name in names:
            s.page.evaluate(f"location.hash = 'view={name}'; 1")
            s.wait_title(f"pe-viz · {name}")
            s.settle(0.3)
            result = d.text_check()
            cut += [f"{name}: {c['kind']} '{c['text']}' in {c['window']}" for c in result["cuts"]]
            # A small picture (a sixth of the CSS pixels) is enough to tell a view from a blank one.
            colours = region_colours(d.shot(scale=1 / 2, name=None), 0.05, 0.15, 0.95, 0.95, step=1)
            if len(colours) < 12:
                blank.append(f"{name} ({len(colours)} colours)")
        d.shot(f"{names[-1]}")
        check(not cut, f"text cut on the {d.name}: " + "; ".join(cut[:12]))
        check(not blank, f"views that drew (next to) nothing on the {d.name}: " + ", ".join(blank))
        report[f"{d.name} views"] = f"{len(names)} views, no text cut"


def test_phone_and_tablet_views(s, report):
    names = view_names(s)
    for device in (PHONE, TABLET):
        every_view_on(s, report, device, names)


def test_touch(s, report):
    """On the phone: a tap opens the drawer, a drag on θ's slider changes θ and the picture,
    a drag on the heatmap pans it, and the page stays put."""
    with OnDevice(s, PHONE) as d:
        s.open("view=rope-cos")
        s.settle(0.5)
        s.page.tap(60, 14)  # the menu bar's first item: "≡ Parameters"
        s.page.wait_for(lambda: d.text_check()["drawer"], timeout=10, what="the drawer opened by a tap")
        s.settle(0.4)
        result = d.text_check()
        check(not result["cuts"], f"text cut in the open drawer: {result['cuts'][:6]}")
        before = d.shot("drawer-open")
        # θ's slider: the first row of grab colour in the drawer (the lower part of the screen).
        rows = grab_rows(before, y_from=0.45)
        check(rows, "no slider grab found in the drawer")
        y, x0, x1 = rows[0]
        grab_y = y + 4
        theta_before = fragment_keys(s.page.fragment()).get("theta", "10000")
        s.page.touch_drag((x0 + x1) / 2, grab_y, (x0 + x1) / 2 + 60, grab_y, steps=12)
        written = s.wait_fragment(lambda k: k.get("theta", "10000") != theta_before, what="θ changed by a finger")
        theta = float(fragment_keys(written)["theta"])
        check(theta > 10000, f"θ went down, not up, dragged to the right: {theta}")
        s.settle(0.5)
        after = d.shot("slider-dragged")
        check(differs(before, after, (0.05, 0.1, 0.95, 0.4)), "the picture did not change with θ")
        d.page_still()
        report["touch slider"] = f"θ 10000 → {theta:g} by a finger; the view redrawn"
        # Close the drawer (a tap on the same button), then pan the heatmap sideways.
        s.page.tap(60, 14)
        s.page.wait_for(lambda: not d.text_check()["drawer"], timeout=10, what="the drawer closed by a tap")
        s.settle(0.4)
        still = d.shot()
        s.page.touch_drag(d.width * 0.55, d.height * 0.45, d.width * 0.3, d.height * 0.45, steps=10)
        s.settle(0.4)
        panned = d.shot("heatmap-panned")
        check(differs(still, panned, (0.1, 0.3, 0.9, 0.6)), "a finger's drag on the heatmap did not pan it")
        check(fragment_keys(s.page.fragment()).get("theta") == fragment_keys(written).get("theta"),
              "panning changed a parameter")
        d.page_still()
        report["touch pan"] = "the heatmap panned by a finger; the page did not scroll or zoom"


def test_touch_lesson(s, report):
    """A lesson on the phone: Next by a tap, then a swipe to the left (next) and to the right (back)."""
    for device in (PHONE, TABLET):
        with OnDevice(s, device) as d:
            s.open("lesson=positional-encoding-101")
            s.wait_fragment(lambda k: k.get("slide") == "1", what="slide=1")
            s.settle(0.5)
            result = d.text_check()
            check(not result["cuts"], f"text cut on slide 1 on the {d.name}: {result['cuts'][:6]}")
            d.shot("lesson-slide-1")
            # Next: the widest button of the row at the foot of the slide, across the middle;
            # 2.75 em tall under a padding of 1 em, at the lesson's UI scale (2×, but a phone
            # keeps 24 em across: 1× there).
            scale = max(1.0, min(2.0, int(d.width / 384 * 4) / 4))
            s.page.tap(d.width * 0.5, d.height - 38 * scale)
            s.wait_fragment(lambda k: k.get("slide") == "2", what=f"slide=2 after a tap on Next ({d.name})")
            s.settle(1.0)  # the glide
            # Swipes across the slide's text (the panel under the view).
            y = d.height * 0.74
            s.page.touch_drag(d.width * 0.85, y, d.width * 0.15, y, steps=8)
            s.wait_fragment(lambda k: k.get("slide") == "3", what=f"slide=3 after a swipe to the left ({d.name})")
            s.settle(1.0)
            result = d.text_check()
            check(not result["cuts"], f"text cut on slide 3 on the {d.name}: {result['cuts'][:6]}")
            d.shot("lesson-slide-3")
            s.page.touch_drag(d.width * 0.15, y, d.width * 0.85, y, steps=8)
            s.wait_fragment(lambda k: k.get("slide") == "2", what=f"slide=2 after a swipe to the right ({d.name})")
            d.page_still()
        report[f"touch lesson ({d.name})"] = "Next tapped → 2, swiped left → 3, right → 2"


def bench(s, report):
    """Frame times while θ sweeps 10^2 … 10^7 (bench=N): the teaching preset, then L = 10^6 in
    the views that work per position; the slowest frame is the longest the page stands still."""
    runs = [("rope-cos", "teaching", "")] + [(v, "L=1000000", "&length=1000000") for v in
                                            ("rope-cos", "sinusoidal", "relative-score", "rope-spectrum", "extrapolation",
                                             "scaling", "clock-hands", "attention")]
    slowest = ("", 0.0)
    for view, label, extra in runs:
        s.open(f"view={view}{extra}&bench=90")
        s.page.wait_for(lambda: "median" in s.page.title(), timeout=300, what="bench result")
        line = next((m for m in s.page.console if "pe-viz bench:" in m), s.page.title())
        report[f"bench {view} {label}"] = line.split("θ 1e2…1e7: ", 1)[-1]
        worst = float(line.rsplit("max ", 1)[-1].split(" ")[0]) if "max " in line else 0.0
        if worst > slowest[1]:
            slowest = (f"{view} {label}", worst)
    report["bench slowest frame"] = f"{slowest[1]:.0f} ms ({slowest[0]})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", required=True, help="the built site (build-web/site)")
    parser.add_argument("--pe-viz", help="the desktop binary, for export --interactive (skipped without)")
    parser.add_argument("--only", nargs="*", help="run only these checks")
    parser.add_argument("--shard", help="K/N: only every N-th check from the K-th (0-based), so N processes, "
                                        "each with its own browser, share the checks")
    parser.add_argument("--shots", help="keep the screenshots here")
    parser.add_argument("--bench", action="store_true", help="also measure frame times (bench=N)")
    parser.add_argument("--memory", action="store_true",
                        help="also read an 8B-shaped checkpoint (16 GB, sparse on disk) held in place; report the tab's memory")
    args = parser.parse_args()

    site = os.path.abspath(args.site)
    checks = [("every-view", test_every_view_draws), ("fragment", test_fragment_round_trip),
              ("keys", test_key_changes_view), ("slider", test_slider_changes_theta), ("lesson", test_lesson_slides),
              ("config-drop", test_dropped_config), ("link-no-files", test_link_opens_no_files),
              ("weights-drop", test_dropped_weights), ("downloads", test_downloads), ("session", test_session_kept),
              ("no-webgl2", lambda s, r: test_no_webgl2(s, r, site)),
              ("devices", test_phone_and_tablet_views), ("touch", test_touch), ("touch-lesson", test_touch_lesson)]
    checks.append(("sharded-drop", hub_checks.test_sharded_drop))
    checks.append(("hub-errors", hub_checks.test_hub_errors))
    checks.append(("hub-model", lambda s, r: hub_checks.test_hub_model(s, r, os.path.abspath(args.pe_viz) if args.pe_viz else None)))
    if args.memory:
        checks.append(("hub-memory", hub_checks.test_held_checkpoint_memory))
    if args.pe_viz:
        checks.append(("interactive-export", lambda s, r: test_interactive_export(s, r, os.path.abspath(args.pe_viz))))
    if args.bench:
        checks.append(("bench", bench))
    if args.only:
        checks = [c for c in checks if c[0] in args.only]
    if args.shard:
        k, _, n = args.shard.partition("/")
        if not (k.isdigit() and n.isdigit() and 0 <= int(k) < int(n)):
            parser.error(f"--shard wants K/N with 0 <= K < N, got '{args.shard}'")
        checks = checks[int(k)::int(n)]
    report, failed = {}, []
    started = time.monotonic()
    with StaticServer(site) as server, Browser(WIDTH, HEIGHT) as browser:
        s = Session(browser, server, args.shots)
        for name, fn in checks:
            t0 = time.monotonic()
            try:
                fn(s, report)
                print(f"ok   {name} ({time.monotonic() - t0:.1f} s)", flush=True)
            except (Failure, DevToolsError, Exception) as e:  # every failure is reported, the rest still run
                failed.append(name)
                print(f"FAIL {name} ({time.monotonic() - t0:.1f} s): {e}", flush=True)
                if not isinstance(e, (AssertionError, DevToolsError)):
                    traceback.print_exc()
                print("     console: " + " | ".join(s.page.console[-8:]), flush=True)
    for key, value in report.items():
        print(f"     {key}: {value}")
    print(f"{len(checks) - len(failed)} of {len(checks)} browser checks passed in {time.monotonic() - started:.0f} s"
          + (": failed " + ", ".join(failed) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
