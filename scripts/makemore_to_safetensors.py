#!/usr/bin/env python3
"""Converts a makemore Transformer checkpoint (Karpathy's makemore.py, `--type transformer`,
saved with torch.save(model.state_dict(), 'out/model.pt')) into a Hugging Face GPT-2
checkpoint: model.safetensors (F32) and config.json. Pure Python: no torch, no numpy.

    scripts/makemore_to_safetensors.py model.pt tests/data/makemore-tr
    scripts/makemore_to_safetensors.py model.pt tests/data/makemore-tr --check names.txt

This is how tests/data/makemore-tr/ was made (its README says where model.pt comes from). The
output is deterministic.

Reading model.pt: a torch.save zip archive. Its data.pkl is a pickle of an OrderedDict of
tensors, each pickled as torch._utils._rebuild_tensor_v2(storage, offset, size, stride, ...)
with the storage a persistent id ('storage', FloatStorage, key, location, numel) whose bytes
are the archive member data/<key> (little-endian float32 here). The unpickler below maps
exactly those names and refuses any other class.

makemore's Transformer is GPT-2's architecture (makemore.py: "exactly as seen in GPT"): wte,
wpe, per block ln_1, attn.c_attn, attn.c_proj, ln_2, mlp.c_fc, mlp.c_proj with NewGELU (GPT-2's
tanh GELU, "gelu_new"), ln_f and an untied lm_head without bias; LayerNorm eps 1e-5; attention
scaled by 1/sqrt(head_dim) with a causal mask. The one difference in storage: makemore's
projections are torch nn.Linear weights [out, in], Hugging Face GPT-2's are Conv1D weights
[in, out], so those four matrices per block are transposed; the causal masks (attn.bias
buffers) are not weights and are left out. --check runs a forward pass over the written
model.safetensors the way GPT2LMHeadModel computes it and prints greedy samples, which must be
names like those in the training file.
"""
import collections
import hashlib
import io
import json
import math
import pickle
import struct
import sys
import zipfile

# tests/data/makemore-tr was converted from out/model.pt of vkerem0/makemore-tr (commit 00d29db, blob
# afd4cb7cb3ae6ea6ba22d5f7f0eaba1efade5afe, 837,882 bytes, sha256
# 1871f914c841691a1b46f0acf04b77c69428f174c2db32b50c9bc52b69d0d035).



class _Storage:
    def __init__(self, kind, key):
        self.kind, self.key = kind, key


class _Tensor:
    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)


def _rebuild_tensor_v2(storage, offset, size, stride, *unused):
    return _Tensor(storage, offset, size, stride)


class _Unpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild_tensor_v2
        if module == "torch" and name == "FloatStorage":
            return name
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        raise pickle.UnpicklingError(f"unexpected class {module}.{name} in the checkpoint")

    def persistent_load(self, pid):
        kind, storage_type, key, _location, _numel = pid
        if kind != "storage" or storage_type != "FloatStorage":
            raise pickle.UnpicklingError(f"unexpected storage {pid}")
        return _Storage(storage_type, key)


def read_state_dict(path):
    z = zipfile.ZipFile(path)
    pkl = next(n for n in z.namelist() if n.endswith("/data.pkl"))
    prefix = pkl[: -len("data.pkl")]
    if z.read(prefix + "byteorder").strip() != b"little":
        sys.exit(f"{path}: not little-endian")
    state = _Unpickler(io.BytesIO(z.read(pkl))).load()
    out = collections.OrderedDict()
    for name, t in state.items():
        raw = z.read(prefix + "data/" + t.storage.key)
        count = math.prod(t.size)
        # Contiguous row-major tensors only (what state_dict() saves for these parameters).
        expected = [math.prod(t.size[k + 1:]) for k in range(len(t.size))]
        if list(t.stride) != expected:
            sys.exit(f"{path}: {name} is not contiguous (stride {t.stride})")
        values = struct.unpack_from(f"<{count}f", raw, 4 * t.offset)
        out[name] = (list(t.size), list(values))
    return out


def transpose(shape, values):
    rows, cols = shape
    return [cols, rows], [values[r * cols + c] for c in range(cols) for r in range(rows)]


def to_gpt2(state):
    tensors = {}
    for name, (shape, values) in state.items():
        if name.endswith(".attn.bias"):
            continue  # the causal mask buffer
        if any(name.endswith(s) for s in (".attn.c_attn.weight", ".attn.c_proj.weight", ".mlp.c_fc.weight", ".mlp.c_proj.weight")):
            shape, values = transpose(shape, values)
        tensors[name] = (shape, values)
    return tensors


def write_safetensors(path, tensors):
    header, data = {}, bytearray()
    for name in sorted(tensors):
        shape, values = tensors[name]
        b = struct.pack(f"<{len(values)}f", *values)
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [len(data), len(data) + len(b)]}
        data += b
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    blob = struct.pack("<Q", len(text)) + text + bytes(data)
    open(path, "wb").write(blob)
    return blob


def config_of(tensors):
    vocab, n_embd = tensors["transformer.wte.weight"][0]
    n_positions = tensors["transformer.wpe.weight"][0][0]
    n_layer = 1 + max(int(n.split(".")[2]) for n in tensors if n.startswith("transformer.h."))
    return {
        "architectures": ["GPT2LMHeadModel"],
        "model_type": "gpt2",
        "vocab_size": vocab,
        "n_positions": n_positions,
        "n_embd": n_embd,
        "n_layer": n_layer,
        "n_head": 4,  # makemore's ModelConfig default; the checkpoint does not record it
        "n_inner": 4 * n_embd,
        "activation_function": "gelu_new",
        "layer_norm_epsilon": 1e-5,
        "tie_word_embeddings": False,
        "bos_token_id": 0,
        "eos_token_id": 0,
        "resid_pdrop": 0.0,
        "embd_pdrop": 0.0,
        "attn_pdrop": 0.0,
    }


# ---- --check: GPT2LMHeadModel's forward pass over the converted tensors, in pure Python.

def layer_norm(x, w, b, eps=1e-5):
    m = sum(x) / len(x)
    v = sum((t - m) ** 2 for t in x) / len(x)
    s = 1.0 / math.sqrt(v + eps)
    return [(t - m) * s * wi + bi for t, wi, bi in zip(x, w, b)]


def conv1d(x, w, b):  # Hugging Face Conv1D: x @ W + b, W [in, out]
    n_in, n_out = len(x), len(b)
    return [b[o] + sum(x[i] * w[i * n_out + o] for i in range(n_in)) for o in range(n_out)]


def gelu_new(t):
    return 0.5 * t * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (t + 0.044715 * t ** 3)))


def logits_of(tensors, config, tokens):
    T = lambda n: tensors[n][1]
    d, heads = config["n_embd"], config["n_head"]
    hd = d // heads
    xs = [[T("transformer.wte.weight")[tok * d + j] + T("transformer.wpe.weight")[p * d + j] for j in range(d)]
          for p, tok in enumerate(tokens)]
    for l in range(config["n_layer"]):
        p = f"transformer.h.{l}."
        qkv = [conv1d(layer_norm(x, T(p + "ln_1.weight"), T(p + "ln_1.bias")), T(p + "attn.c_attn.weight"), T(p + "attn.c_attn.bias")) for x in xs]
        att_out = []
        for i in range(len(xs)):
            y = [0.0] * d
            for h in range(heads):
                q = qkv[i][h * hd:(h + 1) * hd]
                scores = [sum(a * b for a, b in zip(q, qkv[j][d + h * hd:d + (h + 1) * hd])) / math.sqrt(hd) for j in range(i + 1)]
                m = max(scores)
                e = [math.exp(s - m) for s in scores]
                z = sum(e)
                for j in range(i + 1):
                    v = qkv[j][2 * d + h * hd:2 * d + (h + 1) * hd]
                    for k in range(hd):
                        y[h * hd + k] += e[j] / z * v[k]
            att_out.append(conv1d(y, T(p + "attn.c_proj.weight"), T(p + "attn.c_proj.bias")))
        xs = [[a + b for a, b in zip(x, o)] for x, o in zip(xs, att_out)]
        mlp = [conv1d([gelu_new(t) for t in conv1d(layer_norm(x, T(p + "ln_2.weight"), T(p + "ln_2.bias")), T(p + "mlp.c_fc.weight"),
                                                    T(p + "mlp.c_fc.bias"))], T(p + "mlp.c_proj.weight"), T(p + "mlp.c_proj.bias"))
               for x in xs]
        xs = [[a + b for a, b in zip(x, o)] for x, o in zip(xs, mlp)]
    last = layer_norm(xs[-1], T("transformer.ln_f.weight"), T("transformer.ln_f.bias"))
    head = T("lm_head.weight")  # [vocab, d], no bias
    return [sum(last[j] * head[v * d + j] for j in range(d)) for v in range(config["vocab_size"])]


def check(tensors, config, names_path):
    words = [w.strip() for w in open(names_path, encoding="utf-8") if w.strip()]
    chars = sorted(set("".join(words)))  # makemore's CharDataset: index 0 is the start/end token
    if len(chars) + 1 != config["vocab_size"]:
        sys.exit(f"{names_path}: {len(chars)} characters, but the model has {config['vocab_size'] - 1}")
    for first in chars[:6]:
        tokens = [0, chars.index(first) + 1]
        while len(tokens) < config["n_positions"]:
            logits = logits_of(tensors, config, tokens)
            nxt = max(range(len(logits)), key=lambda v: logits[v])
            if nxt == 0:
                break
            tokens.append(nxt)
        name = "".join(chars[t - 1] for t in tokens[1:])
        print(f"greedy from '{first}': {name}{'  (in the training file)' if name in set(words) else ''}")


def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--check"):
        sys.exit(__doc__)
    src, outdir = argv[1], argv[2]
    raw = open(src, "rb").read()
    print(f"{src}: {len(raw)} bytes, sha256 {hashlib.sha256(raw).hexdigest()}")
    tensors = to_gpt2(read_state_dict(src))
    config = config_of(tensors)
    blob = write_safetensors(f"{outdir}/model.safetensors", tensors)
    with open(f"{outdir}/config.json", "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    print(f"{outdir}/model.safetensors: {len(blob)} bytes, sha256 {hashlib.sha256(blob).hexdigest()}")
    if len(argv) == 5:
        check(tensors, config, argv[4])


if __name__ == "__main__":
    main(sys.argv)
