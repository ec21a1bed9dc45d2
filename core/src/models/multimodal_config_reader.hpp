#pragma once
// Internal to pe_core: the multimodal part of config.json reading (issue 12). config.cpp
// hands every parsed document here together with its own single-object reader; this file
// picks what that reader should see (the top level, `text_config`, or a diffusers
// transformer config made readable) and then fills RopeConfig::multimodal.
#include <nlohmann/json.hpp>
#include <string>

#include "config_resolve.hpp"
#include "pe/scaling/scaling.hpp"

namespace pe {

using ResolveObject = detail::Resolution (*)(const nlohmann::json& root, const std::string& name);

// Reads a whole config.json document: `resolve` (config.cpp's reader, which unwraps
// text_config and friends and collects diagnostics) reads the language model; this adds
//  - M-RoPE keys in the rope block: mrope_section, mrope_interleaved, type/rope_type "mrope";
//  - `vision_config`: spatial_merge_size, temporal_patch_size, tokens_per_second and the
//    vision encoder's rotary (head_dim, theta, variant);
//  - diffusers transformer configs with `axes_dims_rope` (FLUX): axial RoPE (a converted
//    copy is what `resolve` reads);
//  - presets: "pe_viz_tower": "vision" loads the vision encoder instead of the language model.
// Its notes become Info diagnostics. Throws ConfigError naming the key.
detail::Resolution resolve_multimodal_config(const nlohmann::json& root, const std::string& name, ResolveObject resolve);

}  // namespace pe
