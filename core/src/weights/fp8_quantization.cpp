// quantization_config of FP8 checkpoints (fp8_quantization.hpp).
#include "pe/weights/fp8_quantization.hpp"

#include <nlohmann/json.hpp>

namespace pe {

namespace {

using json = nlohmann::json;

// A block side a weight can have: 1 ... 2^31 (DeepSeek and transformers: 128).
constexpr long long kMaxBlockSide = 1LL << 31;

void block_size(const json& v, Fp8Quantization& q) {
  if (v.is_null()) {
    q.block_rows = q.block_cols = 0;  // transformers Fp8Dequantize: the whole matrix is one block
    return;
  }
  const auto side = [](const json& x) -> long long {
    if (!x.is_number_integer()) return 0;
    const long long n = x.get<long long>();
    return n >= 1 && n <= kMaxBlockSide ? n : 0;
  };
  if (v.is_array() && v.size() == 2 && side(v[0]) && side(v[1])) {
    q.block_rows = side(v[0]);
    q.block_cols = side(v[1]);
    return;
  }
  q.problem_key = "quantization_config.weight_block_size";
  q.problem = "expected [rows, columns], two integers 1 ... " + std::to_string(kMaxBlockSide) + " (or null), got " +
              v.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 80);
}

}  // namespace

Fp8Quantization fp8_quantization_of(const std::string& config_json, const std::string& config_name) {
  Fp8Quantization q;
  q.config = config_name;
  json root;
  try {
    root = json::parse(config_json);
  } catch (const json::exception&) {
    return q;
  }
  if (!root.is_object()) return q;
  const json* config = nullptr;
  if (const auto top = root.find("quantization_config"); top != root.end()) {
    config = &*top;
  } else if (const auto text = root.find("text_config"); text != root.end() && text->is_object()) {
    if (const auto inner = text->find("quantization_config"); inner != text->end()) config = &*inner;
  }
  if (!config || config->is_null()) return q;
  const json* it = config;
  if (!it->is_object()) {
    q.declared = true;
    q.problem_key = "quantization_config";
    q.problem = "expected an object, got " + std::string(it->type_name());
    return q;
  }
  q.declared = true;
  if (const auto m = it->find("quant_method"); m != it->end() && m->is_string()) q.quant_method = m->get<std::string>();
  if (const auto f = it->find("fmt"); f != it->end() && f->is_string()) q.fmt = f->get<std::string>();
  if (const auto b = it->find("weight_block_size"); b != it->end()) block_size(*b, q);
  return q;
}

}  // namespace pe
