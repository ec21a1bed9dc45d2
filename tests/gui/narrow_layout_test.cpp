// Phones and tablets (issue 35): a window narrower than kNarrowLayoutWidth logical pixels
// gets the narrow layout — the parameter panel a drawer, the tabs rows of buttons that wrap,
// the view the whole width — and no text in it is cut in any way (ui/cut_text.hpp: by a
// window's edge, inside a frame, or a tab shortened to "Abs…"). Rendered offscreen at a
// phone's and a tablet's pixels with their pixel ratio as the content scale, as a page on
// them renders (390 × 844 CSS px at 3, 768 × 1024 at 2). The default desktop window keeps
// the wide layout. The browser tests (tests/web) check the same in Chromium, with touch.
#include <imgui.h>
#include <imgui_internal.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "test_support.hpp"
#include "export/builtin_lessons.hpp"
#include "pe/lessons/lesson_file.hpp"
#include "export/png_writer.hpp"
#include "ui/app_session.hpp"
#include "ui/cut_text.hpp"
#include "ui/main_frame.hpp"
#include "ui/narrow_layout.hpp"
#include "ui/presenter.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

struct Device {
  const char* name;
  int css_width, css_height;
  float ratio;
};
constexpr Device kPhone{"phone 390×844 @3", 390, 844, 3.0f};
constexpr Device kTablet{"tablet 768×1024 @2", 768, 1024, 2.0f};

class NarrowLayoutTest : public ::testing::Test {
 protected:
  void open(const Device& d, const std::string& view = "rope-cos") {
    device_ = d;
    session_.reset();  // one ImGui context at a time
    session_ = std::make_unique<app::AppSession>(
        known_state(view), app::WindowOptions{.width = int(d.css_width * d.ratio), .height = int(d.css_height * d.ratio),
                                              .visible = false, .content_scale = d.ratio});
    app::set_parameter_drawer_open(false);
  }
  void TearDown() override {
    app::set_parameter_drawer_open(false);
    session_.reset();
  }
  // Frames as a page on a touch screen draws them: menu bar and status line, touch sizes.
  void frames(int n, app::Presenter* presenter = nullptr) {
    app::FrameOptions o;
    o.status = &status_;
    o.touch = true;
    o.presenter = presenter;
    for (int f = 0; f < n; ++f) {
      session_->frame(f / 60.0, o);
      if (f + 1 < n) session_->window().swap();
    }
  }
  std::string where(const std::string& what) const { return what + " on a " + device_.name; }
  // PE_TEST_IMAGE_DIR: the frame as a PNG there, to look at (a cut view; every view with
  // PE_TEST_KEEP_ALL=1).
  void keep(const std::string& name) const {
    const char* dir = std::getenv("PE_TEST_IMAGE_DIR");
    if (!dir) return;
    std::string file = name + "-" + std::to_string(device_.css_width) + ".png";
    app::write_png_atomic(fs::path(dir) / file, session_->window().framebuffer_width(), session_->window().framebuffer_height(),
                             session_->read_window_pixels());
  }
  Image image() const {
    return Image(session_->window().framebuffer_width(), session_->window().framebuffer_height(), session_->read_window_pixels());
  }

  Device device_{};
  std::unique_ptr<app::AppSession> session_;
  app::StatusLine status_;
};

TEST_F(NarrowLayoutTest, WidthsChooseTheLayout) {
  EXPECT_FALSE(app::is_narrow_layout(0.0f)) << "exports (no width given) keep the wide layout";
  EXPECT_TRUE(app::is_narrow_layout(390.0f));
  EXPECT_TRUE(app::is_narrow_layout(834.0f)) << "an 11-inch tablet held upright";
  EXPECT_FALSE(app::is_narrow_layout(960.0f)) << "half of a 1920 screen";
  EXPECT_FALSE(app::is_narrow_layout(1600.0f)) << "the default desktop window";
  // A projector's 2× (or a lesson's) opened on a phone: 24 em must stay across it.
  EXPECT_FLOAT_EQ(app::usable_ui_scale(2.0f, 390.0f), 1.0f);
  EXPECT_FLOAT_EQ(app::usable_ui_scale(2.0f, 768.0f), 2.0f);
  EXPECT_FLOAT_EQ(app::usable_ui_scale(3.0f, 768.0f), 2.0f);
  EXPECT_FLOAT_EQ(app::usable_ui_scale(3.0f, 1600.0f), 3.0f) << "wide windows keep the user's scale";
}

TEST_F(NarrowLayoutTest, LogicalWidthIsThePixelsOverThePixelRatio) {
  open(kPhone);
  EXPECT_FLOAT_EQ(session_->window().logical_width(), 390.0f);
  frames(2);
  // 16 px text at 1× in CSS pixels: 48 device pixels on a phone of pixel ratio 3.
  EXPECT_FLOAT_EQ(ImGui::GetFontSize(), 48.0f);
  session_->state().ui_scale = 2.0f;
  frames(2);
  EXPECT_FLOAT_EQ(ImGui::GetFontSize(), 48.0f) << "a 2× link on a phone keeps 24 em across";
}

TEST_F(NarrowLayoutTest, DefaultDesktopWindowKeepsTabsAndPanel) {
  session_.reset();
  session_ = std::make_unique<app::AppSession>(
      known_state(), app::WindowOptions{.width = kWindowWidth, .height = kWindowHeight, .visible = false, .content_scale = 1.0f});
  device_ = {"desktop 1600×1000", kWindowWidth, kWindowHeight, 1.0f};
  app::FrameOptions o;
  o.status = &status_;
  for (int f = 0; f < 2; ++f) session_->frame(0.0, o);
  int tab_bars = 0;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int n = 0; n < g.TabBars.GetMapSize(); ++n)
    if (const ImGuiTabBar* bar = g.TabBars.TryGetMapData(n); bar && bar->CurrFrameVisible == g.FrameCount) ++tab_bars;
  EXPECT_EQ(tab_bars, 2) << "the two rows of tabs";
  bool panel = false;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    panel = panel || (std::string(w->Name).find("##parameters") != std::string::npos && w->Active);
  EXPECT_TRUE(panel) << "the panel beside the view";
}

// Every view at a phone's and a tablet's size: not blank, nothing cut.
TEST_F(NarrowLayoutTest, EveryViewOnAPhoneAndATabletHasNoCutText) {
  for (const Device& d : {kPhone, kTablet}) {
    open(d);
    for (const auto& v : app::all_views()) {
      session_->state() = known_state(v.name);
      frames(4);
      const auto cut = app::find_cut_text(*ImGui::GetDrawData());
      EXPECT_TRUE(cut.empty()) << where(v.name) << ": text cut" << app::describe(cut);
      if (!cut.empty() || std::getenv("PE_TEST_KEEP_ALL")) keep(v.name);  // PE_TEST_KEEP_ALL: every view, to look at
      const Image im = image();
      // Under the menu bar and the rows of view buttons: the view's own pixels.
      // Some views are a table on a page: not a picture's colours, but far from one colour.
      const Rect area{0, im.height / 8, im.width, im.height * 19 / 20};
      const bool drawn = distinct_colours(im, area) >= 24 && luma_stddev(im, area) >= 8.0;
      EXPECT_TRUE(drawn) << where(v.name) << " looks blank: " << distinct_colours(im, area) << " colours, luma stddev "
                         << luma_stddev(im, area);
      if (!drawn) keep(std::string(v.name) + "-blank");
    }
  }
}

// The drawer, open: every parameter's label whole, the view still drawn above it.
TEST_F(NarrowLayoutTest, OpenDrawerShowsEveryLabelWhole) {
  for (const Device& d : {kPhone, kTablet}) {
    open(d, "rope-cos");
    app::set_parameter_drawer_open(true);
    frames(4);
    bool drawer = false;
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
      drawer = drawer || (std::string(w->Name).find("##parameters") != std::string::npos && w->Active);
    EXPECT_TRUE(drawer) << where("the drawer");
    const auto cut = app::find_cut_text(*ImGui::GetDrawData());
    EXPECT_TRUE(cut.empty()) << where("the open drawer") << ": text cut" << app::describe(cut);
    keep("drawer");
    app::set_parameter_drawer_open(false);
  }
}

// A lesson on a phone: the slide under the view, with buttons to turn it; nothing cut.
TEST_F(NarrowLayoutTest, LessonSlidesOnAPhoneHaveNoCutText) {
  open(kPhone);
  const auto* source = app::find_builtin_lesson("positional-encoding-101");
  ASSERT_NE(source, nullptr);
  app::apply_lesson_display(session_->state());
  app::Presenter presenter;
  presenter.open(app::load_lesson_source("positional-encoding-101"), session_->state(), 0.0);
  for (std::size_t k = 0; k < presenter.count(); ++k) {
    presenter.go_to(session_->state(), k, 0.0);
    frames(3, &presenter);
    const auto cut = app::find_cut_text(*ImGui::GetDrawData());
    EXPECT_TRUE(cut.empty()) << where("slide " + std::to_string(k + 1)) << ": text cut" << app::describe(cut);
    if (k < 2 || !cut.empty()) keep("slide-" + std::to_string(k + 1));
  }
}

}  // namespace
