#pragma once
// The learned view's picture of a trained table (issue 33): a model's learned absolute
// position table as read from its weights (state/weights_usage), its cosine similarity of
// positions, its leading principal components and each dimension's frequency content, with
// what they show said in words from the measured numbers.
#include <string>
#include <vector>

#include "state/weights_usage.hpp"
#include "views/view.hpp"

namespace app {

// The trained table of the reading (the only or decoder's, else the encoder's, else a vision
// tower's), or nullptr when it has none.
const pe::LearnedPositionTable* trained_table(const WeightsUsage& w);

// Draws the four panels and the note into ctx.size.
void draw_trained_table(ViewContext& ctx, const WeightsUsage& w);

// The measured sentences the note and the formula strip say.
std::string trained_table_summary(const WeightsUsage& w);

}  // namespace app
