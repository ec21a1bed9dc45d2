// Names of the relative module's enumerations, one place for all: the words the CLI, the
// sessions and the dump print, and the config values they parse.
#include <string>

#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"
#include "pe/relative/cope.hpp"
#include "pe/relative/deberta.hpp"
#include "pe/relative/distance_comparison.hpp"
#include "pe/relative/relative_keys.hpp"
#include "pe/relative/t5_bias.hpp"

namespace pe {

const char* to_string(T5BiasSharing sharing) {
  return sharing == T5BiasSharing::PerStack ? "per-stack" : "per-layer";
}

const char* to_string(DebertaReference reference) {
  return reference == DebertaReference::Transformers ? "transformers" : "microsoft";
}

const char* to_string(RelativeKeyType type) {
  return type == RelativeKeyType::RelativeKey ? "relative_key" : "relative_key_query";
}

RelativeKeyType relative_key_type_from_string(const std::string& text) {
  if (text == "relative_key") return RelativeKeyType::RelativeKey;
  if (text == "relative_key_query") return RelativeKeyType::RelativeKeyQuery;
  throw InvalidArgument("position_embedding_type", "\"" + text + "\"",
                        "relative keys are relative_key or relative_key_query");
}

const char* to_string(CopeGatePattern pattern) {
  switch (pattern) {
    case CopeGatePattern::EveryToken: return "every-token";
    case CopeGatePattern::SentenceEnds: return "sentence-ends";
    case CopeGatePattern::Words: return "words";
    case CopeGatePattern::Punctuation: return "punctuation";
  }
  return "every-token";
}

CopeGatePattern cope_gate_pattern_from_string(const std::string& text) {
  for (const CopeGatePattern p : {CopeGatePattern::EveryToken, CopeGatePattern::SentenceEnds, CopeGatePattern::Words,
                                  CopeGatePattern::Punctuation}) {
    if (text == to_string(p)) return p;
  }
  throw InvalidArgument("cope_gates", "\"" + text + "\"", "one of every-token, sentence-ends, words, punctuation");
}

const char* to_string(DistanceCurveKind kind) {
  switch (kind) {
    case DistanceCurveKind::Bias: return "bias";
    case DistanceCurveKind::Multiplier: return "multiplier";
    case DistanceCurveKind::Score: return "score";
    case DistanceCurveKind::Transform: return "transform";
  }
  return "bias";
}

}  // namespace pe
