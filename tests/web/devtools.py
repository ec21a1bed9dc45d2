"""A small driver for the browser tests: a static file server on 127.0.0.1 and Debian's
headless Chromium, spoken to over the Chrome DevTools protocol (JSON messages on a
WebSocket: https://chromedevtools.github.io/devtools-protocol/) with python3-websocket.

    with StaticServer(site) as server, Browser() as browser:
        page = browser.page()
        page.navigate(server.url("index.html#view=rope-cos"))
        page.wait_for(lambda: page.title() == "pe-viz · rope-cos")
        png = page.screenshot()

WebGL 2 runs on SwiftShader (Chromium's CPU renderer), so no GPU or display is needed.
"""

import base64
import functools
import http.server
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request

import websocket  # Debian: python3-websocket

CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-gpu-sandbox",
    "--use-gl=angle",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--remote-allow-origins=*",
    "--mute-audio",
]


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("no Chromium found (Debian: apt-get install chromium; scripts/web.sh installs it)")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript"}

    def log_message(self, *args):
        pass

    def end_headers(self):
        # Every test run sees the files as built now.
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class StaticServer:
    """Serves `root` on 127.0.0.1 at a free port until closed (a context manager)."""

    def __init__(self, root):
        handler = functools.partial(_QuietHandler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path=""):
        return f"http://127.0.0.1:{self.port}/{path}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


class DevToolsError(RuntimeError):
    pass


class Page:
    """One tab: commands and the events that arrived meanwhile."""

    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events = []
        self.console = []  # console messages and uncaught exceptions, as text
        self.call("Page.enable")
        self.call("Runtime.enable")

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass

    def _record(self, message):
        method = message.get("method", "")
        params = message.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console.append(f"{params.get('type')}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.console.append("exception: " + details.get("exception", {}).get("description", details.get("text", "")))
        self.events.append(message)
        del self.events[:-500]

    def call(self, method, timeout=60, **params):
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            self.ws.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                message = json.loads(self.ws.recv())
            except websocket.WebSocketTimeoutException:
                raise DevToolsError(f"{method}: no answer within {timeout} s")
            if message.get("id") == my_id:
                if "error" in message:
                    raise DevToolsError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._record(message)

    def pump(self, seconds=0.0):
        """Reads the events that arrive within `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            remaining = deadline - time.monotonic()
            self.ws.settimeout(max(0.01, remaining))
            try:
                self._record(json.loads(self.ws.recv()))
            except websocket.WebSocketTimeoutException:
                if remaining <= 0:
                    return

    def evaluate(self, expression, timeout=60):
        result = self.call("Runtime.evaluate", timeout=timeout, expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise DevToolsError(f"{expression}: {result['exceptionDetails']}")
        return result.get("result", {}).get("value")

    def navigate(self, url):
        self.console.clear()
        self.call("Page.navigate", url=url)

    def title(self):
        return self.evaluate("document.title")

    def fragment(self):
        return self.evaluate("decodeURIComponent(location.hash.substring(1))")

    def wait_for(self, condition, timeout=30.0, what="condition"):
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                raise DevToolsError(f"timed out after {timeout} s waiting for {what}; console: {self.console[-10:]}")
            self.pump(0.05)

    def screenshot(self, clip=None):
        """The page as PNG bytes; with clip = (width, height, scale) the top-left width × height
        CSS pixels at `scale` image pixels per CSS pixel (small images decode fast)."""
        params = {"format": "png"}
        if clip:
            params["clip"] = {"x": 0, "y": 0, "width": clip[0], "height": clip[1], "scale": clip[2]}
        data = self.call("Page.captureScreenshot", **params)["data"]
        return base64.b64decode(data)

    def set_size(self, width, height, scale=1.0):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=scale, mobile=False)
        self.call("Emulation.setTouchEmulationEnabled", enabled=False)

    def set_device(self, width, height, scale):
        """A phone or tablet: its CSS size and pixel ratio, the page laid out for a mobile
        viewport (the viewport meta applies), and a touch screen."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=scale, mobile=True)
        self.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)

    # ---- touch, as a finger on the emulated touch screen (CSS pixels)
    def touch(self, kind, points=()):
        self.call("Input.dispatchTouchEvent", type=kind, touchPoints=[{"x": x, "y": y} for x, y in points])

    def tap(self, x, y, hold=0.08):
        self.touch("touchStart", [(x, y)])
        self.pump(hold)
        self.touch("touchEnd")

    def touch_drag(self, x0, y0, x1, y1, steps=10, pause=0.03):
        self.touch("touchStart", [(x0, y0)])
        self.pump(pause)
        for k in range(1, steps + 1):
            self.touch("touchMove", [(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps)])
            self.pump(pause)
        self.touch("touchEnd")

    # ---- input, as the browser would get it from a person
    MODIFIER_KEYS = {"Control": (2, "ControlLeft", 17), "Shift": (8, "ShiftLeft", 16), "Alt": (1, "AltLeft", 18)}

    def key(self, key, code=None, key_code=0, text=None, hold=()):
        """A key pressed and released, with the modifier keys in `hold` ("Control", "Shift")
        pressed before and released after, as a person's fingers do (the page tracks modifier
        keys by their own key events, not by the event's flags)."""
        modifiers = 0
        for name in hold:
            bit, mod_code, mod_key_code = self.MODIFIER_KEYS[name]
            modifiers |= bit
            self.call("Input.dispatchKeyEvent", type="rawKeyDown", key=name, code=mod_code,
                      windowsVirtualKeyCode=mod_key_code, nativeVirtualKeyCode=mod_key_code, modifiers=modifiers)
        common = {"key": key, "code": code or key, "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code,
                  "modifiers": modifiers}
        down = dict(common, type="keyDown" if text is not None and not modifiers else "rawKeyDown")
        if text is not None and not modifiers:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", **down)
        self.call("Input.dispatchKeyEvent", type="keyUp", **common)
        for name in reversed(hold):
            bit, mod_code, mod_key_code = self.MODIFIER_KEYS[name]
            modifiers &= ~bit
            self.call("Input.dispatchKeyEvent", type="keyUp", key=name, code=mod_code,
                      windowsVirtualKeyCode=mod_key_code, nativeVirtualKeyCode=mod_key_code, modifiers=modifiers)

    def mouse(self, kind, x, y, button="none", buttons=0, click_count=0):
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button=button, buttons=buttons, clickCount=click_count)

    def drag(self, x0, y0, x1, y1, steps=10, pause=0.03):
        self.mouse("mouseMoved", x0, y0)
        self.pump(pause)
        self.mouse("mousePressed", x0, y0, button="left", buttons=1, click_count=1)
        self.pump(pause)
        for k in range(1, steps + 1):
            x = x0 + (x1 - x0) * k / steps
            y = y0 + (y1 - y0) * k / steps
            self.mouse("mouseMoved", x, y, button="left", buttons=1)
            self.pump(pause)
        self.mouse("mouseReleased", x1, y1, button="left", buttons=0, click_count=1)

    def click(self, x, y, pause=0.05):
        self.mouse("mouseMoved", x, y)
        self.pump(pause)
        self.mouse("mousePressed", x, y, button="left", buttons=1, click_count=1)
        self.pump(pause)
        self.mouse("mouseReleased", x, y, button="left", buttons=0, click_count=1)


class Browser:
    """Headless Chromium with a fresh profile, stopped (and its profile removed) on close."""

    def __init__(self, width=1280, height=800, extra_flags=()):
        self.profile = tempfile.mkdtemp(prefix="pe-viz-chromium-")
        self.downloads = os.path.join(self.profile, "downloads")
        os.makedirs(self.downloads)
        args = [chromium_binary(), *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
                f"--window-size={width},{height}", *extra_flags, "about:blank"]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + 30
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if self.process.poll() is not None:
                raise RuntimeError("chromium exited: " + self.process.stderr.read().decode(errors="replace")[-2000:])
            if time.monotonic() > deadline:
                self.close()
                raise RuntimeError("chromium did not open its DevTools port within 30 s")
            time.sleep(0.05)
        self.port = int(open(port_file).read().split()[0])
        self.pages = []

    def _json(self, path):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
            return json.loads(r.read())

    def page(self):
        """The first tab, with downloads going to self.downloads."""
        targets = [t for t in self._json("/json/list") if t.get("type") == "page"]
        page = Page(targets[0]["webSocketDebuggerUrl"])
        page.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=self.downloads)
        self.pages.append(page)
        return page

    def close(self):
        for p in self.pages:
            p.close()
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, 15)
            except ProcessLookupError:
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
