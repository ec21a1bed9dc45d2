// The model inspector (issue 15): what the configuration's source says about positions —
// every positional key and how it was used (defaults, ignored or misspelt keys,
// contradictions), what transformers, vLLM and llama.cpp each compute from it, a GGUF's
// positional header and the pair conventions across its conversion. The same content as
// `pe-viz inspect`, from state/model_inspection (read once per source).
#include <imgui.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "pe/models/frameworks.hpp"
#include "pe/models/inspection_text.hpp"
#include "state/model_inspection.hpp"
#include "views/model_family.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

bool light_theme() {
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  return 0.2126f * bg.x + 0.7152f * bg.y + 0.0722f * bg.z > 0.5f;
}

// Severity colours readable on both themes.
ImVec4 severity_color(pe::Severity s) {
  const bool light = light_theme();
  switch (s) {
    case pe::Severity::Error: return light ? ImVec4(0.75f, 0.05f, 0.05f, 1) : ImVec4(1.0f, 0.45f, 0.4f, 1);
    case pe::Severity::Warning: return light ? ImVec4(0.6f, 0.35f, 0.0f, 1) : ImVec4(1.0f, 0.78f, 0.3f, 1);
    case pe::Severity::Info: break;
  }
  return ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
}

long long comparison_length(const AppState& s) { return std::max<long long>(s.length, 1); }

// A phone (is_narrow_view): each table's rows as short paragraphs instead, so no column is
// squeezed until its header or a word is cut.
bool g_narrow = false;

void coloured(const ImVec4& colour, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  text_line_wrapped(text);
  ImGui::PopStyleColor();
}

void section(const char* title) {
  ImGui::Spacing();
  if (g_narrow) text_line_wrapped(title);
  else ImGui::TextUnformatted(title);
  ImGui::Separator();
}

// A model that does not rotate: its family and parameters under their JSON keys (the rows of
// `pe-viz inspect`), what its layers share, and its own view.
void encoding_section(ViewContext& ctx, const pe::PositionEncodingInfo& e) {
  section(formatted("Positional encoding: %s (not RoPE)", pe::to_string(e.family)).c_str());
  const float em = ImGui::GetFontSize();
  if (ImGui::BeginTable("##encoding", 2, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, 16.0f * em);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    for (const auto& f : pe::position_encoding_fields(e)) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(f.key.c_str());
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(f.value.c_str());
      ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
  }
  if (ctx.show_widgets()) {
    const std::string target = family_view(ctx.state);
    if (target != "inspector" && ImGui::Button(("Show the " + target + " view").c_str())) ctx.state.view = target;
  }
}

void diagnostics_table(const std::vector<pe::Diagnostic>& diagnostics, const char* id) {
  if (diagnostics.empty()) {
    ImGui::TextDisabled("(none)");
    return;
  }
  const float em = ImGui::GetFontSize();
  if (g_narrow) {
    for (pe::Severity sev : {pe::Severity::Error, pe::Severity::Warning, pe::Severity::Info})
      for (const auto& d : diagnostics) {
        if (d.severity != sev) continue;
        coloured(severity_color(sev), std::string(pe::to_string(sev)) + ": " + (d.key.empty() ? "—" : d.key));
        ImGui::Indent();
        text_line_wrapped(d.message);
        ImGui::Unindent();
      }
    return;
  }
  if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("severity", ImGuiTableColumnFlags_WidthFixed, 5.0f * em);
  ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("what was found and how it is used", ImGuiTableColumnFlags_WidthStretch, 2.6f);
  ImGui::TableHeadersRow();
  // Errors and warnings first: they are what a reader must see.
  for (pe::Severity sev : {pe::Severity::Error, pe::Severity::Warning, pe::Severity::Info})
    for (const auto& d : diagnostics) {
      if (d.severity != sev) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(severity_color(sev), "%s", pe::to_string(sev));
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(d.key.empty() ? "—" : d.key.c_str());
      ImGui::PopTextWrapPos();
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(d.message.c_str());
      ImGui::PopTextWrapPos();
    }
  ImGui::EndTable();
}

void frameworks_list(const pe::FrameworkComparison& cmp) {
  for (const auto& r : cmp.results) {
    ImGui::TextUnformatted(pe::to_string(r.framework));
    ImGui::Indent();
    const std::string diff = r.framework == pe::Framework::Transformers ? std::string("reference") : formatted("%.3g", r.max_rel_diff_inv_freq);
    text_line_wrapped(formatted("attention %.6g,  logit scale %.6g,  max dθ/θ %s", r.attention_factor, r.logit_scale, diff.c_str()));
    text_line_wrapped(r.method + (r.supported ? "" : " [not supported]"));
    for (const auto& n : r.notes) coloured(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], n);
    if (!r.cause.empty()) coloured(severity_color(pe::Severity::Warning), "differs: " + r.cause);
    ImGui::Unindent();
  }
}

void frameworks_table(const pe::FrameworkComparison& cmp) {
  const float em = ImGui::GetFontSize();
  if (g_narrow) {
    frameworks_list(cmp);
  } else if (ImGui::BeginTable("##frameworks", 5, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("framework", ImGuiTableColumnFlags_WidthFixed, 7.0f * em);
    ImGui::TableSetupColumn("attention", ImGuiTableColumnFlags_WidthFixed, 5.5f * em);
    ImGui::TableSetupColumn("logit scale", ImGuiTableColumnFlags_WidthFixed, 5.5f * em);
    ImGui::TableSetupColumn("max dθ/θ", ImGuiTableColumnFlags_WidthFixed, 6.0f * em);
    ImGui::TableSetupColumn("method", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const auto& r : cmp.results) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(pe::to_string(r.framework));
      ImGui::TableNextColumn();
      ImGui::Text("%.6g", r.attention_factor);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("attention_factor = %.17g (multiplies cos and sin)", r.attention_factor);
      ImGui::TableNextColumn();
      ImGui::Text("%.6g", r.logit_scale);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("logit scale = %.17g (net factor on q·k)", r.logit_scale);
      ImGui::TableNextColumn();
      if (r.framework == pe::Framework::Transformers) {
        ImGui::TextDisabled("reference");
      } else {
        const bool differs = r.max_rel_diff_inv_freq > 1e-6;
        ImGui::TextColored(differs ? severity_color(pe::Severity::Warning) : ImGui::GetStyle().Colors[ImGuiCol_Text], "%.3g",
                           r.max_rel_diff_inv_freq);
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("largest relative difference of inv_freq from transformers: %.17g (pair %lld)", r.max_rel_diff_inv_freq,
                            r.worst_pair);
      }
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0.0f);
      ImGui::Text("%s%s", r.method.c_str(), r.supported ? "" : " [not supported]");
      for (const auto& n : r.notes) ImGui::TextDisabled("%s", n.c_str());
      if (!r.cause.empty()) ImGui::TextColored(severity_color(pe::Severity::Warning), "differs: %s", r.cause.c_str());
      ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
  }
  ImGui::PushTextWrapPos(0.0f);
  if (cmp.max_rel_diff > 0.0)
    ImGui::TextColored(severity_color(pe::Severity::Warning), "Largest difference: %.3g relative (%s): %s", cmp.max_rel_diff,
                       pe::to_string(cmp.worst), cmp.cause.c_str());
  else
    ImGui::TextUnformatted("All three frameworks compute the same frequencies and factors.");
  ImGui::PopTextWrapPos();
}

void gguf_section(const GgufSummary& g) {
  section(("GGUF header: " + g.architecture + ", llama.cpp rope mode " + pe::to_string(g.rope_mode)).c_str());
  if (g_narrow) {
    for (const auto& e : g.positional) {
      text_line_wrapped(e.key + " (" + e.type + ")");
      ImGui::Indent();
      text_line_wrapped(e.preview);
      ImGui::Unindent();
    }
    return;
  }
  if (!ImGui::BeginTable("##gguf", 3, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn("type", ImGuiTableColumnFlags_WidthStretch, 0.8f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableHeadersRow();
  for (const auto& e : g.positional) {
    ImGui::TableNextRow();
    for (const std::string* text : {&e.key, &e.type, &e.preview}) {
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(text->c_str());
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::EndTable();
}

void conversion_section(ViewContext& ctx, const ModelInspection& m) {
  const pe::ConversionConventions& c = *m.conversion;
  section(("Conversion from " + m.conversion_config).c_str());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::Text("Checkpoint pairs %s; llama.cpp pairs %s (rope mode %s).", pe::to_string(c.hf),
              c.gguf ? pe::to_string(*c.gguf) : "unknown", pe::to_string(c.rope_mode));
  ImGui::TextColored(c.consistent ? ImGui::GetStyle().Colors[ImGuiCol_Text] : severity_color(pe::Severity::Error), "q/k rows %s; %s.",
                     c.qk_permuted ? "permuted by the converter (convert_hf_to_gguf.py LlamaModel.permute)" : "not permuted",
                     c.consistent ? "both sides rotate the same pairs" : "the two sides rotate DIFFERENT pairs");
  ImGui::PopTextWrapPos();
  if (ctx.show_widgets()) {
    if (ImGui::Button("Show the conventions view")) ctx.state.view = "conventions";
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The two pairings and the permutation between them at this model's head_dim = %lld.",
                        ctx.state.rope.head_dim);
  }
  diagnostics_table(c.diagnostics, "##conversion");
}

}  // namespace

void draw_inspector_view(ViewContext& ctx) {
  const AppState& s = ctx.state;
  const ModelInspection& m = model_inspection(s);
  const pe::InspectedConfig& in = m.inspected;
  g_narrow = is_narrow_view(ctx, ctx.size.x);
  ImGui::BeginChild("##inspector", ctx.size, false);
  ImGui::PushTextWrapPos(0.0f);
  const pe::RopeConfig& c = in.loaded.config;
  ImGui::Text("Source: %s%s%s", in.source.c_str(), in.model_type.empty() ? "" : ", model_type ", in.model_type.c_str());
  if (!c.title.empty()) ImGui::TextDisabled("%s", c.title.c_str());
  if (!m.error.empty()) ImGui::TextColored(severity_color(pe::Severity::Warning), "Showing the configuration on screen: %s", m.error.c_str());
  const std::string edits = edits_since_source(s, m);
  if (!edits.empty()) ImGui::TextColored(severity_color(pe::Severity::Warning), "Changed since loading: %s.", edits.c_str());
  ImGui::PopTextWrapPos();
  const bool rotary = in.loaded.encoding.rotates();
  if (in.valid && !rotary) encoding_section(ctx, in.loaded.encoding);
  if (in.valid && rotary) {
    section("Configuration");
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("θ %s, head_dim %lld, rotary dims %lld, max_position_embeddings %lld, pairs %s", pe::plain_number(c.theta).c_str(),
                c.head_dim, c.rotary_dim(), c.max_position_embeddings, pe::to_string(c.convention));
    ImGui::Text("scaling: %s", pe::describe_scaling(c).c_str());
    ImGui::PopTextWrapPos();
  }
  int counts[3] = {0, 0, 0};
  for (const auto& d : in.loaded.diagnostics) ++counts[int(d.severity)];
  section(formatted("Diagnostics: %d error%s, %d warning%s, %d note%s", counts[2], counts[2] == 1 ? "" : "s", counts[1],
                    counts[1] == 1 ? "" : "s", counts[0], counts[0] == 1 ? "" : "s")
              .c_str());
  diagnostics_table(in.loaded.diagnostics, "##diagnostics");
  if (in.valid && !rotary) {
    const pe::PositionEncodingInfo& e = in.loaded.encoding;
    section(formatted("Layers: %lld%s (the layers view draws them)", e.num_hidden_layers + e.num_decoder_layers,
                      e.num_decoder_layers ? formatted(" — %lld encoder, %lld decoder", e.num_hidden_layers, e.num_decoder_layers).c_str() : "")
                .c_str());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::BulletText("shared: %s", e.shared.c_str());
    ImGui::PopTextWrapPos();
  }
  if (in.valid && rotary) {
    section(formatted("Frameworks at length L = %lld (differences relative to transformers)", comparison_length(s)).c_str());
    try {
      frameworks_table(pe::compare_frameworks(c, comparison_length(s), in.frameworks));
    } catch (const std::exception& e) {
      ImGui::TextColored(severity_color(pe::Severity::Error), "%s", e.what());
    }
    section(formatted("Layers: %zu (the layers view draws them; a row there makes that layer current)", in.plan.rows.size()).c_str());
    ImGui::PushTextWrapPos(0.0f);
    for (const auto& g : in.plan.groups())
      ImGui::BulletText("%zu × layers %s: %s", g.layers.size(), pe::format_layer_ranges(g.layers).c_str(), pe::describe_layer(g.row).c_str());
    ImGui::PopTextWrapPos();
  }
  if (m.gguf) gguf_section(*m.gguf);
  if (m.conversion) conversion_section(ctx, m);
  ImGui::EndChild();
}

namespace {

std::string inspector_csv(const AppState& s, const Derived&) {
  const ModelInspection& m = model_inspection(s);
  const pe::InspectedConfig& in = m.inspected;
  std::ostringstream out;
  out << "# " << csv_text(in.source) << (m.error.empty() ? "" : " (not readable: " + m.error + "; the state's configuration)") << "\n";
  out << "section,name,key,value,detail\n";
  const pe::RopeConfig& c = in.loaded.config;
  const bool rotary = in.loaded.encoding.rotates();
  if (in.valid && !rotary)
    for (const auto& f : pe::position_encoding_fields(in.loaded.encoding))
      out << "encoding,," << csv_text(f.key) << ',' << csv_text(f.value) << ",\n";
  if (in.valid && rotary) {
    out << "encoding,,position_encoding,rope,\n";
    out << "config,,theta," << csv_number(c.theta, 17) << ",\n";
    out << "config,,head_dim," << c.head_dim << ",\n";
    out << "config,,rotary_dim," << c.rotary_dim() << ",\n";
    out << "config,,max_position_embeddings," << c.max_position_embeddings << ",\n";
    out << "config,,convention," << pe::to_string(c.convention) << ",\n";
    out << "config,,scaling," << csv_text(pe::describe_scaling(c)) << ",\n";
  }
  for (const auto& d : in.loaded.diagnostics)
    out << "diagnostic," << pe::to_string(d.severity) << ',' << csv_text(d.key) << ",," << csv_text(d.message) << "\n";
  if (in.valid && rotary) {
    const pe::FrameworkComparison cmp = pe::compare_frameworks(c, comparison_length(s), in.frameworks);
    for (const auto& r : cmp.results) {
      const std::string name = pe::to_string(r.framework);
      out << "framework," << name << ",method," << csv_text(r.method) << ',' << (r.supported ? "" : "not supported") << "\n";
      out << "framework," << name << ",attention_factor," << csv_number(r.attention_factor, 17) << ",\n";
      out << "framework," << name << ",logit_scale," << csv_number(r.logit_scale, 17) << ",\n";
      out << "framework," << name << ",max_rel_diff_inv_freq," << csv_number(r.max_rel_diff_inv_freq, 17) << ','
          << csv_text(r.cause) << "\n";
    }
  }
  if (m.gguf)
    for (const auto& e : m.gguf->positional) out << "gguf," << csv_text(m.gguf->architecture) << ',' << csv_text(e.key) << ','
                                                 << csv_text(e.preview) << ',' << csv_text(e.type) << "\n";
  if (m.conversion) {
    const auto& cv = *m.conversion;
    out << "conversion,,checkpoint_convention," << pe::to_string(cv.hf) << ",\n";
    out << "conversion,,gguf_convention," << (cv.gguf ? pe::to_string(*cv.gguf) : "unknown") << ",\n";
    out << "conversion,,qk_permuted," << (cv.qk_permuted ? "true" : "false") << ",\n";
    out << "conversion,,consistent," << (cv.consistent ? "true" : "false") << ",\n";
    for (const auto& d : cv.diagnostics)
      out << "conversion," << pe::to_string(d.severity) << ',' << csv_text(d.key) << ",," << csv_text(d.message) << "\n";
  }
  return out.str();
}

std::vector<std::string> inspector_formula(const AppState& s, const Derived&) {
  const ModelInspection& m = model_inspection(s);
  std::string numbers = "source " + m.inspected.source;
  if (m.inspected.valid && !m.inspected.loaded.encoding.rotates())
    return {"position_encoding: the family transformers' modeling code gives this model_type (never RoPE by default)",
            numbers + ":  " + pe::describe_position_encoding(m.inspected.loaded.encoding)};
  if (m.inspected.valid) {
    try {
      const pe::FrameworkComparison cmp = pe::compare_frameworks(m.inspected.loaded.config, comparison_length(s), m.inspected.frameworks);
      numbers += cmp.max_rel_diff > 0.0 ? formatted(":  largest inv_freq / factor difference %.3g (%s)", cmp.max_rel_diff, pe::to_string(cmp.worst))
                                         : std::string(":  transformers, vLLM and llama.cpp agree");
    } catch (const std::exception& e) {
      numbers += std::string(": ") + e.what();
    }
  }
  return {"inv_freq_i = θ^(−2i/d) → scaled by rope_type (transformers' modeling_rope_utils, vLLM's get_rope, llama.cpp's rope ops)",
          numbers};
}

// The frameworks are compared at the current length (dynamic NTK, LongRoPE's switch).
constexpr const char* kAnimatable[] = {"length", "theta"};

}  // namespace

const ViewInfo& inspector_view() {
  static const ViewInfo info{
      .name = "inspector",
      .title = "Inspector",
      .summary = "What the model's config says about positions: keys, defaults, mistakes, and what each framework computes",
      .group = "Model",
      .draw = draw_inspector_view,
      .csv = inspector_csv,
      .formula = inspector_formula,
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
