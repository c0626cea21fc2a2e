#include "bot/bot_secret.hpp"

#include <spdlog/spdlog.h>

#include "identity/name_refusal.hpp"

namespace ttt::client {

BotSecret::BotSecret(std::string label, std::string path, bool rotate)
    : label_(std::move(label)), secret_(std::move(path)), rotate_(rotate) {}

void BotSecret::load(ConnectionOptions& options) {
  // The bot makes its name's secret itself and keeps it before saying Hello.
  std::string error;
  if (!secret_.load_or_make(error)) {
    spdlog::warn("{}: the secret of the name is not kept: {}", label_, error);
  }
  options.secret = secret_.current();
  options.next_secret = secret_.pending();
}

std::optional<std::string> BotSecret::welcomed(const wire::Welcome& welcome,
                                               const std::string& secret_sent) {
  std::optional<std::string> now_said;
  std::string failure;
  if (!welcome.secret().empty()) {
    // An older server made the secret.
    if (!secret_.adopt(welcome.secret(), failure)) {
      spdlog::warn("{}: the secret of the name is not kept: {}", label_, failure);
    }
    now_said = welcome.secret();
  } else if (!secret_.pending().empty() && secret_sent == secret_.pending()) {
    // A rotation whose answer was lost: the server took the new secret.
    if (!secret_.finish_rotation(failure)) spdlog::warn("{}: {}", label_, failure);
  }
  secret_.registered();
  return now_said;
}

std::optional<std::string> BotSecret::rotation(std::string& error) {
  if (!rotate_ || rotated_) return std::nullopt;
  rotated_ = true;
  std::string failure;
  std::string next = secret_.begin_rotation(failure);
  if (next.empty()) {
    error = "could not replace its secret: " + failure;
    return std::nullopt;
  }
  return next;
}

std::optional<std::string> BotSecret::rotated(std::string& error) {
  std::string failure;
  if (!secret_.finish_rotation(failure)) {
    error = "the server took a new secret that could not be kept: " + failure;
    return std::nullopt;
  }
  spdlog::info("{}: the name has a new secret, kept in {}", label_, secret_.path());
  return secret_.current();
}

std::string BotSecret::refusal_text(const std::string& name, const std::string& server) const {
  NameRefusal refusal;
  refusal.name = name;
  refusal.server = server;
  refusal.secret_path = secret_.path();
  refusal.had_secret = !read_secret(secret_.path()).empty();
  return name_refusal_text(refusal);
}

}  // namespace ttt::client
