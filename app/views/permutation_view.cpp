// The permutation problem of attention without positions, measured: "the dog bit the man" and "the man bit
// the dog" under attention with no positions give the same matrix with rows and columns
// reordered (exactly), so every word gets the same output in both sentences; each
// position method breaks that.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "pe/analysis/token_attention.hpp"
#include "views/view.hpp"
#include <sstream>
#include "pe/encodings/alibi.hpp"
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {

// Defined in export/permutation_data.cpp: the view and its CSV use the same inputs.
pe::TokenAttentionParams permutation_params(const AppState& s) {
  pe::TokenAttentionParams p;
  p.dim = std::min<long long>(s.rope.head_dim, pe::kPermutationDemoMaxDim);
  p.theta = s.rope.theta;
  p.seed = s.seed;
  p.convention = s.rope.convention;
  p.alibi_slope = pe::alibi_slopes(s.heads)[std::clamp<long long>(s.head, 1, s.heads) - 1];
  p.learned_max_len = s.learned_max_len;
  p.learned_sigma = 0.02;
  return p;
}

namespace {

constexpr const char* kMethodLabels[5] = {"no position", "sinusoidal (added)", "learned (added)", "RoPE (rotates q, k)",
                                          "ALiBi (score bias)"};

std::string format_difference(double v) {
  if (v == 0.0) return "0 (exactly)";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// Table cells wrap their text rather than letting the cell edge cut it.
void wrapped(const char* text) { text_wrapped_unformatted(text); }

ImU32 readable_text_on(ImU32 bg) {
  const double r = (bg >> IM_COL32_R_SHIFT & 0xff) / 255.0, g = (bg >> IM_COL32_G_SHIFT & 0xff) / 255.0,
               b = (bg >> IM_COL32_B_SHIFT & 0xff) / 255.0;
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.5 ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

// Width a matrix needs to print every weight (tight cell padding as in matrix_table).
float matrix_width_with_numbers(const std::vector<std::string>& words) {
  const float pad = 2 * ImGui::GetFontSize() * 0.2f;
  float word_w = ImGui::CalcTextSize("0.00").x, label_w = ImGui::CalcTextSize("the").x;
  for (const auto& w : words) {
    word_w = std::max(word_w, std::min(ImGui::CalcTextSize(w.c_str()).x, ImGui::CalcTextSize("0.000").x));
    label_w = std::max(label_w, ImGui::CalcTextSize(w.c_str()).x);
  }
  return label_w + pad + float(words.size()) * (word_w + pad);
}

// An attention matrix as a table: rows are queries, columns keys, each cell coloured by
// its weight (Viridis, 0 ... vmax) with the weight printed when it fits.
void matrix_table(const char* id, const std::string& title, const std::vector<std::string>& words,
                  const std::function<double(long long, long long)>& weight, double vmax, float width) {
  const long long n = static_cast<long long>(words.size());
  // Tight cells: three matrices with printed weights fit side by side at UI scale 2 too.
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, {ImGui::GetFontSize() * 0.2f, ImGui::GetFontSize() * 0.15f});
  const ImGuiStyle& style = ImGui::GetStyle();
  float label_w = ImGui::CalcTextSize("the").x;
  for (const auto& w : words) label_w = std::max(label_w, ImGui::CalcTextSize(w.c_str()).x);
  label_w = std::min(label_w, width * 0.3f) + 2 * style.CellPadding.x;
  const float number_w = ImGui::CalcTextSize("0.00").x + 2 * style.CellPadding.x;
  const float cell_w = std::max(4.0f, std::min((width - label_w) / float(n), number_w * 2.2f));
  const bool numbers = cell_w >= number_w;
  const float row_h = std::max(ImGui::GetTextLineHeight(), std::min(cell_w * 0.7f, ImGui::GetTextLineHeight() * 2.0f));
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(label_w + cell_w * float(n), width));
  text_wrapped_unformatted(title.c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::BeginTable(id, int(n) + 1, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoHostExtendX)) {
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, label_w - 2 * style.CellPadding.x);
    for (long long j = 0; j < n; ++j)
      ImGui::TableSetupColumn(words[std::size_t(j)].c_str(), ImGuiTableColumnFlags_WidthFixed, cell_w - 2 * style.CellPadding.x);
    ImGui::TableHeadersRow();
    for (long long i = 0; i < n; ++i) {
      ImGui::TableNextRow(ImGuiTableRowFlags_None, row_h);
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(words[std::size_t(i)].c_str());
      for (long long j = 0; j < n; ++j) {
        ImGui::TableSetColumnIndex(int(j) + 1);
        const double w = weight(i, j);
        const ImU32 bg = plot::colormap_color(plot::Colormap::Viridis, std::clamp(w / vmax, 0.0, 1.0));
        ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, bg);
        if (numbers) {
          ImGui::PushStyleColor(ImGuiCol_Text, readable_text_on(bg));
          ImGui::Text("%.2f", w);
          ImGui::PopStyleColor();
        } else {
          ImGui::Dummy({std::max(1.0f, cell_w - 2 * style.CellPadding.x), ImGui::GetTextLineHeight()});
        }
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("query \"%s\" (word %lld) → key \"%s\" (word %lld): weight %.17g", words[std::size_t(i)].c_str(), i + 1,
                            words[std::size_t(j)].c_str(), j + 1, w);
      }
    }
    ImGui::EndTable();
  }
  ImGui::PopStyleVar();
  ImGui::EndGroup();
}

}  // namespace

void draw_permutation_view(ViewContext& ctx) {
  AppState& s = ctx.state;
  static int method = 0;  // the method whose matrices are shown
  static std::string key;
  static pe::PermutationDemo demo;
  static std::vector<std::string> words_a, words_b;
  static long long dim = 0;

  // Everything at once when it fits (measured on the last frame drawn that way at this
  // window width, font size and sentence length); otherwise one page at a time, so no line
  // is cut at the edge (projector at 2×). Exports always show everything. The window's
  // width, not the room beside its scrollbar: the full view brings a scrollbar that the
  // page then takes away, and keying on the room made the two alternate every frame or two.
  static float full_height = 0, measured_width = -1, measured_font = -1;
  static std::string measured_sentences;
  static int page = 0;
  const ImVec2 avail0 = ImGui::GetContentRegionAvail();
  const float top = ImGui::GetCursorPosY();
  const bool paged = ctx.show_widgets() && measured_width == ImGui::GetWindowWidth() && measured_font == ImGui::GetFontSize() &&
                     measured_sentences == s.tokens + "\n" + s.tokens_b && full_height > avail0.y;
  if (ctx.show_widgets()) {
    // Edited here directly; split_tokens and the word-count check below read them each frame.
    // A narrow view (a phone) gives the sentences what their labels leave, so they show whole.
    const float label_w = ImGui::CalcTextSize("sentence B (tokens_b)").x + ImGui::GetStyle().ItemInnerSpacing.x;
    const float w = is_narrow_view(ctx, avail0.x) ? avail0.x - label_w
                                             : std::min(ImGui::GetContentRegionAvail().x * 0.3f, 24 * ImGui::GetFontSize());
    ImGui::SetNextItemWidth(w);
    ImGui::InputText("sentence A (tokens)", &s.tokens);
    const float b_w = w + ImGui::CalcTextSize("sentence B (tokens_b)").x + 3 * ImGui::GetStyle().ItemSpacing.x;
    if (ImGui::GetItemRectMax().x + b_w < ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
      ImGui::SameLine(0, 3 * ImGui::GetStyle().ItemSpacing.x);
    ImGui::SetNextItemWidth(w);
    ImGui::InputText("sentence B (tokens_b)", &s.tokens_b);
  } else {
    text_wrapped("Sentence A: \"%s\"     Sentence B: \"%s\"", s.tokens.c_str(), s.tokens_b.c_str());
  }
  const auto a = split_tokens(s.tokens), b = split_tokens(s.tokens_b);
  for (const auto* t : {&a, &b})
    if (t->empty() || static_cast<long long>(t->size()) > kMaxTokens) {
      ImGui::TextColored({1, 0.45f, 0.4f, 1}, "Each sentence needs 1 ... %lld words (A has %zu, B has %zu).", kMaxTokens,
                         a.size(), b.size());
      return;
    }
  if (!ctx.derived.error.empty()) {
    show_state_error(ctx.derived);
    return;
  }

  const pe::TokenAttentionParams params = permutation_params(s);
  char key_buf[256];
  std::snprintf(key_buf, sizeof key_buf, "|%lld|%.17g|%llu|%d|%.17g|%lld", params.dim, params.theta,
                static_cast<unsigned long long>(params.seed), int(params.convention), params.alibi_slope, params.learned_max_len);
  const std::string new_key = s.tokens + "\n" + s.tokens_b + key_buf;
  if (new_key != key) {
    key = new_key;
    demo = pe::permutation_demo(a, b, params);
    words_a = a;
    words_b = b;
    dim = params.dim;
  }

  constexpr const char* kPages[] = {"A and B", "A and B put back", "every method", "each word", "how it is computed"};
  if (paged) {
    ImGui::SetNextItemWidth(std::min(avail0.x * 0.5f, 14 * ImGui::GetFontSize()));
    ImGui::Combo("page", &page, kPages, int(std::size(kPages)));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The window is too small for everything at this UI scale: one part at a time.");
  }
  if (!paged || page == 4)
    text_wrapped("d = %lld (min(head_dim %lld, %lld)): one seeded vector per distinct word, q, k, v by seeded random %lld × %lld "
              "matrices; no causal mask.",
              dim, s.rope.head_dim, pe::kPermutationDemoMaxDim, dim, dim);
  if (ctx.show_widgets() && (!paged || page <= 1)) {
    ImGui::TextUnformatted("Show:");
    const ImGuiStyle& st = ImGui::GetStyle();
    for (int m = 0; m < 5; ++m) {
      // Wrap the radio buttons onto a new line rather than past the edge.
      const float need = ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + ImGui::CalcTextSize(kMethodLabels[m]).x + st.ItemSpacing.x;
      const float right = ImGui::GetItemRectMax().x + need;
      if (right < ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
      ImGui::RadioButton(kMethodLabels[m], &method, m);
    }
  }

  // ---- The three matrices of the chosen method
  const auto& r = demo.methods[std::size_t(method)];
  const float spacing = ImGui::GetStyle().ItemSpacing.x * 2;
  // Three matrices side by side when their weights fit; otherwise the third ("B put back")
  // goes under A, which is the pair to compare.
  const float avail = ImGui::GetContentRegionAvail().x;
  const float need = std::max(matrix_width_with_numbers(words_a), matrix_width_with_numbers(words_b));
  // A narrow view (a phone): one under the other, each the full width.
  const int across = is_narrow_view(ctx, avail) ? 1 : paged ? 2 : 3 * need + 2 * spacing <= avail || 2 * need + spacing > avail ? 3 : 2;
  const float mat_w = (avail - float(across - 1) * spacing) / float(across);
  ImGui::Spacing();
  if (paged && page > 1) {
    // another page
  } else if (!r.error.empty()) {
    ImGui::TextColored({1, 0.45f, 0.4f, 1}, "%s: %s", kMethodLabels[method], r.error.c_str());
    if (r.method == pe::AttentionMethod::Learned)
      teaching_note("The learned table has no row for these positions: raise learned_max_len in the panel.");
  } else {
    double vmax = 1e-9;
    vmax = std::max({vmax, r.a->weights.maxCoeff(), r.b->weights.maxCoeff()});
    matrix_table("##perm-a", std::string("A, ") + kMethodLabels[method], words_a,
                 [&](long long i, long long j) { return r.a->weights(i, j); }, vmax, mat_w);
    if (across > 1) ImGui::SameLine(0, spacing);
    if (!paged || page == 0)
      matrix_table("##perm-b", std::string("B, ") + kMethodLabels[method], words_b,
                 [&](long long i, long long j) { return r.b->weights(i, j); }, vmax, mat_w);
    if (across == 3) ImGui::SameLine(0, spacing);
    if (paged && page == 0) {
      // B as typed only
    } else if (r.check.is_reordering) {
      matrix_table("##perm-back", "B, rows and columns put back in A's word order", words_a,
                   [&](long long i, long long j) {
                     return r.b->weights(r.check.b_index[std::size_t(i)], r.check.b_index[std::size_t(j)]);
                   },
                   vmax, mat_w);
      // The verdict under the matrices, in the text colour (readable in both themes).
      const bool same = r.check.max_weight_difference == 0.0;
      text_wrapped("max |A − (B put back)| = %s:  %s", format_difference(r.check.max_weight_difference).c_str(),
                         same ? "identical, the model cannot tell A from B" : "different, word order changes the attention");
    } else {
      ImGui::BeginGroup();
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + mat_w);
      text_wrapped("%s. The comparison needs the same words in another order.", r.check.reason.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndGroup();
    }
    char scale[256];
    std::snprintf(scale, sizeof scale, "Row: the word attending (query); column: the word attended to (key). Colour: weight, 0 (dark) … %.2f (yellow); rows sum to 1.", vmax);
    teaching_note(scale);
  }

  // Stretched to the view's width (never past it); headers that do not fit get an ellipsis.
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  const float table_w = std::min(ImGui::GetContentRegionAvail().x, 64 * ImGui::GetFontSize());
  // ---- Every method at once: is B just A reordered?
  if (!paged || page == 2) {
  ImGui::Spacing();
  wrapped("Is B's attention just A's with the words reordered? (max over all entries)");
  if (begin_fitting_table(ctx, "##perm-summary", 4, flags, {table_w, 0})) {
    float label_w = 0;
    for (const char* l : kMethodLabels) label_w = std::max(label_w, ImGui::CalcTextSize(l).x);
    ImGui::TableSetupColumn("method", ImGuiTableColumnFlags_WidthFixed, std::min(label_w, table_w * 0.3f));
    ImGui::TableSetupColumn("max |weight A − weight B|");
    ImGui::TableSetupColumn("max |output A − output B|");
    ImGui::TableSetupColumn("can the model tell A from B?");
    ImGui::TableHeadersRow();
    for (std::size_t m = 0; m < demo.methods.size(); ++m) {
      const auto& x = demo.methods[m];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      wrapped(kMethodLabels[m]);
      if (!x.error.empty()) {
        ImGui::TableSetColumnIndex(1);
        wrapped("—");
        ImGui::TableSetColumnIndex(2);
        wrapped("—");
        ImGui::TableSetColumnIndex(3);
        wrapped(x.method == pe::AttentionMethod::Learned ? "cannot run: no row for a position" : "cannot run");
        continue;
      }
      if (!x.check.is_reordering) {
        ImGui::TableSetColumnIndex(1);
        wrapped("B is not a reordering of A");
        continue;
      }
      ImGui::TableSetColumnIndex(1);
      wrapped(format_difference(x.check.max_weight_difference).c_str());
      ImGui::TableSetColumnIndex(2);
      wrapped(format_difference(x.check.max_output_difference).c_str());
      ImGui::TableSetColumnIndex(3);
      const bool same = x.check.max_weight_difference == 0.0 && x.check.max_output_difference == 0.0;
      if (same) {
        // A tinted row (readable in both themes) instead of coloured text.
        ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, ImGui::GetColorU32(ImVec4(0.95f, 0.55f, 0.2f, 0.3f)));
        wrapped("no: identical, word order is invisible");
      } else {
        wrapped("yes: the weights differ");
      }
    }
    ImGui::EndTable();
  }
  if (!demo.words.is_reordering) teaching_note((demo.words.reason + " — type the same words in another order.").c_str());
  }

  // ---- Each word's output (Σ_j weight·v_j) in A and in B
  if (demo.words.is_reordering && (!paged || page == 3)) {
    ImGui::Spacing();
    ImGui::Text("Each word's output (the weighted sum of values, %lld numbers): max |A − B| for the same word", dim);
    if (begin_fitting_table(ctx, "##perm-words", 7, flags, {table_w, 0})) {
      ImGui::TableSetupColumn("word");
      ImGui::TableSetupColumn("place in A → B");
      for (const char* label : {"none", "sinusoidal", "learned", "RoPE", "ALiBi"}) ImGui::TableSetupColumn(label);
      ImGui::TableHeadersRow();
      for (std::size_t i = 0; i < words_a.size(); ++i) {
        const long long bi = demo.words.b_index[i];
        if (static_cast<long long>(i) == bi && words_a.size() > 8) continue;  // long sentences: only the moved words
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        wrapped(words_a[i].c_str());
        ImGui::TableSetColumnIndex(1);
        text_wrapped("%zu → %lld%s", i + 1, bi + 1, static_cast<long long>(i) == bi ? " (same)" : "");
        for (std::size_t m = 0; m < demo.methods.size(); ++m) {
          ImGui::TableSetColumnIndex(int(m) + 2);
          const auto& x = demo.methods[m];
          wrapped(x.error.empty() && x.check.is_reordering
                                     ? format_difference(x.check.output_difference[i]).c_str()
                                     : "—");
        }
      }
      ImGui::EndTable();
    }
    // The first moved word ("dog" in the default sentences), its numbers side by side.
    std::size_t shown = 0;
    for (std::size_t i = 0; i < words_a.size(); ++i)
      if (demo.words.b_index[i] != static_cast<long long>(i)) {
        shown = i;
        break;
      }
    const auto& none = demo.methods[0];
    if (none.error.empty()) {
      const long long bi = demo.words.b_index[shown];
      std::string va, vb;
      char buf[32];
      for (long long c = 0; c < std::min<long long>(4, dim); ++c) {
        std::snprintf(buf, sizeof buf, "%s%+.6f", c ? ", " : "", none.a->outputs(Eigen::Index(shown), c));
        va += buf;
        std::snprintf(buf, sizeof buf, "%s%+.6f", c ? ", " : "", none.b->outputs(bi, c));
        vb += buf;
      }
      text_wrapped("No position: output of \"%s\" as word %zu of A = (%s, …);  as word %lld of B = (%s, …)", words_a[shown].c_str(),
                  shown + 1, va.c_str(), bi + 1, vb.c_str());
    }
  }
  if (!paged || page == 4)
    teaching_note(
      "Without positions each word is one fixed vector, and attention only compares vectors: reordering the words reorders "
      "the rows and columns of the matrix and nothing else, so every word's output is the same in both sentences. Tutorials "
      "call this \"permutation invariance\"; strictly it is equivariance (the outputs move with their words). A causal mask "
      "would itself reveal order, so none is used here. Learned rows are N(0, 0.02) as at initialisation: small, so their "
      "change is small but not zero. ALiBi here is −slope·|i − j| (no mask).");
  if (!paged) {
    // A table's very first frame wraps text into zero-width columns (far too tall): heights
    // count from the second full frame on.
    static bool tables_laid_out = false;
    if (tables_laid_out) {
      full_height = ImGui::GetCursorPosY() - top;
      measured_width = ImGui::GetWindowWidth();
      measured_font = ImGui::GetFontSize();
      measured_sentences = s.tokens + "\n" + s.tokens_b;
    }
    tables_laid_out = true;
  }
}

namespace {
std::string exact(double v) { return csv_number(v, 17); }  // round-trip: the zero differences are exact
// Words may contain commas or quotes (they are free text).
std::string quoted(const std::string& w) {
  std::string out = "\"";
  for (char c : w) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
}  // namespace

std::string permutation_csv(const AppState& s, const Derived&) {
  const std::string error = validate_state(s);
  if (!error.empty()) throw std::runtime_error(error);
  const auto a = split_tokens(s.tokens), b = split_tokens(s.tokens_b);
  const pe::PermutationDemo demo = pe::permutation_demo(a, b, permutation_params(s));
  std::ostringstream out;
  out << "method,query,query_word,key,key_word,b_query,b_key,weight_a,weight_b,abs_difference,note\n";
  for (const auto& m : demo.methods) {
    const char* name = pe::to_string(m.method);
    if (!m.error.empty()) {
      out << name << ",,,,,,,,,," << quoted(m.error) << "\n";
      continue;
    }
    const long long n = static_cast<long long>(a.size());
    const bool matched = m.check.is_reordering;
    for (long long i = 0; i < n; ++i)
      for (long long j = 0; j < n; ++j) {
        const double wa = m.a->weights(i, j);
        out << name << ',' << i << ',' << quoted(a[std::size_t(i)]) << ',' << j << ',' << quoted(a[std::size_t(j)]) << ',';
        if (matched) {
          const long long bi = m.check.b_index[std::size_t(i)], bj = m.check.b_index[std::size_t(j)];
          const double wb = m.b->weights(bi, bj);
          out << bi << ',' << bj << ',' << exact(wa) << ',' << exact(wb) << ',' << exact(std::abs(wa - wb)) << ",\n";
        } else {
          out << ",," << exact(wa) << ",,," << quoted(m.check.reason) << "\n";
        }
      }
  }
  return out.str();
}

namespace {

std::vector<std::string> permutation_formula(const AppState&, const Derived&) {
  return {"A = softmax(Q Kᵀ / √d + bias)  (no mask: a mask would itself reveal order)",
          "no positions: A(P x) = P A(x) Pᵀ  — reordering the words only reorders the attention"};
}

}  // namespace

namespace {
constexpr const char* kAnimatable[] = {"theta", "dim", "seed", "head", "heads", "learned_max_len"};
}  // namespace

const ViewInfo& permutation_view() {
  static const ViewInfo info{
      .name = "permutation",
      .title = "Permutation",
      .summary = "\"the dog bit the man\" vs \"the man bit the dog\": attention without and with positions",
      .group = "Attention",
      .draw = draw_permutation_view,
      .csv = permutation_csv,
      .formula = permutation_formula,
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
