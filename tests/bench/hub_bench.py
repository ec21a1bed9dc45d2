#!/usr/bin/python3
"""Reading an 8B-shaped model from the Hub (a benchmark, not a timed test).

Writes a Llama-3-8B-shaped bf16 checkpoint split into 4 shards as sparse files (the headers
are real; each q/k tensor gets a seeded 4 KiB pattern at its start and holes elsewhere, so
16 GB of checkpoint cost a few MB of disk), serves it with tests/hub/test_hub.py on loopback
and measures, each against a number worked out here from the files written:

  bytes moved   `pe-viz weights --model bench/llama-8b` from empty caches, against
                q/k bytes + every shard's header (8 + N) + config.json + the index
                (target: at most 1.05 ×); with --layer L, against config + index + the header
                of L's shard + L's q/k bytes;
  a second run  bytes moved (target: 0);
  throughput    bytes moved per second of the whole run (pe-viz keeps what it fetches in its
                cache), against a plain single-stream download (curl -o FILE, one Range
                request) of as many bytes of a shard over the same loopback link, measured in
                the same run (target: at least 80 %); also against curl to /dev/null.

  python3 tests/bench/hub_bench.py [--pe-viz build/pe-viz] [--layers 32] [--work DIR] [--keep]
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Llama-3-8B (meta-llama/Meta-Llama-3-8B config.json).
HIDDEN, HEADS, KV, HEAD_DIM, INTER, VOCAB = 4096, 32, 8, 128, 14336, 128256
CONFIG = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": HIDDEN, "intermediate_size": INTER,
          "num_attention_heads": HEADS, "num_key_value_heads": KV, "head_dim": HEAD_DIM, "max_position_embeddings": 8192,
          "rope_theta": 500000.0, "vocab_size": VOCAB, "torch_dtype": "bfloat16", "rms_norm_eps": 1e-05}


def tensors(layers):
    """(name, shape) in the order the shards hold them."""
    out = [("model.embed_tokens.weight", [VOCAB, HIDDEN])]
    for l in range(layers):
        p = f"model.layers.{l}."
        out += [(p + "input_layernorm.weight", [HIDDEN]), (p + "mlp.down_proj.weight", [HIDDEN, INTER]),
                (p + "mlp.gate_proj.weight", [INTER, HIDDEN]), (p + "mlp.up_proj.weight", [INTER, HIDDEN]),
                (p + "post_attention_layernorm.weight", [HIDDEN]), (p + "self_attn.k_proj.weight", [KV * HEAD_DIM, HIDDEN]),
                (p + "self_attn.o_proj.weight", [HIDDEN, HEADS * HEAD_DIM]), (p + "self_attn.q_proj.weight", [HEADS * HEAD_DIM, HIDDEN]),
                (p + "self_attn.v_proj.weight", [KV * HEAD_DIM, HIDDEN])]
    out += [("model.norm.weight", [HIDDEN]), ("lm_head.weight", [VOCAB, HIDDEN])]
    return out


def nbytes(shape):
    n = 2
    for d in shape:
        n *= d
    return n


def write_checkpoint(folder, layers, shards=4):
    os.makedirs(folder, exist_ok=True)
    config = dict(CONFIG, num_hidden_layers=layers)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    all_t = tensors(layers)
    total = sum(nbytes(s) for _, s in all_t)
    per = total / shards
    groups, at = [[] for _ in range(shards)], 0
    for name, shape in all_t:
        groups[min(shards - 1, int(at / per))].append((name, shape))
        at += nbytes(shape)
    weight_map, qk, headers = {}, 0, 0
    rng = random.Random(7)
    pattern = bytes(rng.getrandbits(8) & 0x3f for _ in range(4096))  # small bf16 values, no NaN
    for k, group in enumerate(groups):
        fname = f"model-{k + 1:05d}-of-{shards:05d}.safetensors"
        header, offset = {"__metadata__": {"format": "pt"}}, 0
        for name, shape in sorted(group):
            header[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [offset, offset + nbytes(shape)]}
            offset += nbytes(shape)
            weight_map[name] = fname
        text = json.dumps(header, separators=(",", ":")).encode()
        text += b" " * ((8 - len(text) % 8) % 8)
        headers += 8 + len(text)
        with open(os.path.join(folder, fname), "wb") as f:
            f.write(struct.pack("<Q", len(text)) + text)
            data = 8 + len(text)
            f.truncate(data + offset)  # holes
            for name, shape in group:
                if name.endswith(("q_proj.weight", "k_proj.weight")):
                    qk += nbytes(shape)
                    f.seek(data + header[name]["data_offsets"][0])
                    f.write(pattern)
    index = {"metadata": {"total_size": total}, "weight_map": weight_map}
    with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
        json.dump(index, f, indent=2)
    sizes = {"config": os.path.getsize(os.path.join(folder, "config.json")),
             "index": os.path.getsize(os.path.join(folder, "model.safetensors.index.json")), "headers": headers, "qk": qk,
             "files": [f"model-{k + 1:05d}-of-{shards:05d}.safetensors" for k in range(shards)], "weight_map": weight_map}
    return sizes


def header_len(path):
    with open(path, "rb") as f:
        return 8 + struct.unpack("<Q", f.read(8))[0]


class Hub:
    def __init__(self, root, work):
        self.stats_file = os.path.join(work, "stats.json")
        ready = os.path.join(work, "ready")
        self.proc = subprocess.Popen(["/usr/bin/python3", os.path.join(ROOT, "tests/hub/test_hub.py"), root, "--ready", ready,
                                      "--stats", self.stats_file], stdout=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(ready):
                break
            time.sleep(0.05)
        words = open(ready).read().split()
        self.endpoint, self.cdn = words[1], words[3]

    def total(self):
        try:
            return json.load(open(self.stats_file))["total_bytes"]
        except (OSError, ValueError):
            return 0

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def run_pe_viz(pe_viz, hub, work, args):
    env = dict(os.environ, HF_ENDPOINT=hub.endpoint, HF_HOME=os.path.join(work, "hf"), XDG_CACHE_HOME=os.path.join(work, "cache"),
               HF_HUB_OFFLINE="0", HF_TOKEN="", HUGGING_FACE_HUB_TOKEN="", HF_TOKEN_PATH=os.path.join(work, "none"))
    env.pop("HF_HUB_CACHE", None)
    before = hub.total()
    start = time.monotonic()
    r = subprocess.run([pe_viz, "weights", "--model", "bench/llama-8b", "--json"] + args, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if r.returncode != 0:
        sys.exit(f"pe-viz failed ({r.returncode}): {r.stderr}")
    return hub.total() - before, seconds, json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pe-viz", default=os.path.join(ROOT, "build", "pe-viz"))
    ap.add_argument("--layers", type=int, default=32)
    ap.add_argument("--layer", type=int, default=7)
    ap.add_argument("--work")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="pe-viz-hub-bench-")
    folder = os.path.join(work, "repos", "bench", "llama-8b")
    print(f"writing a sparse {a.layers}-layer Llama-3-8B-shaped bf16 checkpoint in {folder} ...", flush=True)
    sizes = write_checkpoint(folder, a.layers)
    disk = sum(os.stat(os.path.join(folder, f)).st_blocks * 512 for f in os.listdir(folder))
    apparent = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
    print(f"  {apparent / 1e9:.1f} GB of files, {disk / 1e6:.1f} MB on disk; q/k {sizes['qk'] / 2**30:.2f} GiB, headers "
          f"{sizes['headers']} B, config {sizes['config']} B, index {sizes['index']} B")
    hub = Hub(os.path.join(work, "repos"), work)
    results = {}
    try:
        for d in ("hf", "cache"):
            shutil.rmtree(os.path.join(work, d), ignore_errors=True)
        moved, seconds, out = run_pe_viz(a.pe_viz, hub, work, [])
        ideal = sizes["qk"] + sizes["headers"] + sizes["config"] + sizes["index"]
        results["full"] = {"moved": moved, "ideal": ideal, "ratio": moved / ideal, "seconds": seconds, "rate": moved / seconds}
        again, again_s, _ = run_pe_viz(a.pe_viz, hub, work, [])
        results["second_run"] = {"moved": again, "seconds": again_s}
        # The same number of bytes in one plain stream: curl, one Range request of a shard.
        shard = sizes["files"][1]
        url = f"{hub.cdn}/cdn/bench/llama-8b/x/{shard}?sig=bench"
        n = min(moved, os.path.getsize(os.path.join(folder, shard)))
        # As a download is (to a file, as pe-viz keeps what it fetches), and to /dev/null (the
        # link alone): the ratio is reported against both, the target against the download.
        for key, target in (("single_stream", os.path.join(work, "download.bin")), ("single_stream_discarded", "/dev/null")):
            start = time.monotonic()
            subprocess.run(["curl", "-s", "-o", target, "-r", f"0-{n - 1}", url], check=True)
            if target != "/dev/null":
                os.sync()  # the downloaded file on disk, as pe-viz's ranges are by the time it exits
            plain_s = time.monotonic() - start
            results[key] = {"bytes": n, "seconds": plain_s, "rate": n / plain_s}
            if target != "/dev/null":
                os.remove(target)
        results["throughput_ratio"] = results["full"]["rate"] / results["single_stream"]["rate"]
        results["throughput_ratio_discarded"] = results["full"]["rate"] / results["single_stream_discarded"]["rate"]
        # One layer, from empty caches.
        for d in ("hf", "cache"):
            shutil.rmtree(os.path.join(work, d), ignore_errors=True)
        moved_l, seconds_l, _ = run_pe_viz(a.pe_viz, hub, work, ["--layer", str(a.layer)])
        qfile = sizes["weight_map"][f"model.layers.{a.layer}.self_attn.q_proj.weight"]
        layer_qk = sizes["qk"] // a.layers
        ideal_l = sizes["config"] + sizes["index"] + header_len(os.path.join(folder, qfile)) + layer_qk
        results["layer"] = {"layer": a.layer, "moved": moved_l, "ideal": ideal_l, "ratio": moved_l / ideal_l, "seconds": seconds_l}
    finally:
        hub.stop()
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    f, l, s = results["full"], results["layer"], results["single_stream"]
    print(f"full read:   moved {f['moved']} B of ideal {f['ideal']} B: ratio {f['ratio']:.4f} (target <= 1.05); "
          f"{f['seconds']:.2f} s, {f['rate'] / 2**20:.0f} MiB/s")
    print(f"second run:  moved {results['second_run']['moved']} B in {results['second_run']['seconds']:.2f} s (target 0)")
    d = results["single_stream_discarded"]
    print(f"single stream download (curl -o FILE, same link): {s['bytes']} B in {s['seconds']:.2f} s, {s['rate'] / 2**20:.0f} MiB/s; "
          f"throughput ratio {results['throughput_ratio']:.2f} (target >= 0.80)")
    print(f"single stream to /dev/null (the link alone): {d['seconds']:.2f} s, {d['rate'] / 2**20:.0f} MiB/s; "
          f"ratio {results['throughput_ratio_discarded']:.2f}")
    print(f"load average during the run: {os.getloadavg()}")
    print(f"--layer {l['layer']}:  moved {l['moved']} B of ideal {l['ideal']} B: ratio {l['ratio']:.4f}; {l['seconds']:.2f} s")
    print(json.dumps(results))
    ok = f["ratio"] <= 1.05 and results["second_run"]["moved"] == 0 and results["throughput_ratio"] >= 0.8 and l["ratio"] <= 1.05
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
