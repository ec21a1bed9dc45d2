#!/usr/bin/env python3
"""pe-viz against what its users do instead: a typical notebook's way ("visualize the
RoPE frequencies": a NumPy cos table of the RoPE angles, then matplotlib's imshow with the
RdBu colormap and a colour bar, saved as PNG) and `pe-viz export --view rope-cos` of the same
table, each as a whole process (interpreter or binary start-up included, as a user runs it),
at 1080p and 4K. Prints the median wall times of a few runs and their ratios.

NumPy and matplotlib (Debian's python3-numpy, python3-matplotlib) are optional: without them
the script says so and exits 0, so CI may call it unconditionally.

    tests/bench/compare_matplotlib.py [--pe-viz build/pe-viz] [--runs 3] [--length 8192] [--dim 128]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

# The notebook's cell, as a standalone program: the RoPE angle table p·θ_i with
# θ_i = base^(−2i/d) for p < L (notebooks often build it with torch; NumPy is the same
# arithmetic), its cos, and an imshow heatmap of dims × positions.
NOTEBOOK = r"""
import sys
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
length, dim, width, height, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
inv_freq = 1.0 / (10000.0 ** (np.arange(0, dim, 2, dtype=np.float64) / dim))
freqs = np.outer(np.arange(length, dtype=np.float64), inv_freq)
emb = np.concatenate([freqs, freqs], axis=-1)
cos_matrix = np.cos(emb).astype(np.float32)
dpi = 100
plt.figure(figsize=(width / dpi, height / dpi), dpi=dpi)
plt.imshow(cos_matrix.T, aspect="auto", cmap="RdBu")
plt.xlabel("Position")
plt.ylabel("Dimension")
plt.title("ROPE: Cosine Values")
plt.colorbar(label="Value")
plt.savefig(out, dpi=dpi)
"""


def timed(cmd, env=None):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pe-viz", default=os.path.join(here, "..", "..", "build", "pe-viz"), help="the pe-viz binary")
    parser.add_argument("--runs", type=int, default=3, help="runs per row (the median is printed)")
    parser.add_argument("--length", type=int, default=8192, help="positions L")
    parser.add_argument("--dim", type=int, default=128, help="head dimension d")
    args = parser.parse_args()
    if args.runs < 1 or args.length < 1 or args.dim < 2 or args.dim % 2:
        parser.error("--runs >= 1, --length >= 1 and an even --dim >= 2")
    try:
        import matplotlib  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        print(f"compare_matplotlib: skipped, {e.name} is not installed (apt install python3-numpy python3-matplotlib)")
        return 0
    if not os.access(args.pe_viz, os.X_OK):
        print(f"compare_matplotlib: --pe-viz {args.pe_viz}: not an executable (build pe-viz first)", file=sys.stderr)
        return 2
    env = dict(os.environ)
    env.pop("DISPLAY", None)  # pe-viz renders through EGL, without a display
    env.pop("WAYLAND_DISPLAY", None)
    print(f"RoPE cos table, L = {args.length}, d = {args.dim}; whole process, median of {args.runs} runs")
    print(f"{'size':>10} {'matplotlib_s':>13} {'pe-viz_s':>9} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for width, height in ((1920, 1080), (3840, 2160)):
            mpl, pev = [], []
            for _ in range(args.runs):
                mpl.append(timed([sys.executable, "-c", NOTEBOOK, str(args.length), str(args.dim), str(width), str(height),
                                  os.path.join(tmp, "mpl.png")]))
                pev.append(timed([args.pe_viz, "export", "--view", "rope-cos", "--length", str(args.length), "--dim",
                                  str(args.dim), "--size", f"{width}x{height}", "-o", os.path.join(tmp, "pe-viz.png")], env))
            m, p = statistics.median(mpl), statistics.median(pev)
            print(f"{width}x{height:<5} {m:13.2f} {p:9.2f} {m / p:5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
