// Prompt specs ("text:5,image:1x8x12,video:4x8x8") and the (t, h, w) position ids a VLM's
// language model gives every token: Hugging Face transformers' get_rope_index.
//
// transformers 4.x (the code the Qwen models were released with; vLLM's
// MRotaryEmbedding follows it):
//  - qwen2_vl/modeling_qwen2_vl.py Qwen2VLModel.get_rope_index: text runs count up from
//    st_idx; a vision block of grid (t, h/m, w/m) gets ids (t_i, h_i, w_i) + st_idx + text_len
//    in t-major, then row, then column order; the next run starts at that block's max id + 1.
//  - qwen2_5_vl/modeling_qwen2_5_vl.py Qwen2_5_VLModel.get_rope_index: the same, but a
//    video's temporal id is (t_i · second_per_grid_t · tokens_per_second).long() with
//    second_per_grid_t = temporal_patch_size / fps (processing_qwen2_5_vl.py), and an image's
//    is 0 (second_per_grid_t = 0). Computed in float32 as torch does (float tensor times
//    an integer range). transformers 4.5x releases cast second_per_grid_t to int64 first
//    ("normalize type, send to device"), which differs only when it is not a whole number.
//  - qwen3_vl/modular_qwen3_vl.py Qwen3VLModel.get_rope_index: videos are first split into
//    one t = 1 block per temporal patch (the processor puts timestamp text between frames;
//    write it as text runs to count it), then the Qwen2-VL rule.
// transformers 5 (get_rope_index with mm_token_type_ids and get_vision_position_ids):
//    vision ids are (start + t_i · time_interval, start + row, start + col) and the next
//    run starts at start + max(h, w) // m, whatever the temporal extent; Qwen2.5-VL's
//    time_interval = tokens_per_second · int(second_per_grid_t).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

#include "pe/base/errors.hpp"
#include "pe/multimodal/multimodal.hpp"

namespace pe {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string printable(std::string_view s) {
  // Item text in messages: cut, and no control bytes (the prompt comes from a command line).
  std::string out;
  for (char ch : s.substr(0, 60)) out += (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ? '?' : ch;
  if (s.size() > 60) out += "...";
  return out;
}

[[noreturn]] void reject_item(std::size_t index, std::string_view item, const std::string& allowed) {
  throw InvalidArgument("prompt", "item " + std::to_string(index + 1) + " \"" + printable(item) + "\"", allowed);
}

// A whole number 1 ... maximum, digits only.
bool parse_count(std::string_view s, long long maximum, long long& out) {
  if (s.empty() || s.size() > 19) return false;
  for (char ch : s)
    if (ch < '0' || ch > '9') return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && out >= 1 && out <= maximum;
}

const char* const kItemForms = "text:N, image:TxHxW or video:TxHxW (grid before the spatial merge)";

struct Block {
  PromptItemKind kind;
  long long tokens;  // text
  long long t, gh, gw;
  long long h, w;    // before merging (transformers 5 advances by max(h, w) // m)
};

void push_ids(PositionIds& ids, PromptItemKind kind, long long t, long long h, long long w) {
  ids.t.push_back(t);
  ids.h.push_back(h);
  ids.w.push_back(w);
  ids.kind.push_back(kind);
}

// Temporal id offset of frame ti of a vision block (before adding the block start).
long long temporal_id(const RopeIndexOptions& o, PromptItemKind kind, long long ti) {
  if (o.family != RopeIndexFamily::Qwen25VL) return ti;
  if (kind == PromptItemKind::Image) return o.version == RopeIndexVersion::Transformers4 ? 0 : ti;
  // second_per_grid_ts reaches the model as a float32 tensor.
  const float second_per_grid = static_cast<float>(static_cast<double>(o.temporal_patch_size) / o.sample_fps);
  if (o.version == RopeIndexVersion::Transformers4) {
    const float time = static_cast<float>(ti) * second_per_grid * static_cast<float>(o.tokens_per_second);
    return static_cast<long long>(time);  // .long() truncates toward zero
  }
  const double interval = o.tokens_per_second * std::trunc(static_cast<double>(second_per_grid));
  return static_cast<long long>(static_cast<double>(ti) * interval);
}

}  // namespace

const char* to_string(PromptItemKind k) {
  switch (k) {
    case PromptItemKind::Text: return "text";
    case PromptItemKind::Image: return "image";
    case PromptItemKind::Video: return "video";
  }
  return "text";
}

std::vector<PromptItem> parse_prompt_spec(const std::string& text) {
  std::vector<PromptItem> out;
  if (trim(text).empty()) throw InvalidArgument("prompt", "\"\"", std::string("a comma-separated list of ") + kItemForms);
  std::string_view rest(text);
  std::size_t index = 0;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view raw = rest.substr(0, comma);
    const std::string_view item = trim(raw);
    if (static_cast<long long>(out.size()) >= kMaxPromptItems)
      reject_item(index, item, "at most " + std::to_string(kMaxPromptItems) + " items per prompt");
    const std::size_t colon = item.find(':');
    if (item.empty() || colon == std::string_view::npos) reject_item(index, item, std::string("expected ") + kItemForms);
    const std::string_view kind = trim(item.substr(0, colon));
    const std::string_view value = trim(item.substr(colon + 1));
    PromptItem p;
    if (kind == "text") {
      p.kind = PromptItemKind::Text;
      if (!parse_count(value, kMaxPromptTokens, p.tokens))
        reject_item(index, item, "text:N with N a whole number of tokens, 1 ... " + std::to_string(kMaxPromptTokens));
    } else if (kind == "image" || kind == "video") {
      p.kind = kind == "image" ? PromptItemKind::Image : PromptItemKind::Video;
      long long thw[3] = {0, 0, 0};
      std::string_view v = value;
      for (int k = 0; k < 3; ++k) {
        const std::size_t x = k < 2 ? v.find('x') : std::string_view::npos;
        if (k < 2 && x == std::string_view::npos)
          reject_item(index, item, std::string(kind) + ":TxHxW, three whole numbers joined by x (e.g. 1x8x12)");
        if (!parse_count(v.substr(0, x), kMaxPromptGridSide, thw[k]))
          reject_item(index, item,
                      std::string(kind) + ":TxHxW with each of T, H, W a whole number 1 ... " +
                          std::to_string(kMaxPromptGridSide));
        if (k < 2) v.remove_prefix(x + 1);
      }
      p.t = thw[0];
      p.h = thw[1];
      p.w = thw[2];
    } else {
      reject_item(index, item, std::string("expected ") + kItemForms);
    }
    out.push_back(p);
    ++index;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

std::string format_prompt_spec(const std::vector<PromptItem>& prompt) {
  std::string s;
  for (const PromptItem& p : prompt) {
    if (!s.empty()) s += ',';
    s += to_string(p.kind);
    s += ':';
    if (p.kind == PromptItemKind::Text) s += std::to_string(p.tokens);
    else s += std::to_string(p.t) + "x" + std::to_string(p.h) + "x" + std::to_string(p.w);
  }
  return s;
}

RopeIndexOptions rope_index_options(const RopeConfig& config, double sample_fps) {
  const MultimodalRope& m = config.multimodal;
  RopeIndexOptions o;
  o.family = m.rope_index;
  o.spatial_merge_size = m.spatial_merge_size;
  o.temporal_patch_size = m.temporal_patch_size;
  o.tokens_per_second = m.tokens_per_second;
  o.sample_fps = sample_fps;
  return o;
}

PositionIds rope_index(const std::vector<PromptItem>& prompt, const RopeIndexOptions& o) {
  require_in_range("spatial_merge_size", o.spatial_merge_size, 1, 1024);
  require_in_range("temporal_patch_size", o.temporal_patch_size, 1, 1024);
  if (!std::isfinite(o.tokens_per_second) || o.tokens_per_second < 0.0 || o.tokens_per_second > 1e6)
    throw InvalidArgument("tokens_per_second", format_double(o.tokens_per_second), "a finite number 0 ... 1e6");
  if (!std::isfinite(o.sample_fps) || o.sample_fps <= 0.0 || o.sample_fps > 1e6)
    throw InvalidArgument("sample_fps", format_double(o.sample_fps), "sampled video frames per second, > 0 and at most 1e6");
  if (prompt.empty()) throw InvalidArgument("prompt", "empty", "at least one text, image or video item");
  if (static_cast<long long>(prompt.size()) > kMaxPromptItems)
    throw InvalidArgument("prompt", std::to_string(prompt.size()) + " items",
                          "at most " + std::to_string(kMaxPromptItems) + " items");

  const long long m = o.spatial_merge_size;
  std::vector<Block> blocks;
  long long total = 0;
  for (std::size_t k = 0; k < prompt.size(); ++k) {
    const PromptItem& p = prompt[k];
    const std::string item = "item " + std::to_string(k + 1) + " \"" + format_prompt_spec({p}) + "\"";
    if (p.kind == PromptItemKind::Text) {
      if (p.tokens < 1 || p.tokens > kMaxPromptTokens)
        throw InvalidArgument("prompt", item, "text runs have 1 ... " + std::to_string(kMaxPromptTokens) + " tokens");
      total += p.tokens;
      blocks.push_back({p.kind, p.tokens, 0, 0, 0, 0, 0});
    } else {
      for (long long v : {p.t, p.h, p.w})
        if (v < 1 || v > kMaxPromptGridSide)
          throw InvalidArgument("prompt", item,
                                "grid sizes T, H, W are 1 ... " + std::to_string(kMaxPromptGridSide));
      if (p.h % m != 0 || p.w % m != 0)
        throw InvalidArgument("prompt", item,
                              "H and W (patches before merging) must be divisible by spatial_merge_size = " +
                                  std::to_string(m) + " (got H = " + std::to_string(p.h) + ", W = " +
                                  std::to_string(p.w) + ")");
      const long long gh = p.h / m, gw = p.w / m;
      total += p.t * gh * gw;  // each factor <= 65536: no overflow
      // Qwen3-VL: one t = 1 block per temporal patch of a video.
      if (o.family == RopeIndexFamily::Qwen3VL && p.kind == PromptItemKind::Video)
        for (long long f = 0; f < p.t; ++f) blocks.push_back({p.kind, 0, 1, gh, gw, p.h, p.w});
      else
        blocks.push_back({p.kind, 0, p.t, gh, gw, p.h, p.w});
    }
    if (total > kMaxPromptTokens)
      throw InvalidArgument("prompt", std::to_string(total) + "+ tokens by " + item,
                            "at most " + std::to_string(kMaxPromptTokens) + " tokens (text plus merged patches)");
  }

  PositionIds ids;
  ids.t.reserve(static_cast<std::size_t>(total));
  ids.h.reserve(static_cast<std::size_t>(total));
  ids.w.reserve(static_cast<std::size_t>(total));
  ids.kind.reserve(static_cast<std::size_t>(total));
  long long next = 0;  // where the next run starts
  for (const Block& b : blocks) {
    if (b.kind == PromptItemKind::Text) {
      for (long long j = 0; j < b.tokens; ++j) push_ids(ids, b.kind, next + j, next + j, next + j);
      next += b.tokens;
      continue;
    }
    const long long start = next;
    long long max_offset = 0;
    for (long long ti = 0; ti < b.t; ++ti) {
      const long long tid = temporal_id(o, b.kind, ti);
      max_offset = std::max(max_offset, tid);
      for (long long r = 0; r < b.gh; ++r)
        for (long long c = 0; c < b.gw; ++c) push_ids(ids, b.kind, start + tid, start + r, start + c);
    }
    if (o.version == RopeIndexVersion::Transformers4)
      next = start + std::max({max_offset, b.gh - 1, b.gw - 1}) + 1;
    else
      next = start + std::max(b.h, b.w) / m;
  }
  long long max_id = 0;
  for (std::size_t j = 0; j < ids.t.size(); ++j) max_id = std::max({max_id, ids.t[j], ids.h[j], ids.w[j]});
  ids.rope_delta = max_id + 1 - ids.tokens();
  return ids;
}

}  // namespace pe
