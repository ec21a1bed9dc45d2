#include "heatmap_renderer.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "../render/shader_program.hpp"
#include "../render/scratch_target.hpp"
#include "../render/gl_generation.hpp"
#include "../render/shader_sources.hpp"
#include "../render/texture.hpp"
#include "colormap.hpp"
#include "draw_callbacks.hpp"
#include "heatmap_pixels.hpp"
#include "encoding_sampling.hpp"

namespace plot {
namespace detail {
namespace {

struct KeyResources {
  render::Texture texture;
  std::vector<float> uploaded;  // encoding rows: last uploaded parameters
  // Encoding heatmaps computed on the CPU (software renderers): the colours, their texture
  // and what they were computed from.
  render::Texture image;
  std::vector<std::uint32_t> pixels;
  std::vector<double> image_inputs;
  DrawnTexels drawn;
  std::vector<float> values;  // value heatmaps: the cells, for the CPU path (small tables only)
  int value_rows = 0, value_columns = 0;
  bool texture_stale = false;  // `values` not yet in `texture`
  unsigned long long version = 0;
  bool has_data = false;
  bool has_nan = false;  // values: the upload holds a NaN
  int last_frame = 0;  // ImGui frame that last queued or updated this heatmap
};

// Heatmaps not drawn for this many frames give their texture back: views, grid cells and
// compare sides each have their own plot IDs, and a learned table's texture can be
// 64 MiB — kept forever, every view visited would stay resident.
constexpr int kEvictAfterFrames = 120;

// Where the current ImGui draw data puts things in the framebuffer.
struct FramebufferMapping {
  ImVec2 display_pos;
  ImVec2 display_size;
  ImVec2 scale;
  float width = 0, height = 0;
};

// A block of framebuffer pixels: columns x0 …, rows y0 … counted from the bottom.
struct PixelsBlock {
  int x0 = 0, y0 = 0, width = 0, height = 0;
};

class HeatmapRenderer {
 public:
  void queue_encoding(ImDrawList* draw, EncodingDrawCall call);
  void queue_values(ImDrawList* draw, ValueDrawCall call);
  bool update_values(ImGuiID key, std::span<const float> values, int rows, int columns, unsigned long long version,
                     std::string& error, bool& has_nan);
  bool ensure_programs();
  void draw_encoding(const EncodingDrawCall& call, const ImVec4& clip);
  void draw_values(const ValueDrawCall& call, const ImVec4& clip);
  const std::string& error() const { return error_; }

 private:
  void start_frame_if_new();
  // Sets scissor and returns the visible framebuffer rectangle (x0, y0, x1, y1 with
  // y down) or nothing when the heatmap is clipped away.
  std::optional<ImVec4> prepare(const ImVec2& quad_min, const ImVec2& quad_max, const ImVec4& clip,
                                FramebufferMapping& fb);
  void set_colormap(const render::ShaderProgram& program, Colormap c, float vmin, float vmax);
  void draw_quad(const render::ShaderProgram& program, const FramebufferMapping& fb, ImVec2 quad_min,
                 ImVec2 quad_max);
  // The bound program's u_rect_ndc rectangle, without blending.
  void draw_unblended_rect();
  const render::ShaderProgram* two_pass_program(std::optional<render::ShaderProgram>& slot, const char* fragment);
  const render::ShaderProgram* resolve_program();
  const render::ShaderProgram* copy_program(bool holes);
  bool software_renderer();
  bool cpu_path();
  bool draw_encoding_on_cpu(const EncodingDrawCall& call, const FramebufferMapping& fb, const ImVec4& visible,
                            const EncodingShaderRows& rows, int column0, double dx, double row_a, double row_b,
                            KeyResources& res);
  bool draw_values_on_cpu(const ValueDrawCall& call, const FramebufferMapping& fb, const ImVec4& visible, double column_a,
                          double column_b, double row_a, double row_b, KeyResources& res);
  void copy_texels(const render::ShaderProgram& copy, const FramebufferMapping& fb, const KeyResources& res, int x0, int y0);
  template <class Compute>
  void copy_computed(KeyResources& res, const FramebufferMapping& fb, const render::ShaderProgram& copy, const PixelsTarget& p,
                     std::vector<double> inputs, Compute compute);
  bool draw_two_pass(const render::ShaderProgram& rows_program, const FramebufferMapping& fb, const ImVec4& visible,
                     int rows, float row_a, float row_b, ImVec2 quad_min, ImVec2 quad_max);

  std::optional<render::ShaderProgram> encoding_program_, values_program_;
  // The two-pass path's programs, compiled when first used; nullopt + failed flag: one pass.
  std::optional<render::ShaderProgram> encoding_rows_program_, values_rows_program_, resolve_program_;
  std::optional<render::ShaderProgram> copy_program_, copy_holes_program_;  // CPU-computed heatmaps
  bool copy_failed_ = false;
  bool two_pass_failed_ = false;
  std::optional<bool> software_;  // GL_RENDERER is llvmpipe or softpipe
  render::ScratchTarget scratch_;
  GLuint vao_ = 0;
  bool programs_failed_ = false;
  std::string error_;
  std::unordered_map<ImGuiID, KeyResources> resources_;
  // Draw calls of the frame being built/rendered; deque keeps their addresses stable.
  std::deque<EncodingDrawCall> encoding_calls_;
  std::deque<ValueDrawCall> value_calls_;
  int frame_ = -1;
};

// One per GL context (another window in the same process gets a new renderer), never
// destroyed: see render::per_context.
HeatmapRenderer& renderer() { return render::per_context<HeatmapRenderer>(); }

void encoding_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  renderer().draw_encoding(*static_cast<const EncodingDrawCall*>(cmd->UserCallbackData), cmd->ClipRect);
}

void values_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  renderer().draw_values(*static_cast<const ValueDrawCall*>(cmd->UserCallbackData), cmd->ClipRect);
}

void HeatmapRenderer::start_frame_if_new() {
  if (!starts_new_frame(frame_)) return;
  encoding_calls_.clear();
  value_calls_.clear();
  std::erase_if(resources_, [&](const auto& entry) { return frame_ - entry.second.last_frame > kEvictAfterFrames; });
}

void HeatmapRenderer::queue_encoding(ImDrawList* draw, EncodingDrawCall call) {
  start_frame_if_new();
  resources_[call.key].last_frame = frame_;
  encoding_calls_.push_back(std::move(call));
  draw->AddCallback(encoding_callback, &encoding_calls_.back());
  draw->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void HeatmapRenderer::queue_values(ImDrawList* draw, ValueDrawCall call) {
  start_frame_if_new();
  value_calls_.push_back(std::move(call));
  draw->AddCallback(values_callback, &value_calls_.back());
  draw->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

bool HeatmapRenderer::ensure_programs() {
  if (programs_failed_) return false;
  if (encoding_program_ && values_program_) return true;
  try {
    const auto vertex = render::shader_source("heatmap.vert.glsl");
    encoding_program_.emplace(vertex, render::shader_source_with_includes("heatmap_encoding.frag.glsl"), "heatmap.vert.glsl",
                              "heatmap_encoding.frag.glsl");
    values_program_.emplace(vertex, render::shader_source_with_includes("heatmap_values.frag.glsl"), "heatmap.vert.glsl",
                            "heatmap_values.frag.glsl");
    glGenVertexArrays(1, &vao_);
  } catch (const std::exception& e) {
    // Inside a render callback: report once and draw nothing rather than unwind
    // through the ImGui backend.
    programs_failed_ = true;
    error_ = e.what();
    std::fprintf(stderr, "pe-viz: heatmap shaders unavailable: %s\n", error_.c_str());
    return false;
  }
  return true;
}

std::optional<ImVec4> HeatmapRenderer::prepare(const ImVec2& quad_min, const ImVec2& quad_max, const ImVec4& clip,
                                               FramebufferMapping& fb) {
  const ImDrawData* data = ImGui::GetDrawData();
  if (data == nullptr || !ensure_programs()) return std::nullopt;
  fb.display_pos = data->DisplayPos;
  fb.display_size = data->DisplaySize;
  fb.scale = data->FramebufferScale;
  fb.width = data->DisplaySize.x * fb.scale.x;
  fb.height = data->DisplaySize.y * fb.scale.y;
  // Same projection of the clip rectangle as the backend's, so edges match ImGui's.
  const float x0 = std::max({(clip.x - fb.display_pos.x) * fb.scale.x, (quad_min.x - fb.display_pos.x) * fb.scale.x, 0.0f});
  const float y0 = std::max({(clip.y - fb.display_pos.y) * fb.scale.y, (quad_min.y - fb.display_pos.y) * fb.scale.y, 0.0f});
  const float x1 = std::min({(clip.z - fb.display_pos.x) * fb.scale.x, (quad_max.x - fb.display_pos.x) * fb.scale.x, fb.width});
  const float y1 = std::min({(clip.w - fb.display_pos.y) * fb.scale.y, (quad_max.y - fb.display_pos.y) * fb.scale.y, fb.height});
  if (x1 <= x0 || y1 <= y0 || !scissor_to_clip(clip, *data)) return std::nullopt;
  return ImVec4(x0, y0, x1, y1);
}

void HeatmapRenderer::set_colormap(const render::ShaderProgram& program, Colormap c, float vmin, float vmax) {
  const auto table = colormap_table(c);
  const auto packed = colormap_packed_rgb(c);
  glUniform1uiv(program.uniform("u_colormap"), static_cast<GLsizei>(table.size()), packed.data());
  glUniform1i(program.uniform("u_colormap_size"), static_cast<GLint>(table.size()));
  glUniform1f(program.uniform("u_vmin"), vmin);
  glUniform1f(program.uniform("u_vmax"), vmax);
}

void HeatmapRenderer::draw_quad(const render::ShaderProgram& program, const FramebufferMapping& fb, ImVec2 quad_min,
                                ImVec2 quad_max) {
  // Display coordinates -> NDC exactly as the backend's orthographic projection.
  auto ndc_x = [&](float x) { return 2.0f * (x - fb.display_pos.x) / fb.display_size.x - 1.0f; };
  auto ndc_y = [&](float y) { return 1.0f - 2.0f * (y - fb.display_pos.y) / fb.display_size.y; };
  glUniform4f(program.uniform("u_rect_ndc"), ndc_x(quad_min.x), ndc_y(quad_max.y), ndc_x(quad_max.x),
              ndc_y(quad_min.y));
  draw_unblended_rect();
}

void HeatmapRenderer::draw_unblended_rect() {
  // The heatmap is opaque (alpha 1): blending would give the same pixels, and llvmpipe
  // would read the framebuffer for every fragment. ResetRenderState re-enables it.
  glDisable(GL_BLEND);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);  // u_rect_ndc's rectangle (heatmap*.vert.glsl)
  glBindVertexArray(0);
  // The backend binds each command's texture on unit 0 and assumes unit 0 is active.
  glActiveTexture(GL_TEXTURE0);
}

// Two passes when each row is at least two pixels tall (d = 64 rows over ~850 pixels: 13):
// the colour — a sine, the colormap — is computed once per (pixel column, row) into an
// RGBA8 texture, then every pixel fetches its row's texel. On llvmpipe that halves a
// heatmap's raster cost. The same operations on the same pixel-centre x give the same
// colour, rounded to 8 bits by the first pass exactly as the framebuffer would round it:
// the pixels are identical to one pass (tests/gui compare both paths).
std::atomic<bool> two_pass_enabled{true};
std::atomic<long long> one_pass_draws{0}, two_pass_draws{0}, cpu_draws{0};
// Heatmaps on the CPU where GL rasterises in software (heatmap_pixels.hpp).
std::atomic<bool> cpu_heatmaps_enabled{true};
// Value tables up to this many cells keep a CPU copy for that path (attention's 64 × 64,
// T5's and DeBERTa's tables); a learned table of 64 MiB stays on the GPU alone.
constexpr std::size_t kMaxCpuCells = std::size_t(1) << 21;

bool HeatmapRenderer::cpu_path() { return cpu_heatmaps_enabled.load(std::memory_order_relaxed) && software_renderer(); }

bool use_two_pass(const ImVec4& visible, int rows) {
  return two_pass_enabled.load(std::memory_order_relaxed) && rows > 0 && 2.0f * float(rows) <= visible.w - visible.y;
}

const render::ShaderProgram* HeatmapRenderer::resolve_program() {
  if (two_pass_failed_) return nullptr;
  if (!resolve_program_) {
    try {
      resolve_program_.emplace(render::shader_source("heatmap.vert.glsl"),
                               render::shader_source_with_includes("heatmap_resolve.frag.glsl"), "heatmap.vert.glsl",
                               "heatmap_resolve.frag.glsl");
    } catch (const std::exception& e) {
      two_pass_failed_ = true;  // the one-pass path still draws every heatmap
      std::fprintf(stderr, "pe-viz: two-pass heatmap shaders unavailable, drawing in one pass: %s\n", e.what());
      return nullptr;
    }
  }
  return &*resolve_program_;
}

const render::ShaderProgram* HeatmapRenderer::copy_program(bool holes) {
  if (copy_failed_) return nullptr;
  std::optional<render::ShaderProgram>& slot = holes ? copy_holes_program_ : copy_program_;
  if (!slot) {
    const char* fragment = holes ? "heatmap_copy_holes.frag.glsl" : "heatmap_copy.frag.glsl";
    try {
      slot.emplace(render::shader_source("heatmap_copy.vert.glsl"), render::shader_source(fragment), "heatmap_copy.vert.glsl",
                   fragment);
    } catch (const std::exception& e) {
      copy_failed_ = true;  // the shaders draw every heatmap then
      std::fprintf(stderr, "pe-viz: heatmap copy shader unavailable, heatmaps by shader: %s\n", e.what());
      return nullptr;
    }
  }
  return &*slot;
}

// The drawn texels of res.image (block origin x0, y0: framebuffer pixel, y from the bottom)
// onto exactly their pixels: the quad's edges are pixel edges, one texel per pixel.
void HeatmapRenderer::copy_texels(const render::ShaderProgram& copy, const FramebufferMapping& fb, const KeyResources& res,
                                  int x0, int y0) {
  const DrawnTexels& d = res.drawn;
  const float w = float(res.image.width()), h = float(res.image.height());
  const float fb_w = fb.width, fb_h = std::round(fb.height);
  copy.use();
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, res.image.id());
  glUniform1i(copy.uniform("u_image"), 0);
  glUniform4f(copy.uniform("u_rect_ndc"), 2.0f * float(x0 + d.x0) / fb_w - 1.0f, 2.0f * float(y0 + d.y0) / fb_h - 1.0f,
              2.0f * float(x0 + d.x1) / fb_w - 1.0f, 2.0f * float(y0 + d.y1) / fb_h - 1.0f);
  glUniform4f(copy.uniform("u_rect_uv"), float(d.x0) / w, float(d.y0) / h, float(d.x1) / w, float(d.y1) / h);
  draw_unblended_rect();
  ++cpu_draws;
}

bool HeatmapRenderer::software_renderer() {
#ifdef __EMSCRIPTEN__
  return false;  // a page draws on the GPU the browser gives it (SwiftShader only in tests)
#else
  if (!software_) {
    const char* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    software_ = name && (std::strstr(name, "llvmpipe") || std::strstr(name, "softpipe"));
  }
  return *software_;
#endif
}

const render::ShaderProgram* HeatmapRenderer::two_pass_program(std::optional<render::ShaderProgram>& slot,
                                                               const char* fragment) {
  if (two_pass_failed_ || !resolve_program()) return nullptr;
  if (!slot) {
    try {
      slot.emplace(render::shader_source("heatmap.vert.glsl"), render::shader_source_with_includes(fragment),
                   "heatmap.vert.glsl", fragment);
    } catch (const std::exception& e) {
      two_pass_failed_ = true;  // the one-pass path still draws every heatmap
      std::fprintf(stderr, "pe-viz: two-pass heatmap shaders unavailable, drawing in one pass: %s\n", e.what());
      return nullptr;
    }
  }
  return &*slot;
}

bool HeatmapRenderer::draw_two_pass(const render::ShaderProgram& rows_program, const FramebufferMapping& fb,
                                    const ImVec4& visible, int rows, float row_a, float row_b, ImVec2 quad_min,
                                    ImVec2 quad_max) {
  const int x_origin = static_cast<int>(std::floor(visible.x));
  const int width = static_cast<int>(std::ceil(visible.z)) - x_origin;
  if (!scratch_.begin(width, rows, ImGui::GetFrameCount())) return false;
  glUniform1f(rows_program.uniform("u_x_origin"), static_cast<float>(x_origin));
  glUniform4f(rows_program.uniform("u_rect_ndc"), -1.0f, -1.0f, 1.0f, 1.0f);
  draw_unblended_rect();  // every pixel centre of width × rows
  scratch_.end();
  const render::ShaderProgram& resolve = *resolve_program_;
  resolve.use();
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, scratch_.texture());
  glUniform1i(resolve.uniform("u_colors"), 0);
  glUniform1i(resolve.uniform("u_x_origin"), x_origin);
  glUniform1i(resolve.uniform("u_row_count"), rows);
  glUniform1f(resolve.uniform("u_row_a"), row_a);
  glUniform1f(resolve.uniform("u_row_b"), row_b);
  draw_quad(resolve, fb, quad_min, quad_max);
  ++two_pass_draws;
  return true;
}

// The framebuffer pixels whose centres lie in `visible` (x0, y0 from the bottom), as a quad
// over it covers them; nothing when it exceeds the largest texture.
std::optional<PixelsBlock> pixels_block(const ImVec4& visible, const FramebufferMapping& fb) {
  auto edge = [](float v) { return static_cast<int>(std::ceil(v - 0.5f)); };
  const int x0 = edge(visible.x), x1 = edge(visible.z), top = edge(visible.y), bottom = edge(visible.w);
  const int limit = render::max_texture_size();
  if (x1 - x0 > limit || bottom - top > limit) return std::nullopt;
  return PixelsBlock{x0, static_cast<int>(std::lround(fb.height)) - bottom, std::max(x1 - x0, 0), std::max(bottom - top, 0)};
}

void upload_value_texture(KeyResources& res, std::span<const float> cells) {
  if (!res.texture.valid()) res.texture = render::Texture(res.value_columns, res.value_rows, render::TextureFormat::R32F);
  res.texture.resize(res.value_columns, res.value_rows);
  res.texture.upload(cells);
  res.texture_stale = false;
}

void upload_pixels(KeyResources& res, const PixelsBlock& b) {
  if (!res.image.valid()) res.image = render::Texture(b.width, b.height, render::TextureFormat::RGBA8);
  res.image.resize(b.width, b.height);
  res.image.upload(std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(res.pixels.data()),
                                                  res.pixels.size() * sizeof(std::uint32_t)));
}

// The block, rows and colours of a heatmap drawn on the CPU.
void set_target(PixelsTarget& p, const PixelsBlock& block, double row_a, double row_b, Colormap colormap, float vmin, float vmax) {
  p.x0 = block.x0;
  p.y0 = block.y0;
  p.width = block.width;
  p.height = block.height;
  p.row_a = static_cast<float>(row_a);
  p.row_b = static_cast<float>(row_b);
  p.colormap = colormap;
  p.vmin = vmin;
  p.vmax = vmax;
}

// `inputs`: what the pixels depend on besides the target; computed (and uploaded) only when
// they or the target changed, so an idle frame redraws the texture it has.
template <class Compute>
void HeatmapRenderer::copy_computed(KeyResources& res, const FramebufferMapping& fb, const render::ShaderProgram& copy,
                                    const PixelsTarget& p, std::vector<double> inputs, Compute compute) {
  inputs.insert(inputs.end(), {double(p.x0), double(p.y0), double(p.width), double(p.height), p.row_a, p.row_b,
                               double(p.colormap), p.vmin, p.vmax});
  if (!res.image.valid() || inputs != res.image_inputs) {
    res.drawn = compute();
    upload_pixels(res, {p.x0, p.y0, p.width, p.height});
    res.image_inputs = std::move(inputs);
  }
  if (!res.drawn.empty()) copy_texels(copy, fb, res, p.x0, p.y0);
}

bool HeatmapRenderer::draw_encoding_on_cpu(const EncodingDrawCall& call, const FramebufferMapping& fb, const ImVec4& visible,
                                           const EncodingShaderRows& rows, int column0, double dx, double row_a, double row_b,
                                           KeyResources& res) {
  const render::ShaderProgram* copy = copy_program(false);
  const std::optional<PixelsBlock> block = pixels_block(visible, fb);
  if (!copy || !block) return false;
  if (block->width == 0 || block->height == 0) return true;
  EncodingPixelsParams p;
  set_target(p, *block, row_a, row_b, call.colormap, call.vmin, call.vmax);
  p.texels = rows.texels.data();
  p.rows = call.rows;
  p.function = call.function;
  p.cell_mode = rows.cell_mode;
  p.cell_offset = rows.cell_offset;
  p.cell_dx = static_cast<float>(dx);
  p.column0 = column0;
  std::vector<double> inputs(rows.texels.begin(), rows.texels.end());
  inputs.insert(inputs.end(), {0.0, double(p.function), p.cell_mode ? 1.0 : 0.0, p.cell_offset, p.cell_dx, double(p.column0)});
  copy_computed(res, fb, *copy, p, std::move(inputs), [&] { return encoding_pixels(p, res.pixels); });
  return true;
}

bool HeatmapRenderer::draw_values_on_cpu(const ValueDrawCall& call, const FramebufferMapping& fb, const ImVec4& visible,
                                         double column_a, double column_b, double row_a, double row_b, KeyResources& res) {
  if (res.values.size() != std::size_t(call.rows) * std::size_t(call.columns) || res.values.empty()) return false;
  const render::ShaderProgram* copy = copy_program(res.has_nan);
  const std::optional<PixelsBlock> block = pixels_block(visible, fb);
  if (!copy || !block) return false;
  if (block->width == 0 || block->height == 0) return true;
  ValuePixelsParams p;
  set_target(p, *block, row_a, row_b, call.colormap, call.vmin, call.vmax);
  p.values = res.values.data();
  p.rows = call.rows;
  p.columns = call.columns;
  p.column_a = static_cast<float>(column_a);
  p.column_b = static_cast<float>(column_b);
  copy_computed(res, fb, *copy, p, {1.0, double(res.version), double(p.rows), double(p.columns), p.column_a, p.column_b},
                [&] { return value_pixels(p, res.pixels); });
  return true;
}

void HeatmapRenderer::draw_encoding(const EncodingDrawCall& call, const ImVec4& clip) {
  FramebufferMapping fb;
  const auto visible = prepare(call.quad_min, call.quad_max, clip, fb);
  if (!visible || call.rows <= 0) return;
  const PlotTransform& t = call.transform;
  // Position at framebuffer x (continuous, left edge 0): u0 + dx · x.
  const double u0 = (fb.display_pos.x - t.ax) / t.bx;
  const double dx = 1.0 / (fb.scale.x * t.bx);
  const int column0 = static_cast<int>(std::floor(visible->x));
  const double center0 = u0 + dx * (column0 + 0.5);
  EncodingShaderRows rows =
      encoding_shader_rows(call.function, call.frequencies, call.rows, center0, dx, call.pixel_mean);

  KeyResources& res = resources_[call.key];
  // Row from framebuffer y (bottom-up): display y = pos.y + size.y − Y/scale.y.
  const double k = call.rows / (call.y1 - call.y0);
  const double row_a = ((fb.display_pos.y + fb.display_size.y - t.ay) / t.by - call.y0) * k;
  const double row_b = -k / (fb.scale.y * t.by);
  if (cpu_path() && draw_encoding_on_cpu(call, fb, *visible, rows, column0, dx, row_a, row_b, res))
    return;
  if (!res.texture.valid()) res.texture = render::Texture(call.rows, 1, render::TextureFormat::RGBA32F);
  res.texture.resize(call.rows, 1);
  // Re-upload only when the parameters differ (frequencies, zoom, pan, size changed).
  if (!res.has_data || res.uploaded != rows.texels) {
    res.texture.upload(rows.texels);
    res.uploaded = rows.texels;
    res.has_data = true;
  }

  const render::ShaderProgram* two_pass =
      use_two_pass(*visible, call.rows) ? two_pass_program(encoding_rows_program_, "heatmap_encoding_rows.frag.glsl") : nullptr;
  const render::ShaderProgram& program = two_pass ? *two_pass : *encoding_program_;
  program.use();
  res.texture.bind(0);
  glUniform1i(program.uniform("u_rows"), 0);
  glUniform1i(program.uniform("u_row_count"), call.rows);
  glUniform1f(program.uniform("u_row_a"), static_cast<float>(row_a));
  glUniform1f(program.uniform("u_row_b"), static_cast<float>(row_b));
  glUniform1i(program.uniform("u_function"), static_cast<int>(call.function));
  glUniform1i(program.uniform("u_cell_mode"), rows.cell_mode ? 1 : 0);
  glUniform1i(program.uniform("u_column0"), column0);
  glUniform1f(program.uniform("u_cell_offset"), rows.cell_offset);
  glUniform1f(program.uniform("u_cell_dx"), static_cast<float>(dx));
  set_colormap(program, call.colormap, call.vmin, call.vmax);
  if (two_pass) {
    if (draw_two_pass(program, fb, *visible, call.rows, static_cast<float>(row_a), static_cast<float>(row_b), call.quad_min,
                      call.quad_max))
      return;
    two_pass_failed_ = true;  // no scratch framebuffer here: one pass from now on
    return draw_encoding(call, clip);
  }
  draw_quad(program, fb, call.quad_min, call.quad_max);
  ++one_pass_draws;
}

void HeatmapRenderer::draw_values(const ValueDrawCall& call, const ImVec4& clip) {
  FramebufferMapping fb;
  const auto visible = prepare(call.quad_min, call.quad_max, clip, fb);
  if (!visible) return;
  auto it = resources_.find(call.key);
  if (it == resources_.end() || !it->second.has_data) return;
  KeyResources& res = it->second;
  const PlotTransform& t = call.transform;
  const double u0 = (fb.display_pos.x - t.ax) / t.bx, dx = 1.0 / (fb.scale.x * t.bx);
  const double kc = call.columns / (call.x1 - call.x0);
  // Columns are sampled at pixel centres: column = (u0 + dx · X − x0) · kc at X = centre.
  const double column_a = (u0 - call.x0) * kc, column_b = dx * kc;
  const double v0 = (fb.display_pos.y + fb.display_size.y - t.ay) / t.by, dv = -1.0 / (fb.scale.y * t.by);
  const double kr = call.rows / (call.y1 - call.y0);
  const double row_a = call.y_down ? (call.y1 - v0) * kr : (v0 - call.y0) * kr;
  const double row_b = call.y_down ? -dv * kr : dv * kr;
  if (cpu_path() && draw_values_on_cpu(call, fb, *visible, column_a, column_b, row_a, row_b, res)) return;
  if (res.texture_stale) upload_value_texture(res, res.values);

  const render::ShaderProgram* two_pass =
      use_two_pass(*visible, call.rows) ? two_pass_program(values_rows_program_, "heatmap_values_rows.frag.glsl") : nullptr;
  const render::ShaderProgram& program = two_pass ? *two_pass : *values_program_;
  program.use();
  it->second.texture.bind(0);
  glUniform1i(program.uniform("u_values"), 0);
  glUniform2i(program.uniform("u_size"), call.columns, call.rows);
  glUniform1f(program.uniform("u_column_a"), static_cast<float>(column_a));
  glUniform1f(program.uniform("u_column_b"), static_cast<float>(column_b));
  glUniform1f(program.uniform("u_row_a"), static_cast<float>(row_a));
  glUniform1f(program.uniform("u_row_b"), static_cast<float>(row_b));
  set_colormap(program, call.colormap, call.vmin, call.vmax);
  if (two_pass) {
    if (draw_two_pass(program, fb, *visible, call.rows, static_cast<float>(row_a), static_cast<float>(row_b), call.quad_min,
                      call.quad_max))
      return;
    two_pass_failed_ = true;
    return draw_values(call, clip);
  }
  draw_quad(program, fb, call.quad_min, call.quad_max);
  ++one_pass_draws;
}

bool HeatmapRenderer::update_values(ImGuiID key, std::span<const float> values, int rows, int columns,
                                    unsigned long long version, std::string& error, bool& has_nan) {
  if (rows <= 0 || columns <= 0 || values.size() < static_cast<size_t>(rows) * columns) {
    error = "heatmap values: need rows x columns values";
    return false;
  }
  const int limit = render::max_texture_size();
  if (rows > limit || columns > limit) {
    error = "heatmap " + std::to_string(columns) + "x" + std::to_string(rows) + " exceeds GL_MAX_TEXTURE_SIZE " +
            std::to_string(limit);
    return false;
  }
  start_frame_if_new();
  KeyResources& res = resources_[key];
  res.last_frame = frame_;
  const bool resized = res.value_rows != rows || res.value_columns != columns;
  if (!res.has_data || resized || res.version != version) {
    const auto cells = values.first(static_cast<size_t>(rows) * columns);
    res.value_rows = rows;
    res.value_columns = columns;
    res.version = version;
    res.has_data = true;
    res.has_nan = std::any_of(cells.begin(), cells.end(), [](float v) { return std::isnan(v); });
    if (software_renderer() && cells.size() <= kMaxCpuCells) {
      // The CPU path draws from this copy; the texture waits until a shader needs it.
      res.values.assign(cells.begin(), cells.end());
      res.texture_stale = true;
    } else {
      res.values.clear();
      res.values.shrink_to_fit();
      upload_value_texture(res, cells);
    }
  }
  has_nan = res.has_nan;
  return true;
}

}  // namespace

void queue_encoding_draw(ImDrawList* draw, EncodingDrawCall call) { renderer().queue_encoding(draw, std::move(call)); }
void queue_value_draw(ImDrawList* draw, ValueDrawCall call) { renderer().queue_values(draw, std::move(call)); }
bool update_value_texture(ImGuiID key, std::span<const float> values, int rows, int columns,
                          unsigned long long version, std::string& error, bool& has_nan) {
  return renderer().update_values(key, values, rows, columns, version, error, has_nan);
}
bool heatmaps_drawable() { return renderer().ensure_programs(); }

}  // namespace detail

std::string heatmap_gpu_error() { return detail::renderer().error(); }

void set_two_pass_heatmaps(bool enabled) { detail::two_pass_enabled = enabled; }
void set_cpu_heatmaps(bool enabled) { detail::cpu_heatmaps_enabled = enabled; }

HeatmapDrawCounts heatmap_draw_counts() {
  return {detail::one_pass_draws.load(), detail::two_pass_draws.load(), detail::cpu_draws.load()};
}

}  // namespace plot
