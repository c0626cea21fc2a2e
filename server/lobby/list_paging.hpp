// ListPaging: how long a page of a list (the games, the players online) is:
// the length when a request names none, and the most it may ask. Whatever
// is asked, a page is small: no list can outgrow a send queue.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace ttt::server {

struct ListPaging {
  std::uint32_t page_size = 50;
  std::uint32_t page_max = 100;

  // The length of a page a request asks for (0: the default).
  std::size_t length(std::uint32_t asked) const noexcept {
    return std::clamp<std::uint32_t>(asked == 0 ? page_size : asked, 1,
                                     std::max<std::uint32_t>(page_max, 1));
  }
};

}  // namespace ttt::server
