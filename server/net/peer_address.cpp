#include "net/peer_address.hpp"

namespace ttt::server {

std::string address_key(const boost::asio::ip::address& address) {
  if (address.is_v4()) return address.to_string();
  const auto v6 = address.to_v6();
  if (v6.is_v4_mapped()) {
    return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_string();
  }
  auto bytes = v6.to_bytes();
  for (std::size_t i = 8; i < bytes.size(); ++i) bytes[i] = 0;
  return boost::asio::ip::address_v6(bytes).to_string() + "/64";
}

std::string network_key(const std::string& address_key) {
  constexpr std::string_view kSlash64 = "/64";
  if (!address_key.ends_with(kSlash64)) return address_key;
  boost::system::error_code ec;
  const auto v6 = boost::asio::ip::make_address_v6(
      address_key.substr(0, address_key.size() - kSlash64.size()), ec);
  if (ec) return address_key;
  auto bytes = v6.to_bytes();
  for (std::size_t i = 6; i < bytes.size(); ++i) bytes[i] = 0;
  return boost::asio::ip::address_v6(bytes).to_string() + "/48";
}

}  // namespace ttt::server
