#!/usr/bin/env python3
"""Writes the page-for-disk script (site-file/pe-viz.js): the site's pe-viz.js with its
pe-viz.wasm inside.

A page opened from disk (file://) cannot fetch a .wasm. Emscripten's glue takes the program's
bytes from Module.wasmBinary when the page has set it, and then fetches nothing; the line put
before the glue sets it from the wasm in base64. One link thus serves both sites, where
-sSINGLE_FILE would link (and optimise) the whole program a second time.

    single_file.py PE_VIZ_JS PE_VIZ_WASM OUT_JS
"""
import base64
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: single_file.py PE_VIZ_JS PE_VIZ_WASM OUT_JS")
    js_path, wasm_path, out_path = sys.argv[1:]
    with open(wasm_path, "rb") as f:
        wasm = base64.b64encode(f.read()).decode("ascii")
    with open(js_path, encoding="utf-8") as f:
        glue = f.read()
    # The page (index.html) makes window.Module before it loads the script.
    prefix = ("(window.Module = window.Module || {}).wasmBinary = (function (s) {"
              " var b = atob(s), a = new Uint8Array(b.length);"
              " for (var i = 0; i < b.length; i++) a[i] = b.charCodeAt(i); return a; })(\"" + wasm + "\");\n")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(prefix + glue)


if __name__ == "__main__":
    main()
