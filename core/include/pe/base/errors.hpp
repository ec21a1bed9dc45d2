#pragma once
// One typed error for every rejected input: it names the parameter, the value given and
// what is allowed, so the GUI can show it beside the control and the CLI can print it.
#include "pe/base/module_guard.hpp"
#include <cstddef>
#include <stdexcept>
#include <string>

namespace pe {

class InvalidArgument : public std::invalid_argument {
 public:
  InvalidArgument(std::string parameter, std::string value, std::string allowed);
  const std::string& parameter() const noexcept { return parameter_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& allowed() const noexcept { return allowed_; }

 private:
  std::string parameter_, value_, allowed_;
};

// A requested table would exceed the memory budget (see set_memory_budget).
class MemoryBudgetExceeded : public InvalidArgument {
 public:
  MemoryBudgetExceeded(std::string what_table, std::size_t requested_bytes, std::size_t budget_bytes);
  // Same, naming the table's shape in the message; requested_bytes = SIZE_MAX means "overflows".
  MemoryBudgetExceeded(std::string what_table, long long rows, long long cols,
                       std::size_t bytes_per_entry, std::size_t requested_bytes,
                       std::size_t budget_bytes);
  std::size_t requested_bytes() const noexcept { return requested_; }
  std::size_t budget_bytes() const noexcept { return budget_; }

 private:
  std::size_t requested_, budget_;
};

// Process-wide cap on any single table core allocates (default 1 GiB). Asking for
// L = 10^9 positions is refused with MemoryBudgetExceeded instead of swapping.
std::size_t memory_budget() noexcept;
void set_memory_budget(std::size_t bytes) noexcept;
inline constexpr std::size_t kDefaultMemoryBudget = std::size_t{1} << 30;

// Throws MemoryBudgetExceeded when rows*cols*bytes_per_entry (checked for overflow)
// exceeds the budget.
void check_table_budget(const char* what_table, long long rows, long long cols,
                        std::size_t bytes_per_entry);

// Validation helpers: each throws InvalidArgument naming `parameter`.
void require_finite(const char* parameter, double value);
void require_theta(const char* parameter, double theta);          // finite, > 1
void require_even_dim(const char* parameter, long long dim);      // even, 2 ... kMaxDim
// Same, with who needs it in the message: "dim = 7: RoPE needs an even dimension, 2 ... 65536".
void require_even_dim(const char* parameter, long long dim, const char* who);
void require_dim(const char* parameter, long long dim);           // 1 ... kMaxDim
void require_length(const char* parameter, long long length);     // 1 ... kMaxLength
void require_positive(const char* parameter, double value);       // finite, > 0
void require_at_least(const char* parameter, long long value, long long minimum);
void require_in_range(const char* parameter, long long value, long long minimum, long long maximum);
void require_in_range(const char* parameter, double value, double minimum, double maximum);  // finite

// Value formatting shared by all messages: shortest round-trip text ("0.1", "nan", "inf"),
// and byte counts in binary units ("1 GiB", "476.8 GiB").
std::string format_double(double value);
std::string format_integer(long long value);
std::string format_bytes(std::size_t bytes);

inline constexpr long long kMaxDim = 65536;
inline constexpr long long kMaxLength = 1'000'000'000'000LL;  // table size is capped by budget

}  // namespace pe
