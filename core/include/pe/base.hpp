#pragma once
// pe/base: errors, limits, number formatting, ASCII text helpers and the table types every module shares.
// Uses: nothing of pe (the C++ standard library and Eigen only).
#include "pe/base/errors.hpp"
#include "pe/base/number_text.hpp"
#include "pe/base/text.hpp"
#include "pe/base/types.hpp"
