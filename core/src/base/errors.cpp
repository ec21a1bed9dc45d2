#include "pe/base/errors.hpp"
#include "pe/base/number_text.hpp"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace pe {

namespace {

// Atomic so the GUI thread may change the budget while a worker builds a table.
std::atomic<std::size_t> g_budget{kDefaultMemoryBudget};

std::string compose(const std::string& parameter, const std::string& value, const std::string& allowed) {
  return parameter + " = " + value + ": " + allowed;
}

std::string range_text(long long minimum, long long maximum) {
  return format_integer(minimum) + " ... " + format_integer(maximum);
}

}  // namespace

InvalidArgument::InvalidArgument(std::string parameter, std::string value, std::string allowed)
    : std::invalid_argument(compose(parameter, value, allowed)),
      parameter_(std::move(parameter)),
      value_(std::move(value)),
      allowed_(std::move(allowed)) {}

MemoryBudgetExceeded::MemoryBudgetExceeded(std::string what_table, std::size_t requested_bytes,
                                           std::size_t budget_bytes)
    : InvalidArgument(std::move(what_table),
                      requested_bytes == std::numeric_limits<std::size_t>::max()
                          ? "more than " + format_bytes(requested_bytes)
                          : format_bytes(requested_bytes),
                      "over the memory budget of " + format_bytes(budget_bytes) +
                          "; ask for fewer positions or raise the budget (set_memory_budget)"),
      requested_(requested_bytes),
      budget_(budget_bytes) {}

MemoryBudgetExceeded::MemoryBudgetExceeded(std::string what_table, long long rows, long long cols,
                                           std::size_t bytes_per_entry, std::size_t requested_bytes,
                                           std::size_t budget_bytes)
    : InvalidArgument(std::move(what_table),
                      format_integer(rows) + " x " + format_integer(cols) + " x " +
                          std::to_string(bytes_per_entry) + " bytes = " +
                          (requested_bytes == std::numeric_limits<std::size_t>::max()
                               ? "more than " + format_bytes(requested_bytes)
                               : format_bytes(requested_bytes)),
                      "over the memory budget of " + format_bytes(budget_bytes) +
                          "; ask for fewer positions or raise the budget (set_memory_budget)"),
      requested_(requested_bytes),
      budget_(budget_bytes) {}

std::size_t memory_budget() noexcept { return g_budget.load(std::memory_order_relaxed); }
void set_memory_budget(std::size_t bytes) noexcept { g_budget.store(bytes, std::memory_order_relaxed); }

void check_table_budget(const char* what_table, long long rows, long long cols, std::size_t bytes_per_entry) {
  if (rows < 0) throw InvalidArgument("rows", format_integer(rows), "a table needs rows >= 0");
  if (cols < 0) throw InvalidArgument("cols", format_integer(cols), "a table needs cols >= 0");
  // Multiply with overflow detection: an overflowing request is simply "too big".
  std::size_t bytes = 0;
  const bool overflow = __builtin_mul_overflow(static_cast<std::size_t>(rows), static_cast<std::size_t>(cols), &bytes) ||
                        __builtin_mul_overflow(bytes, bytes_per_entry, &bytes);
  const std::size_t budget = memory_budget();
  if (overflow) {
    throw MemoryBudgetExceeded(what_table, rows, cols, bytes_per_entry, std::numeric_limits<std::size_t>::max(),
                               budget);
  }
  if (bytes > budget) throw MemoryBudgetExceeded(what_table, rows, cols, bytes_per_entry, bytes, budget);
}

void require_finite(const char* parameter, double value) {
  if (!std::isfinite(value)) throw InvalidArgument(parameter, format_double(value), "must be a finite number");
}

void require_theta(const char* parameter, double theta) {
  // theta <= 1 makes θ_i = theta^(-2i/d) non-decreasing (or all 1): no longer a frequency ladder.
  if (!std::isfinite(theta) || !(theta > 1.0)) {
    throw InvalidArgument(parameter, format_double(theta), "the base must be finite and > 1");
  }
}

void require_even_dim(const char* parameter, long long dim) { require_even_dim(parameter, dim, nullptr); }

void require_even_dim(const char* parameter, long long dim, const char* who) {
  if (dim < 2 || dim > kMaxDim || dim % 2 != 0) {
    const std::string prefix = who ? std::string(who) + " needs" : std::string("needs");
    throw InvalidArgument(parameter, format_integer(dim), prefix + " an even dimension, " + range_text(2, kMaxDim));
  }
}

void require_dim(const char* parameter, long long dim) {
  if (dim < 1 || dim > kMaxDim) throw InvalidArgument(parameter, format_integer(dim), "dimension must be " + range_text(1, kMaxDim));
}

void require_length(const char* parameter, long long length) {
  if (length < 1 || length > kMaxLength) {
    throw InvalidArgument(parameter, format_integer(length), "length must be " + range_text(1, kMaxLength));
  }
}

void require_positive(const char* parameter, double value) {
  if (!std::isfinite(value) || !(value > 0.0)) {
    throw InvalidArgument(parameter, format_double(value), "must be finite and > 0");
  }
}

void require_at_least(const char* parameter, long long value, long long minimum) {
  if (value < minimum) throw InvalidArgument(parameter, format_integer(value), "must be >= " + format_integer(minimum));
}

void require_in_range(const char* parameter, long long value, long long minimum, long long maximum) {
  if (value < minimum || value > maximum) {
    throw InvalidArgument(parameter, format_integer(value), "must be " + range_text(minimum, maximum));
  }
}

void require_in_range(const char* parameter, double value, double minimum, double maximum) {
  if (!std::isfinite(value) || value < minimum || value > maximum) {
    throw InvalidArgument(parameter, format_double(value),
                          "must be finite, " + format_double(minimum) + " ... " + format_double(maximum));
  }
}

std::string format_double(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // Shortest text that reads back to the same double: "0.1", not "0.10000000000000001".
  return shortest_text(value);
}

std::string format_integer(long long value) { return std::to_string(value); }

std::string format_bytes(std::size_t bytes) {
  static const char* const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double v = static_cast<double>(bytes);
  int unit = 0;
  while (v >= 1024.0 && unit < 6) {
    v /= 1024.0;
    ++unit;
  }
  char buf[64];
  // Whole numbers print without decimals ("1 GiB"), others with one ("476.8 GiB").
  if (v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f %s", v, units[unit]);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[unit]);
  }
  return buf;
}

}  // namespace pe
