// The trained checkpoint in tests/data/makemore-tr (a makemore GPT trained on Turkish names,
// converted by scripts/makemore_to_safetensors.py; its README says where it came from): it
// opens as a GPT-2 that does not rotate, its learned table is read whole and nothing else,
// and the values are those the conversion script read from the original torch archive
// (printed by Python from model.pt's float32 storage, independently of this reader).
#include <gtest/gtest.h>

#include <filesystem>

#include "pe/analysis/position_table_analysis.hpp"
#include "pe/weights/open_weights.hpp"
#include "pe/weights/position_tensors.hpp"

namespace {

const std::filesystem::path kDir = std::filesystem::path(PE_SOURCE_DIR) / "tests" / "data" / "makemore-tr";

TEST(MakemoreCheckpoint, ItsLearnedTableAsTheArchiveHoldsIt) {
  const pe::OpenedWeights o = pe::open_weights(kDir);
  EXPECT_FALSE(o.rotary());
  EXPECT_EQ(o.encoding.family, pe::PositionEncodingFamily::LearnedAbsolute);
  EXPECT_EQ(o.position_spec.positions, 15);
  EXPECT_EQ(o.position_spec.positions_key, "n_positions");
  const pe::TrainedPositions t = pe::read_trained_positions(*o.tensors, o.position_spec);
  ASSERT_TRUE(t.position_embeddings);
  const pe::LearnedPositionTable& wpe = *t.position_embeddings;
  EXPECT_EQ(wpe.tensor, "transformer.wpe.weight");
  ASSERT_EQ(wpe.values.rows(), 15);
  ASSERT_EQ(wpe.values.cols(), 64);
  EXPECT_EQ(wpe.values(0, 0), -2.1521129608154297f);
  EXPECT_EQ(wpe.values(0, 63), 2.381779193878174f);
  EXPECT_EQ(wpe.values(7, 31), -1.7277203798294067f);
  EXPECT_EQ(wpe.values(14, 0), -0.3434006869792938f);
  EXPECT_EQ(wpe.values(14, 63), -0.45594480633735657f);
  EXPECT_NEAR(wpe.values.row(0).cast<double>().square().sum(), 63.265822049446726, 1e-9);
  EXPECT_NEAR(wpe.values.row(14).cast<double>().square().sum(), 58.13723910961578, 1e-9);
  EXPECT_EQ(t.bytes_read, 15u * 64u * 4u);  // wpe only
  EXPECT_FALSE(t.encoder_bias || t.decoder_bias || t.rel_embeddings || t.encoder_position_embeddings);
}

TEST(MakemoreCheckpoint, NoBandNeighboursAreAsUnrelatedAsRandomVectors) {
  const pe::OpenedWeights o = pe::open_weights(kDir);
  const pe::TrainedPositions t = pe::read_trained_positions(*o.tensors, o.position_spec);
  const pe::TableF s = pe::position_cosine_similarity(t.position_embeddings->values.matrix());
  // What the README says in words: |cos| of distinct positions averages about 0.10 (as
  // independent random vectors in 64 dimensions, √(2/π)/8 ≈ 0.0997), none above 0.3.
  double sum = 0;
  int n = 0;
  for (int p = 0; p < 15; ++p)
    for (int q = p + 1; q < 15; ++q) {
      sum += std::abs(double(s(p, q)));
      ++n;
      EXPECT_LT(std::abs(s(p, q)), 0.3f) << p << ", " << q;
    }
  EXPECT_NEAR(sum / n, 0.102, 0.002);
  const Eigen::VectorXd band = pe::mean_similarity_by_distance(s);
  EXPECT_LT(std::abs(band(1)), 0.05);
}

}  // namespace
