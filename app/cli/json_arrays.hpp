#pragma once
// Eigen arrays as JSON arrays, for the subcommands that print JSON (dump, inspect, weights).
#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace app {

inline nlohmann::json array_of(const Eigen::ArrayXd& a) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index i = 0; i < a.size(); ++i) out.push_back(a[i]);
  return out;
}

// rows × cols as [row][col] (weights: heads × pairs as [head][pair]).
inline nlohmann::json matrix_of(const Eigen::ArrayXXd& m) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace app
