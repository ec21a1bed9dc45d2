// Finding a checkpoint's q/k tensors and cutting them into heads and rotary pairs. Sources
// of each layout are cited in qk_layout.hpp; shapes are checked here against the config so a
// mismatched config.json is an error, not a silently wrong picture.
#include "pe/weights/qk_layout.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "pe/models/layer_plan.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe {

std::pair<long long, long long> HeadRows::pair_rows(long long head, long long pair) const {
  const long long base = head_first_row(head) + rotary_offset;
  if (order == PairConvention::Interleaved) return {base + 2 * pair, base + 2 * pair + 1};
  return {base + pair, base + pair + rotary_dims / 2};
}

namespace {

// Hugging Face names: PREFIX + "layers." + N + "." + one of these.
constexpr const char* kHfQ = "self_attn.q_proj.weight";
constexpr const char* kHfK = "self_attn.k_proj.weight";
constexpr const char* kHfQkv = "self_attn.qkv_proj.weight";
constexpr const char* kHfNeox = "attention.query_key_value.weight";
constexpr const char* kHfQb = "self_attn.q_b_proj.weight";
constexpr const char* kHfKvA = "self_attn.kv_a_proj_with_mqa.weight";
// GGUF names: "blk." + N + "." + one of these (gguf-py constants.py TENSOR_NAMES).
constexpr const char* kGgQ = "attn_q.weight";
constexpr const char* kGgK = "attn_k.weight";
constexpr const char* kGgQkv = "attn_qkv.weight";
constexpr const char* kGgQb = "attn_q_b.weight";
constexpr const char* kGgKvA = "attn_kv_a_mqa.weight";

struct Found {
  std::set<long long> layers;
  std::set<std::string> kinds;
};

// PREFIX, N and the rest of a per-layer name ("model.", 3, "self_attn.q_proj.weight"), where
// `stem` is "layers." (Hugging Face) or "blk." (GGUF). False when the name is not one.
bool split_layer_name(const std::string& name, const std::string& stem, std::string& prefix, long long& layer, std::string& rest) {
  std::size_t pos = name.rfind(stem);
  while (pos != std::string::npos) {
    if (pos == 0 || name[pos - 1] == '.') {
      std::size_t k = pos + stem.size(), digits = 0;
      long long n = 0;
      while (k < name.size() && std::isdigit(static_cast<unsigned char>(name[k])) && digits < 7) {
        n = n * 10 + (name[k] - '0');
        ++k;
        ++digits;
      }
      if (digits > 0 && k < name.size() && name[k] == '.') {
        prefix = name.substr(0, pos);
        layer = n;
        rest = name.substr(k + 1);
        return true;
      }
    }
    if (pos == 0) break;
    pos = name.rfind(stem, pos - 1);
  }
  return false;
}

bool looks_multimodal(const std::string& prefix) {
  for (const char* w : {"vision", "visual", "audio", "image", "encoder", "speech", "mm_", "projector"})
    if (prefix.find(w) != std::string::npos) return true;
  return false;
}

std::string shape_text(const std::vector<std::uint64_t>& s) {
  std::string out = "[";
  for (std::size_t k = 0; k < s.size(); ++k) out += (k ? ", " : "") + std::to_string(s[k]);
  return out + "]";
}

class Planner {
 public:
  Planner(const TensorSource& source, const WeightsModel& model) : src_(source), m_(model) {}

  QkPlan plan(const std::vector<long long>& wanted) {
    out_.stored_order = m_.stored_order;
    detect();
    const long long n = layer_count();
    std::vector<long long> layers = wanted;
    if (layers.empty())
      for (long long l = 0; l < n; ++l) layers.push_back(l);
    std::vector<long long> without_attention;
    for (const long long l : layers) {
      if (l < 0 || l >= n)
        throw WeightsError(src_.description(), "", "layer " + std::to_string(l) + " does not exist (the model has layers 0 ... " +
                                                       std::to_string(n - 1) + ")");
      LayerQkPlan p = layer(l);
      if (!p.attention) without_attention.push_back(l);
      out_.layers.push_back(std::move(p));
    }
    if (!without_attention.empty())
      out_.notes.push_back({Severity::Info, "",
                            "layers " + format_layer_ranges(without_attention) + " have no q/k tensors (not attention layers): left out"});
    return std::move(out_);
  }

 private:
  std::string hf(long long l, const char* kind) const { return out_.tensor_prefix + "layers." + std::to_string(l) + "." + kind; }
  std::string gg(long long l, const char* kind) const { return "blk." + std::to_string(l) + "." + kind; }

  void detect() {
    const bool gguf = src_.gguf_names();
    const std::set<std::string> known = gguf ? std::set<std::string>{kGgQ, kGgK, kGgQkv, kGgQb, kGgKvA}
                                             : std::set<std::string>{kHfQ, kHfK, kHfQkv, kHfNeox, kHfQb, kHfKvA};
    std::map<std::string, Found> by_prefix;
    std::vector<std::string> attention_like;
    for (const std::string& name : src_.tensor_names()) {
      std::string prefix, rest;
      long long layer = 0;
      if (!split_layer_name(name, gguf ? "blk." : "layers.", prefix, layer, rest)) continue;
      if (known.count(rest)) {
        Found& f = by_prefix[prefix];
        f.layers.insert(layer);
        f.kinds.insert(rest);
      } else if (layer == 0 && attention_like.size() < 8 && (rest.find("attn") != std::string::npos || rest.find("attention") != std::string::npos)) {
        attention_like.push_back(name);
      }
    }
    if (gguf) {
      const auto it = by_prefix.find("");
      if (it == by_prefix.end()) unsupported(attention_like);
      found_ = it->second;
    } else {
      choose_prefix(by_prefix, attention_like);
    }
    const auto has = [&](const char* k) { return found_.kinds.count(k) != 0; };
    if (gguf) {
      if (has(kGgKvA)) family_ = Family::Mla, out_.family = "attn_q_b/attn_kv_a_mqa (GGUF, MLA)";
      else if (has(kGgQ) && has(kGgK)) family_ = Family::Separate, out_.family = "attn_q/attn_k (GGUF)";
      else if (has(kGgQkv)) family_ = Family::QkvBlocks, out_.family = "attn_qkv (GGUF)";
      else unsupported(attention_like);
      if (family_ == Family::QkvBlocks && m_.shape.model_type != "gptneox" && m_.shape.model_type != "phi3")
        throw WeightsError(src_.description(), gg(first_layer(), kGgQkv),
                           "a fused attn_qkv in architecture \"" + m_.shape.model_type +
                               "\": not supported yet (its row order is known for gptneox and phi3)");
      if (src_.has_tensor(gg(first_layer(), "attn_q_norm.weight"))) q_norm_note();
    } else {
      if (has(kHfKvA)) family_ = Family::Mla, out_.family = "q_b_proj/kv_a_proj_with_mqa (MLA)";
      else if (has(kHfQ) && has(kHfK)) family_ = Family::Separate, out_.family = "q_proj/k_proj";
      else if (has(kHfQkv)) family_ = Family::QkvBlocks, out_.family = "qkv_proj (Phi-3)";
      else if (has(kHfNeox)) family_ = Family::NeoxPerHead, out_.family = "query_key_value (GPT-NeoX)";
      else unsupported(attention_like);
      if (src_.has_tensor(hf(first_layer(), "self_attn.q_norm.weight"))) q_norm_note();
    }
  }

  long long first_layer() const { return found_.layers.empty() ? 0 : *found_.layers.begin(); }

  void q_norm_note() {
    out_.notes.push_back({Severity::Info, "",
                          "this model normalises each q and k head (q_norm / k_norm) before RoPE: the norms here are W_q's and "
                          "W_k's rows, before that normalisation and its per-dim weight"});
  }

  void choose_prefix(const std::map<std::string, Found>& by_prefix, const std::vector<std::string>& attention_like) {
    std::vector<std::string> candidates;
    for (const auto& [prefix, f] : by_prefix)
      if (!looks_multimodal(prefix)) candidates.push_back(prefix);
    if (candidates.empty()) unsupported(attention_like);
    if (candidates.size() > 1) {
      std::vector<std::string> matching;
      for (const auto& c : candidates)
        if (static_cast<long long>(by_prefix.at(c).layers.size()) == m_.shape.num_hidden_layers) matching.push_back(c);
      if (matching.size() == 1) candidates = matching;
    }
    if (candidates.size() > 1) {
      std::string list;
      for (const auto& c : candidates) list += (list.empty() ? "" : ", ") + ("\"" + c + "layers.N…\"");
      throw WeightsError(src_.description(), "", "attention layers under several names (" + list + "): which one is the language model is not clear");
    }
    out_.tensor_prefix = candidates.front();
    found_ = by_prefix.at(candidates.front());
    if (!by_prefix.empty() && by_prefix.size() > 1)
      out_.notes.push_back({Severity::Info, "", "reading the layers under \"" + out_.tensor_prefix + "layers.\"; the other towers' are left out"});
  }

  [[noreturn]] void unsupported(const std::vector<std::string>& attention_like) const {
    std::string found;
    for (const auto& n : attention_like) found += (found.empty() ? "" : ", ") + n;
    throw WeightsError(src_.description(), "",
                       std::string("no q/k weights of a family pe-viz reads (") +
                           (src_.gguf_names() ? "GGUF blk.N.attn_q/attn_k, attn_qkv, attn_q_b + attn_kv_a_mqa"
                                              : "layers.N.self_attn.q_proj/k_proj, self_attn.qkv_proj, attention.query_key_value, "
                                                "self_attn.q_b_proj + kv_a_proj_with_mqa") +
                           "): not supported yet" + (found.empty() ? std::string(" (no attention tensors found in layer 0)") : "; layer 0 has " + found));
  }

  long long layer_count() {
    const long long found = found_.layers.empty() ? 0 : *found_.layers.rbegin() + 1;
    long long n = m_.shape.num_hidden_layers;
    if (n <= 0) {
      out_.notes.push_back({Severity::Info, "num_hidden_layers", "not given: " + std::to_string(found) + " layers found in the tensors"});
      n = found;
    } else if (found > n) {
      out_.notes.push_back({Severity::Info, "num_hidden_layers",
                            "tensors of layers " + std::to_string(n) + " ... " + std::to_string(found - 1) +
                                " lie beyond the config's " + std::to_string(n) + " layers (a multi-token-prediction layer?): not read"});
    }
    return std::min(n, kMaxLayers);
  }

  // Rows × columns a tensor must have; cols = 0: any. Shapes are [rows, cols] for Hugging
  // Face and ne [cols, rows] for GGUF.
  void expect(const std::string& tensor, long long rows, long long cols, const std::string& why) {
    const std::vector<std::uint64_t> shape = src_.tensor_shape(tensor);
    const bool gguf = src_.gguf_names();
    const std::size_t r = gguf ? 1 : 0, c = gguf ? 0 : 1;
    bool ok = shape.size() >= 2 && std::all_of(shape.begin() + 2, shape.end(), [](std::uint64_t d) { return d == 1; });
    ok = ok && shape[r] == static_cast<std::uint64_t>(rows) && (cols == 0 || shape[c] == static_cast<std::uint64_t>(cols));
    if (ok) return;
    std::string expected = gguf ? "ne [" + (cols ? std::to_string(cols) : std::string("any")) + ", " + std::to_string(rows) + "]"
                                : "[" + std::to_string(rows) + ", " + (cols ? std::to_string(cols) : std::string("any")) + "]";
    throw WeightsError(src_.file_of(tensor), tensor,
                       "shape " + std::string(gguf ? "ne " : "") + shape_text(shape) + " disagrees with the configuration (" +
                           m_.source + "): expected " + expected + " — " + why);
  }

  long long columns_of(const std::string& tensor) const {
    const auto shape = src_.tensor_shape(tensor);
    if (shape.size() < 2) return 0;
    return static_cast<long long>(src_.gguf_names() ? shape[0] : shape[1]);
  }

  void require(bool ok, const std::string& key, const std::string& message) const {
    if (!ok) throw WeightsError(m_.source, "", key, message);
  }

  LayerQkPlan layer(long long l) {
    LayerQkPlan p;
    p.layer = l;
    const LayerRow& row = m_.row_of(l);
    p.rotary = m_.plan.rows.empty() ? true : row.rotary;
    const long long heads = m_.heads_of(l), kv = m_.kv_heads_of(l);
    const long long hidden = m_.shape.hidden_size;
    const std::string hidden_text = hidden > 0 ? "hidden_size " + std::to_string(hidden) + " columns" : "columns as the hidden size";
    require(heads > 0, "num_attention_heads", "not given (layer " + std::to_string(l) + "): the heads of W_q cannot be cut");
    require(kv > 0 && heads % kv == 0, "num_key_value_heads",
            std::to_string(kv) + " key/value heads do not divide " + std::to_string(heads) + " query heads");
    const PairConvention order = m_.stored_order;
    if (family_ == Family::Mla) return mla_layer(p, heads, order);

    const long long hd = m_.shape.head_dim > 0 ? m_.shape.head_dim : m_.rope.head_dim;
    require(hd > 0, "head_dim", "not given");
    long long rot = 0;
    if (p.rotary) rot = row.rotary_dims > 0 ? row.rotary_dims : m_.rope.rotary_dim();
    require(rot % 2 == 0 && rot <= hd, "partial_rotary_factor",
            std::to_string(rot) + " rotary dims in a head of " + std::to_string(hd) + " (layer " + std::to_string(l) + ")");
    const auto heads_rows = [&](long long first, long long stride, long long n) {
      return HeadRows{first, stride, n, hd, 0, rot, order};
    };
    const std::string dims = " × head_dim " + std::to_string(hd);
    const bool gguf = src_.gguf_names();
    switch (family_) {
      case Family::Separate: {
        const std::string q = gguf ? gg(l, kGgQ) : hf(l, kHfQ), k = gguf ? gg(l, kGgK) : hf(l, kHfK);
        if (!present(q, k, p)) return p;
        expect(q, heads * hd, hidden, std::to_string(heads) + " heads" + dims + " rows, " + hidden_text);
        expect(k, kv * hd, hidden > 0 ? hidden : columns_of(q), std::to_string(kv) + " key/value heads" + dims + " rows, the same columns as W_q");
        p.q = {q, heads_rows(0, hd, heads)};
        p.k = {k, heads_rows(0, hd, kv)};
        return p;
      }
      case Family::QkvBlocks: {
        const std::string t = gguf ? gg(l, kGgQkv) : hf(l, kHfQkv);
        if (!present(t, t, p)) return p;
        expect(t, (heads + 2 * kv) * hd, hidden,
               "q, k and v stacked: (" + std::to_string(heads) + " + 2 × " + std::to_string(kv) + ") heads" + dims + " rows, " + hidden_text);
        p.q = {t, heads_rows(0, hd, heads)};
        p.k = {t, heads_rows(heads * hd, hd, kv)};
        return p;
      }
      case Family::NeoxPerHead: {
        const std::string t = hf(l, kHfNeox);
        if (!present(t, t, p)) return p;
        require(kv == heads, "num_key_value_heads", "GPT-NeoX's query_key_value has one k head per q head");
        expect(t, 3 * heads * hd, hidden, "per head q, k and v: 3 × " + std::to_string(heads) + " heads" + dims + " rows, " + hidden_text);
        p.q = {t, heads_rows(0, 3 * hd, heads)};
        p.k = {t, heads_rows(hd, 3 * hd, heads)};
        return p;
      }
      case Family::Mla: break;
    }
    return p;
  }

  // Both tensors present: true. Neither: the layer has no attention (false). One: an error.
  bool present(const std::string& q, const std::string& k, LayerQkPlan& p) const {
    const bool hq = src_.has_tensor(q), hk = src_.has_tensor(k);
    if (hq && hk) return true;
    if (!hq && !hk && found_.layers.size() > 0) {
      p.attention = false;
      return false;
    }
    throw WeightsError(src_.description(), hq ? k : q, "missing, though " + (hq ? q : k) + " is there");
  }

  LayerQkPlan mla_layer(LayerQkPlan& p, long long heads, PairConvention order) {
    const ModelShape& s = m_.shape;
    const long long l = p.layer;
    require(s.is_mla() && s.qk_rope_head_dim % 2 == 0, "qk_rope_head_dim",
            "the checkpoint has MLA tensors (kv_a_proj_with_mqa) but the configuration gives no even qk_rope_head_dim");
    require(s.kv_lora_rank > 0, "kv_lora_rank", "not given (MLA's latent width)");
    const long long nope = s.qk_nope_head_dim, rope = s.qk_rope_head_dim, hd = nope + rope;
    require(nope >= 0, "qk_nope_head_dim", "negative");
    const bool gguf = src_.gguf_names();
    const std::string qb = gguf ? gg(l, kGgQb) : hf(l, kHfQb), qp = gguf ? gg(l, kGgQ) : hf(l, kHfQ);
    const bool lora = src_.has_tensor(qb);
    const std::string q = lora ? qb : qp, k = gguf ? gg(l, kGgKvA) : hf(l, kHfKvA);
    if (!present(q, k, p)) return p;
    const long long rot = p.rotary ? rope : 0;
    const std::string why = std::to_string(heads) + " heads × (qk_nope_head_dim " + std::to_string(nope) + " + qk_rope_head_dim " +
                            std::to_string(rope) + ") rows";
    if (lora) expect(q, heads * hd, s.q_lora_rank, why + (s.q_lora_rank > 0 ? ", q_lora_rank " + std::to_string(s.q_lora_rank) + " columns" : ""));
    else expect(q, heads * hd, s.hidden_size, why + ", hidden_size columns");
    expect(k, s.kv_lora_rank + rope, s.hidden_size,
           "kv_lora_rank " + std::to_string(s.kv_lora_rank) + " latent rows + qk_rope_head_dim " + std::to_string(rope) +
               " rows of the shared rotary key, hidden_size columns");
    p.q = {q, HeadRows{0, hd, heads, hd, nope, rot, order}};
    p.k = {k, HeadRows{0, 0, 1, s.kv_lora_rank + rope, s.kv_lora_rank, rot, order}};
    return p;
  }

  enum class Family { Separate, QkvBlocks, NeoxPerHead, Mla };

  const TensorSource& src_;
  const WeightsModel& m_;
  QkPlan out_;
  Found found_;
  Family family_ = Family::Separate;
};

}  // namespace

QkPlan plan_qk(const TensorSource& source, const WeightsModel& model, const std::vector<long long>& layers) {
  return Planner(source, model).plan(layers);
}

}  // namespace pe
