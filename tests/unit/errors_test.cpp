// Error values: message shape, memory budget, and one test per validation rule.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "pe/base/errors.hpp"

namespace {

TEST(Errors, MessageNamesParameterValueAndRange) {
  const pe::InvalidArgument e("dim", "7", "RoPE needs an even dimension, 2 ... 65536");
  EXPECT_STREQ(e.what(), "dim = 7: RoPE needs an even dimension, 2 ... 65536");
  EXPECT_EQ(e.parameter(), "dim");
  EXPECT_EQ(e.value(), "7");
  EXPECT_EQ(e.allowed(), "RoPE needs an even dimension, 2 ... 65536");
}

TEST(Errors, FormatDouble) {
  EXPECT_EQ(pe::format_double(0.1), "0.1");
  EXPECT_EQ(pe::format_double(10000.0), "10000");
  EXPECT_EQ(pe::format_double(std::nan("")), "nan");
  EXPECT_EQ(pe::format_double(-INFINITY), "-inf");
  EXPECT_EQ(pe::format_bytes(std::size_t{1} << 30), "1 GiB");
  EXPECT_EQ(pe::format_bytes(512), "512 bytes");
}

// Restores the budget even when a test fails half-way.
struct BudgetGuard {
  std::size_t saved = pe::memory_budget();
  ~BudgetGuard() { pe::set_memory_budget(saved); }
};

TEST(MemoryBudget, DefaultIsOneGiB) { EXPECT_EQ(pe::memory_budget(), std::size_t{1} << 30); }

TEST(MemoryBudget, RefusesOverBudgetAndAcceptsUnder) {
  EXPECT_NO_THROW(pe::check_table_budget("t", 1 << 14, 1 << 14, 4));  // exactly 1 GiB
  EXPECT_THROW(pe::check_table_budget("t", (1 << 14) + 1, 1 << 14, 4), pe::MemoryBudgetExceeded);
  try {
    pe::check_table_budget("RoPE cos+sin tables", 1'000'000'000, 64, 8);
    FAIL();
  } catch (const pe::MemoryBudgetExceeded& e) {
    EXPECT_EQ(e.requested_bytes(), 512'000'000'000ULL);
    EXPECT_EQ(e.parameter(), "RoPE cos+sin tables");
    const std::string msg = e.what();
    EXPECT_NE(msg.find("476.8 GiB"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1 GiB"), std::string::npos) << msg;
  }
}

TEST(MemoryBudget, OverflowIsRefusedNotWrapped) {
  EXPECT_THROW(pe::check_table_budget("t", pe::kMaxLength, pe::kMaxLength, 8), pe::MemoryBudgetExceeded);
  EXPECT_THROW(pe::check_table_budget("t", std::numeric_limits<long long>::max(), 3, 8), pe::MemoryBudgetExceeded);
  EXPECT_THROW(pe::check_table_budget("t", -1, 3, 8), pe::InvalidArgument);
}

TEST(MemoryBudget, IsConfigurable) {
  BudgetGuard guard;
  pe::set_memory_budget(1000);
  EXPECT_THROW(pe::check_table_budget("t", 10, 26, 4), pe::MemoryBudgetExceeded);
  EXPECT_NO_THROW(pe::check_table_budget("t", 10, 25, 4));
}

TEST(Validation, Finite) {
  EXPECT_THROW(pe::require_finite("x", std::nan("")), pe::InvalidArgument);
  EXPECT_THROW(pe::require_finite("x", INFINITY), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::require_finite("x", -1e300));
}

TEST(Validation, ThetaMustExceedOne) {
  EXPECT_THROW(pe::require_theta("theta", 1.0), pe::InvalidArgument);
  EXPECT_THROW(pe::require_theta("theta", 0.0), pe::InvalidArgument);
  EXPECT_THROW(pe::require_theta("theta", std::nan("")), pe::InvalidArgument);
  EXPECT_THROW(pe::require_theta("theta", INFINITY), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::require_theta("theta", 1.0001));
}

TEST(Validation, EvenDim) {
  EXPECT_THROW(pe::require_even_dim("dim", 7), pe::InvalidArgument);
  EXPECT_THROW(pe::require_even_dim("dim", 0), pe::InvalidArgument);
  EXPECT_THROW(pe::require_even_dim("dim", 65538), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::require_even_dim("dim", 65536));
}

TEST(Validation, Dim) {
  EXPECT_THROW(pe::require_dim("dim", 0), pe::InvalidArgument);
  EXPECT_THROW(pe::require_dim("dim", 65537), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::require_dim("dim", 1));
}

TEST(Validation, LengthAtLeastOne) {
  try {
    pe::require_length("length", 0);
    FAIL();
  } catch (const pe::InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "length = 0: length must be 1 ... 1000000000000");
  }
  EXPECT_THROW(pe::require_length("length", -3), pe::InvalidArgument);
  EXPECT_THROW(pe::require_length("length", pe::kMaxLength + 1), pe::InvalidArgument);
}

TEST(Validation, Positive) {
  EXPECT_THROW(pe::require_positive("sigma", 0.0), pe::InvalidArgument);
  EXPECT_THROW(pe::require_positive("sigma", -1.0), pe::InvalidArgument);
  EXPECT_THROW(pe::require_positive("sigma", std::nan("")), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::require_positive("sigma", 1e-300));
}

TEST(Validation, AtLeastAndRange) {
  EXPECT_THROW(pe::require_at_least("N", 0, 1), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::require_at_least("N", 1, 1));
  EXPECT_THROW(pe::require_in_range("k", 5LL, 0LL, 4LL), pe::InvalidArgument);
  EXPECT_THROW(pe::require_in_range("x", std::nan(""), 0.0, 1.0), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::require_in_range("x", 0.5, 0.0, 1.0));
}

}  // namespace
