#include "bot/game_entry.hpp"

#include <spdlog/spdlog.h>

namespace ttt::client {

GameEntry::GameEntry(boost::asio::any_io_executor io, std::string label, const BotOptions& options)
    : label_(std::move(label)), options_(options), timer_(std::move(io)) {}

std::optional<wire::ClientMessage> GameEntry::request() {
  asked_ = true;
  const wire::Rated rated = options_.rated ? wire::RATED_YES : wire::RATED_DEFAULT;
  wire::ClientMessage m;
  switch (options_.mode) {
    case BotMode::QuickMatch:
      m.mutable_quick_match()->set_size(options_.size);
      m.mutable_quick_match()->set_win_length(options_.win_length);
      m.mutable_quick_match()->set_rated(rated);
      m.mutable_quick_match()->mutable_clock()->set_initial_ms(options_.clock_initial_ms);
      m.mutable_quick_match()->mutable_clock()->set_increment_ms(options_.clock_increment_ms);
      break;
    case BotMode::Join:
      m.mutable_join_game()->set_game_id(options_.game_id);
      m.mutable_join_game()->set_invite_code(options_.invite_code);
      m.mutable_join_game()->set_rated(rated);
      break;
    case BotMode::Create:
      m.mutable_create_game()->set_size(options_.size);
      m.mutable_create_game()->set_win_length(options_.win_length);
      m.mutable_create_game()->set_rated(rated);
      m.mutable_create_game()->mutable_clock()->set_initial_ms(options_.clock_initial_ms);
      m.mutable_create_game()->mutable_clock()->set_increment_ms(options_.clock_increment_ms);
      break;
    case BotMode::Challenge:
      m.mutable_challenge()->set_name(options_.opponent);
      m.mutable_challenge()->set_size(options_.size);
      m.mutable_challenge()->set_win_length(options_.win_length);
      m.mutable_challenge()->set_rated(rated);
      m.mutable_challenge()->mutable_clock()->set_initial_ms(options_.clock_initial_ms);
      m.mutable_challenge()->mutable_clock()->set_increment_ms(options_.clock_increment_ms);
      break;
    case BotMode::AcceptChallenges:
      return std::nullopt;  // nothing to ask: the challenges come
  }
  return m;
}

bool GameEntry::ask_again_later(std::function<void()> again) {
  const auto now = std::chrono::steady_clock::now();
  if (!refused_since_) refused_since_ = now;
  if (now - *refused_since_ >= options_.connection.retry) return false;
  spdlog::info("{}: no game found now; asking again in {} ms", label_,
               options_.enter_retry.count());
  timer_.expires_after(options_.enter_retry);
  timer_.async_wait([alive = std::weak_ptr<bool>(alive_),
                     again = std::move(again)](const boost::system::error_code& ec) {
    if (!ec && !alive.expired()) again();
  });
  return true;
}

}  // namespace ttt::client
