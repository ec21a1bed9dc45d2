#include "cli/weights_command.hpp"
#include "cli/interrupt.hpp"
#include "cli/json_arrays.hpp"
#include "cli/transfer_progress.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <ostream>
#include <sstream>

#include "pe/models/hf_cache.hpp"
#include "pe/weights/weights_error.hpp"
#include "platform/atomic_file.hpp"
#include "state/weights_job.hpp"

namespace app {
namespace {

using json = nlohmann::json;

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * share);
  return buf;
}

std::string num(double v, const char* format = "%.4g") {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

double wavelength(double inv_freq) { return inv_freq > 0 ? 2.0 * std::numbers::pi / inv_freq : INFINITY; }

std::vector<long long> range(long long first, long long last) {
  std::vector<long long> v;
  for (long long j = first; j < last; ++j) v.push_back(j);
  return v;
}

std::string pairs_text(const std::vector<long long>& pairs) {
  if (pairs.empty()) return "none";
  return std::string(pairs.size() == 1 ? "pair " : "pairs ") + pair_ranges(pairs);
}

}  // namespace

std::string weights_text(const WeightsUsage& w, bool per_head) {
  const pe::FrequencyUsage& u = w.usage;
  std::ostringstream out;
  out << "pe-viz weights: " << u.source << "\n";
  if (!w.config.empty()) out << "  config   " << w.config << "\n";
  out << "  q/k      " << u.family << ", " << u.dtype << "; pairs stored " << u.convention << " (" << u.convention_reason << ")\n";
  const long long pairs = u.inv_freq.size();
  out << "  model    " << u.layers << " layers, " << u.heads << " query heads, " << u.kv_heads << " key/value heads, " << pairs
      << " rotary pairs per head\n";
  if (pairs > 0) {
    out << "  RoPE     θ_j from " << num(u.inv_freq[0]) << " to " << num(u.inv_freq[pairs - 1]) << " rad/position";
    bool scaled = false;
    for (Eigen::Index j = 0; j < pairs; ++j) scaled = scaled || u.inv_freq[j] != u.original_inv_freq[j];
    if (scaled) out << " as rotated at the full context (unscaled " << num(u.original_inv_freq[0]) << " to " << num(u.original_inv_freq[pairs - 1]) << ")";
    out << "; wavelengths 2π/θ_j from " << num(wavelength(u.original_inv_freq[0])) << " to "
        << num(wavelength(u.original_inv_freq[pairs - 1])) << " positions (unscaled)\n";
  }
  out << "  context  trained on " << u.training_context << " positions\n";
  const double rate = w.seconds > 0 ? double(u.bytes_read) / w.seconds / 1e9 : 0.0;
  out << "  read     " << u.bytes_read << " bytes of q/k (" << byte_count(u.bytes_read) << ") in " << num(w.seconds, "%.3f") << " s";
  if (rate > 0 && u.bytes_read >= (1u << 20)) out << " (" << num(rate, "%.2f") << " GB/s)";
  out << "\n";
  if (w.bytes_moved > 0 || w.bytes_from_cache > 0)
    out << "  moved    " << w.bytes_moved << " bytes (" << byte_count(w.bytes_moved) << ") over the network; " << byte_count(w.bytes_from_cache)
        << " from the caches\n";
  for (const auto& n : u.notes) out << "  note     " << (n.key.empty() ? "" : n.key + ": ") << n.message << "\n";

  const long long q = pe::quarter_pairs(pairs);
  out << "\nThe q·k weight of pair j: w_j = Σ_h ‖q_h,j‖·‖k_g(h),j‖, where ‖q_h,j‖ is the norm of the two rows of W_q that\n"
         "produce pair j of query head h (‖k_g,j‖ likewise for key head g = the one head h attends with).\n";
  if (pairs > 0)
    out << "Share of Σ_j w_j per layer, pairs ranked by frequency: fastest quarter " << pairs_text(range(0, q)) << ", middle "
        << pairs_text(range(q, pairs - q)) << ", slowest " << pairs_text(range(pairs - q, pairs)) << ".\n";
  bool nonrotary = false;
  for (const auto& l : w.summary) nonrotary = nonrotary || l.nonrotary_qk > 0;
  out << "\n  layer  fastest   middle  slowest  beyond the training context (λ > " << u.training_context << ")"
      << (nonrotary ? "   non-rotary dims" : "") << "\n";
  char line[256];
  for (const auto& l : w.summary) {
    std::snprintf(line, sizeof line, "  %5lld  ", l.layer);
    out << line;
    if (!l.attention) {
      out << "no attention (no q/k weights)\n";
      continue;
    }
    if (!l.rotary) {
      out << "NoPE layer: no rotary pairs";
      if (l.nonrotary_qk > 0) out << "; Σ_h ‖q_h‖·‖k_g(h)‖ = " << num(l.nonrotary_qk);
      out << "\n";
      continue;
    }
    std::snprintf(line, sizeof line, "%7s  %7s  %7s  ", percent(l.share_fastest).c_str(), percent(l.share_middle).c_str(),
                  percent(l.share_slowest).c_str());
    out << line;
    double beyond = 0;
    for (long long j : l.pairs_beyond_context) beyond += l.qk[j];
    std::string b = pairs_text(l.pairs_beyond_context);
    if (!l.pairs_beyond_context.empty()) b += ": " + percent(l.total > 0 ? beyond / l.total : 0.0);
    if (static_cast<long long>(l.qk.size()) != pairs) b += " (" + std::to_string(l.qk.size()) + " pairs in this layer)";
    out << b;
    if (nonrotary) {
      const double all = l.total + l.nonrotary_qk;
      out << std::string(b.size() < 34 ? 34 - b.size() : 1, ' ') << percent(all > 0 ? l.nonrotary_qk / all : 0.0) << " of rotary + non-rotary";
    }
    out << "\n";
  }
  if (per_head) {
    for (std::size_t e = 0; e < u.layer_index.size(); ++e) {
      if (!u.layer_attention[e]) continue;
      for (const auto& [name, m, what] : {std::tuple{"‖q_h,j‖", &u.q_pair_norms[e], "query head"},
                                          std::tuple{"‖k_g,j‖", &u.k_pair_norms[e], "key head"}}) {
        out << "\nLayer " << u.layer_index[e] << ", " << name << " per " << what << " (rows) and pair (columns):\n";
        out << "  " << std::string(std::string(what).size(), ' ');
        for (Eigen::Index j = 0; j < m->cols(); ++j) {
          std::snprintf(line, sizeof line, " %9lld", static_cast<long long>(j));
          out << line;
        }
        out << "\n";
        for (Eigen::Index h = 0; h < m->rows(); ++h) {
          std::snprintf(line, sizeof line, "  %*lld", static_cast<int>(std::string(what).size()), static_cast<long long>(h));
          out << line;
          for (Eigen::Index j = 0; j < m->cols(); ++j) {
            std::snprintf(line, sizeof line, " %9.4g", (*m)(h, j));
            out << line;
          }
          out << "\n";
        }
      }
    }
  }
  return out.str();
}

std::string weights_json(const WeightsUsage& w) {
  const pe::FrequencyUsage& u = w.usage;
  json j;
  j["source"] = u.source;
  j["config"] = w.config;
  j["dtype"] = u.dtype;
  j["convention"] = u.convention;
  j["convention_reason"] = u.convention_reason;
  j["family"] = u.family;
  j["layers"] = u.layers;
  j["heads"] = u.heads;
  j["kv_heads"] = u.kv_heads;
  j["training_context"] = u.training_context;
  j["inv_freq"] = array_of(u.inv_freq);
  j["original_inv_freq"] = array_of(u.original_inv_freq);
  j["layer_index"] = u.layer_index;
  json attention = json::array(), rotary = json::array(), layer_inv_freq = json::array(), q = json::array(), k = json::array(),
       qn = json::array(), kn = json::array();
  for (std::size_t e = 0; e < u.layer_index.size(); ++e) {
    attention.push_back(bool(u.layer_attention[e]));
    rotary.push_back(bool(u.layer_rotary[e]));
    layer_inv_freq.push_back(array_of(u.layer_inv_freq[e]));
    q.push_back(matrix_of(u.q_pair_norms[e]));
    k.push_back(matrix_of(u.k_pair_norms[e]));
    qn.push_back(array_of(u.q_nonrotary_norms[e]));
    kn.push_back(array_of(u.k_nonrotary_norms[e]));
  }
  j["layer_attention"] = attention;
  j["layer_rotary"] = rotary;
  j["layer_inv_freq"] = layer_inv_freq;
  j["q_pair_norms"] = q;
  j["k_pair_norms"] = k;
  j["q_nonrotary_norms"] = qn;
  j["k_nonrotary_norms"] = kn;
  json summary = json::array();
  for (const auto& l : w.summary)
    summary.push_back({{"layer", l.layer},
                       {"attention", l.attention},
                       {"rotary", l.rotary},
                       {"qk", array_of(l.qk)},
                       {"total", l.total},
                       {"share_fastest", l.share_fastest},
                       {"share_middle", l.share_middle},
                       {"share_slowest", l.share_slowest},
                       {"fastest_pairs", l.fastest_pairs},
                       {"middle_pairs", l.middle_pairs},
                       {"slowest_pairs", l.slowest_pairs},
                       {"pairs_beyond_context", l.pairs_beyond_context},
                       {"nonrotary_qk", l.nonrotary_qk}});
  j["summary"] = summary;
  j["bytes_read"] = u.bytes_read;
  j["bytes_moved"] = w.bytes_moved;
  j["bytes_cached"] = w.bytes_from_cache;
  json notes = json::array();
  for (const auto& n : u.notes) notes.push_back({{"severity", pe::to_string(n.severity)}, {"key", n.key}, {"message", n.message}});
  j["notes"] = notes;
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

int run_weights_command(int argc, char** argv) {
  return run_weights_command(argc, argv, std::cout, std::cerr);
}

int run_weights_command(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App cli{"What training made of a model's positions. A model that rotates q and k: which rotary frequencies its q/k weights use "
               "(Barbero et al., ICLR 2025); a model that does not (GPT-2, BERT, RoBERTa, OPT, BART, Whisper, ViT, CLIP, T5, UMT5, "
               "DeBERTa, ...): its trained position tensors instead — the learned absolute table (wpe.weight, "
               "embeddings.position_embeddings.weight, embed_positions.weight with OPT's and BART's 2 offset rows or RoBERTa's "
               "padding_idx + 1 dropped), T5's relative_attention_bias [num_buckets, heads] per stack (UMT5: per layer), DeBERTa's "
               "rel_embeddings (after the encoder's LayerNorm when norm_rel_ebd says so), with the cosine similarity of positions, "
               "the principal components and each dimension's frequency content of a learned table; --json prints them (keys: "
               "position_embeddings [position][dim], relative_attention_bias {encoder, decoder} [bucket][head], ...). Only those "
               "tensors, or W_q and W_k, are read, "
               "memory-mapped: safetensors (one file or sharded; F32, F16, BF16, and F8_E4M3 / F8_E5M2 with their block scales, "
               "…weight_scale_inv, as DeepSeek-V3/R1 and Kimi K2 ship them, the block size from config.json's "
               "quantization_config.weight_block_size) or GGUF (F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, IQ4_NL, Q2_K, Q3_K, "
               "Q4_K, Q5_K, Q6_K, IQ4_XS; other ggml types are refused by name). For each layer, query head h and rotary pair j (the pair that turns with θ_j, after undoing the storage "
               "order: Hugging Face half-split rows j and j + rot/2, llama.cpp's interleaved rows 2j and 2j+1) the measure is "
               "‖q_h,j‖ = sqrt(‖W_q[a]‖² + ‖W_q[b]‖²), the same for W_k per key head, and the pair's q·k weight "
               "w_j = Σ_h ‖q_h,j‖·‖k_g(h),j‖. The text shows, per layer, the share of Σ_j w_j in the fastest, middle and "
               "slowest quarter of the pairs and the pairs whose wavelength 2π/θ_j exceeds the training context.",
               "pe-viz weights"};
  std::optional<std::string> model, gguf, csv_path;
  std::optional<long long> layer;
  bool as_json = false;
  int threads = 0;
  auto* model_opt = cli.add_option("--model", model,
                                   "A Hugging Face checkpoint: a model folder (config.json + model.safetensors or "
                                   "model.safetensors.index.json and its shards), a .safetensors file or an index .json with "
                                   "config.json beside it, or ORG/NAME[@REVISION]: from the local Hugging Face cache when its files "
                                   "are there, else from the Hub by range — config.json (kept in the Hugging Face cache), the index, "
                                   "each shard's header and only the q/k rows (kept in ~/.cache/pe-viz: a second run downloads "
                                   "nothing). HF_ENDPOINT, HF_TOKEN (or HUGGING_FACE_HUB_TOKEN, or $HF_HOME/token), HF_HUB_OFFLINE=1 "
                                   "(no network), HF_HOME and HF_HUB_CACHE are read as huggingface_hub reads them");
  auto* gguf_opt = cli.add_option("--gguf", gguf, "A GGUF file (llama.cpp); its metadata gives the heads, widths and RoPE");
  model_opt->excludes(gguf_opt);
  cli.add_flag("--json", as_json,
               "Print JSON instead of text: source, config, dtype, convention, convention_reason, family, layers (the model's "
               "layer count), heads, kv_heads, training_context, inv_freq [pair] (as rotated at the full context), "
               "original_inv_freq [pair], layer_index [the layers read], layer_attention, layer_rotary, layer_inv_freq "
               "[layer][pair], q_pair_norms [layer][head][pair], k_pair_norms [layer][kv_head][pair], q_nonrotary_norms "
               "[layer][head], k_nonrotary_norms [layer][kv_head], summary [per layer: qk, total, share_fastest, share_middle, "
               "share_slowest, pairs_beyond_context, nonrotary_qk, ...], bytes_read, bytes_moved (over the network), bytes_cached (from the caches instead), notes. Norms are of the stored values "
               "(a quantised GGUF's dequantised values; FP8 values times their block scales), summed in double. A layer "
               "without q/k weights has empty arrays. A model that does not rotate prints its position tensors instead: "
               "source, config, model_type, position_encoding, encoder_position_encoding, position_embeddings [position][dim] "
               "(offset rows dropped, said in notes), encoder_position_embeddings, vision_position_embeddings, "
               "relative_attention_bias {\"encoder\": [bucket][head], \"decoder\": [bucket][head]} (a stack the model lacks is "
               "absent; UMT5: layer 0's, every layer's in relative_attention_bias_per_layer [layer][bucket][head]), "
               "relative_attention_num_buckets, relative_attention_max_distance, rel_embeddings [row][dim], tensors, analysis "
               "{similarity_by_distance, principal_components, spectra}, bytes_read, bytes_moved, bytes_cached, notes.");
  cli.add_option("--csv", csv_path,
                 "Also write the norms to FILE as one tidy table for pandas (pd.read_csv(FILE)) or R, a row per (layer, kind, "
                 "head, pair): layer, kind (q | k | q_nonrotary | k_nonrotary), head, kv_head (the key head a query head "
                 "attends with), pair, inv_freq (as rotated), original_inv_freq, wavelength (2π/original_inv_freq, positions), "
                 "beyond_context (true when the wavelength exceeds the training context), norm. Non-rotary rows (partial "
                 "rotary, NoPE layers) leave the pair columns empty. E.g. "
                 "df[df.kind=='q'].groupby(['layer','pair']).norm.sum().unstack()");
  cli.add_option("--layer", layer, "Read only this layer (0-based) and print its per-head norms as tables");
  cli.add_option("--threads", threads, "Reading threads: 0 = one per core (default), 1 = the calling thread only")
      ->check(CLI::Range(0, 256));
  cli.footer("Exit codes: 0 read; 1 the weights could not be read (the message names the file and the tensor, or what the Hub "
             "answered: a gated model, a repository, revision or file not found); 2 bad command line; 130 stopped by Ctrl-C. A "
             "progress line goes to stderr when it is a terminal (bytes of the total, the rate); a wait for the Hub (a rate "
             "limit, a retry) is announced there always.\n\nExamples:\n"
             "  pe-viz weights --model tests/data/stories260K\n"
             "  pe-viz weights --model tests/data/makemore-tr --json > positions.json   (a GPT: its learned table)\n"
             "  pe-viz weights --model Qwen/Qwen3-8B --json > usage.json\n"
             "  pe-viz weights --gguf model.Q4_K_M.gguf --csv usage.csv --layer 12");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e, out, err);
    return code == 0 ? 0 : 2;
  }
  if (!model && !gguf) {
    err << "pe-viz weights: give the weights: --model DIR|FILE.safetensors|ORG/NAME or --gguf FILE.gguf\n";
    return 2;
  }
  if (layer && *layer < 0) {
    err << "pe-viz weights: --layer: " << *layer << " is not a layer index (0, 1, ...)\n";
    return 2;
  }
  const std::string source = model ? *model : *gguf;
  pe::WeightsReadOptions options;
  options.threads = threads;
  if (layer) options.layers = {*layer};
  WeightsUsage w;
  bool bad_layer = false;
  if (gguf) {
    pe::OpenedWeights opened;
    try {
      opened = open_gguf_source(*gguf);
    } catch (const std::exception& e) {
      err << "pe-viz weights: " << e.what() << "\n";
      return 1;
    }
    const long long layers = opened.model.shape.num_hidden_layers;
    if (layer && !opened.rotary()) {
      err << "pe-viz weights: --layer: " << opened.encoding.model_type << " does not rotate q and k: there are no per-layer q/k "
          << "norms (its position tensors are read whole)\n";
      return 2;
    }
    if (layer && *layer >= layers) {
      err << "pe-viz weights: --layer: " << *layer << " is not a layer of " << source << " (it has " << layers << ": 0 ... " << layers - 1
          << ")\n";
      return 2;
    }
    w = measure_opened(opened, source, options);
  } else {
    // A path, the local Hugging Face cache, or the Hub: a job in steps, so Ctrl-C stops it
    // between two (transfers cancelled, nothing half-written in the caches).
    const auto check_layer = [&](const pe::OpenedWeights& opened) {
      const long long layers = opened.model.shape.num_hidden_layers;
      if (layer && !opened.rotary()) {
        bad_layer = true;
        throw std::runtime_error("--layer: " + opened.encoding.model_type + " does not rotate q and k: there are no per-layer q/k "
                                 "norms (its position tensors are read whole)");
      }
      if (layer && *layer >= layers) {
        bad_layer = true;
        throw std::runtime_error("--layer: " + std::to_string(*layer) + " is not a layer of " + source + " (it has " + std::to_string(layers) +
                                 ": 0 ... " + std::to_string(layers - 1) + ")");
      }
    };
    const InterruptGuard interrupt;
    WeightsJob job(source, options, check_layer);
    TransferProgress progress(err, "pe-viz weights", source);
    while (!job.advance(100)) {
      progress.notices(job.take_notices());
      progress.update(job.progress());
      if (InterruptGuard::interrupted()) job.cancel();
    }
    progress.notices(job.take_notices());
    w = job.take();
    if (w.cancelled) {
      progress.clear();
      err << "pe-viz weights: stopped (Ctrl-C); nothing half-written is left in the caches\n";
      return kInterruptedExit;
    }
  }
  if (!w.ok()) {
    err << "pe-viz weights: " << (w.error.empty() ? std::string("cancelled") : w.error) << "\n";
    return bad_layer ? 2 : 1;
  }
  if (csv_path && !w.rotary) {
    err << "pe-viz weights: --csv: " << w.encoding.model_type << " does not rotate: there are no q/k pair norms to write (--json has its "
        << "position tensors)\n";
    return 2;
  }
  if (csv_path) {
    try {
      const std::string text = weights_csv(w);
      write_file_atomic(*csv_path, text.data(), text.size());
    } catch (const std::exception& e) {
      err << "pe-viz weights: --csv: " << e.what() << "\n";
      return 1;
    }
  }
  if (!w.rotary) {
    out << (as_json ? positions_json(w) + "\n" : positions_text(w));
    return 0;
  }
  out << (as_json ? weights_json(w) + "\n" : weights_text(w, layer.has_value()));
  return 0;
}

}  // namespace app
