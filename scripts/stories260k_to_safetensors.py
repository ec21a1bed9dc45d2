#!/usr/bin/env python3
"""Converts a llama2.c legacy (version 0) checkpoint -- Karpathy's stories260K.bin -- into a
Hugging Face Llama checkpoint: model.safetensors (F32) and config.json. Pure Python.

    scripts/stories260k_to_safetensors.py stories260K.bin tests/data/stories260K

This is how tests/data/stories260K/ was made (tests/data/stories260K/README.md says where the
.bin comes from). The output is deterministic.

The llama2.c v0 file (llama2.c export.py legacy_export; run.c memory_map_weights): seven
little-endian int32 -- dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len
(a negative vocab_size: the classifier is stored separately) -- then float32 arrays, each
row-major [out, in] like a torch Linear weight: token embedding [vocab, dim], attention
RMSNorm [L, dim], wq [L, dim, dim], wk [L, kv_dim, dim], wv [L, kv_dim, dim],
wo [L, dim, dim], FFN RMSNorm [L, dim], w1 [L, hidden, dim], w2 [L, dim, hidden],
w3 [L, hidden, dim], final RMSNorm [dim], two unused RoPE tables [seq_len, head_dim/2] each,
and the classifier [vocab, dim] only when vocab_size < 0.

llama2.c rotates adjacent dims (2i, 2i+1) of each head (Meta's interleaved pairs); Hugging
Face's Llama rotates (i, i + head_dim/2) (rotate_half). As llama2.c's own hf_export does, the
rows of wq and wk are reordered per head so that the same pairs rotate: Hugging Face row
j*hd/2 + i is llama2.c row 2i + j (i < hd/2, j in {0, 1}). Nothing else moves.

The safetensors file follows the format's README: u64 header length, the JSON header (tensor
names sorted, offsets back to back, padded with spaces to a multiple of 8), the data.
"""
import hashlib
import json
import struct
import sys

# stories260K.bin in ytmytm/llama2.c64 (blob cfebf5a594edee35c18c88b12ef45de3b6d9aaa9), the file
# tests/data/stories260K was converted from.
KNOWN_SHA256 = "b0a507e7ad0f626624f17112325e66691f9076d622e1d3274d103d00299f2696"


def main(src, outdir):
    raw = open(src, "rb").read()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != KNOWN_SHA256:
        print(f"note: {src} has sha256 {digest}, not the stories260K.bin of tests/data/stories260K", file=sys.stderr)
    dim, hidden, layers, heads, kv_heads, vocab, seq_len = struct.unpack_from("<7i", raw, 0)
    shared_classifier = vocab > 0
    vocab = abs(vocab)
    head_dim = dim // heads
    kv_dim = kv_heads * head_dim
    at = 28

    def floats(count):
        nonlocal at
        chunk = raw[at:at + 4 * count]
        if len(chunk) != 4 * count:
            sys.exit(f"{src}: ends at byte {len(raw)}, inside an array that needs {4 * count} bytes from byte {at}")
        at += 4 * count
        return chunk

    def per_layer(count):
        return [floats(count) for _ in range(layers)]

    def half_split(block, nheads):
        """Reorders a [nheads*head_dim, dim] block's rows from interleaved pairs to half-split."""
        row = 4 * dim
        rows = [block[r * row:(r + 1) * row] for r in range(nheads * head_dim)]
        out = []
        for h in range(nheads):
            for j in range(2):
                for i in range(head_dim // 2):
                    out.append(rows[h * head_dim + 2 * i + j])
        return b"".join(out)

    embedding = floats(vocab * dim)
    attn_norm = per_layer(dim)
    wq = per_layer(dim * dim)
    wk = per_layer(kv_dim * dim)
    wv = per_layer(kv_dim * dim)
    wo = per_layer(dim * dim)
    ffn_norm = per_layer(dim)
    w1 = per_layer(hidden * dim)
    w2 = per_layer(dim * hidden)
    w3 = per_layer(hidden * dim)
    final_norm = floats(dim)
    floats(seq_len * head_dim // 2)  # RoPE cos table (unused: the config's theta gives it)
    floats(seq_len * head_dim // 2)  # RoPE sin table
    classifier = None if shared_classifier else floats(vocab * dim)
    if at != len(raw):
        sys.exit(f"{src}: {len(raw) - at} bytes left after the last array: not a llama2.c v0 checkpoint")

    tensors = {
        "model.embed_tokens.weight": ([vocab, dim], embedding),
        "model.norm.weight": ([dim], final_norm),
    }
    if classifier is not None:  # tied (tie_word_embeddings) otherwise: no lm_head stored
        tensors["lm_head.weight"] = ([vocab, dim], classifier)
    for l in range(layers):
        p = f"model.layers.{l}."
        tensors[p + "input_layernorm.weight"] = ([dim], attn_norm[l])
        tensors[p + "self_attn.q_proj.weight"] = ([dim, dim], half_split(wq[l], heads))
        tensors[p + "self_attn.k_proj.weight"] = ([kv_dim, dim], half_split(wk[l], kv_heads))
        tensors[p + "self_attn.v_proj.weight"] = ([kv_dim, dim], wv[l])
        tensors[p + "self_attn.o_proj.weight"] = ([dim, dim], wo[l])
        tensors[p + "post_attention_layernorm.weight"] = ([dim], ffn_norm[l])
        tensors[p + "mlp.gate_proj.weight"] = ([hidden, dim], w1[l])
        tensors[p + "mlp.down_proj.weight"] = ([dim, hidden], w2[l])
        tensors[p + "mlp.up_proj.weight"] = ([hidden, dim], w3[l])

    header = {"__metadata__": {"format": "pt", "source": "llama2.c stories260K (karpathy/tinyllamas) via ytmytm/llama2.c64"}}
    data = []
    offset = 0
    for name in sorted(tensors):
        shape, blob = tensors[name]
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + len(blob)]}
        data.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(f"{outdir}/model.safetensors", "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        f.write(b"".join(data))

    config = {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "hidden_size": dim,
        "intermediate_size": hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": kv_heads,
        "head_dim": head_dim,
        "vocab_size": vocab,
        "max_position_embeddings": seq_len,
        "rope_theta": 10000.0,  # llama2.c precompute_freqs_cis's default; the file's tables agree
        "rms_norm_eps": 1e-05,
        "hidden_act": "silu",
        "tie_word_embeddings": shared_classifier,
        "bos_token_id": 1,
        "eos_token_id": 2,
        "torch_dtype": "float32",
    }
    with open(f"{outdir}/config.json", "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    print(f"wrote {outdir}/model.safetensors ({len(tensors)} tensors, {offset} bytes of data) and {outdir}/config.json")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: stories260k_to_safetensors.py stories260K.bin OUTDIR")
    main(sys.argv[1], sys.argv[2])
