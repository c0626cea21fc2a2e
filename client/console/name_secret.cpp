#include "console/name_secret.hpp"

#include "identity/name_refusal.hpp"
#include "text/safe_text.hpp"

namespace ttt::client {
namespace {

// The name the server holds for us, as shown.
std::string welcomed_name(const wire::Welcome& welcome) {
  return safe_text(welcome.name(), field_width::kName);
}

}  // namespace

void NameSecret::load(const std::string& path, const std::string& name,
                      ConnectionOptions& options) {
  path_ = path;
  secret_.emplace(path_);
  std::string error;
  if (!secret_->load_or_make(error)) {
    // Still usable for this run; the player must keep it by hand.
    say("The secret for the name " + name + " could not be saved (" + error +
        "). Keep it to use the name again: " + secret_->current());
  }
  options.secret = secret_->current();
  options.next_secret = secret_->pending();
}

std::optional<std::string> NameSecret::welcomed(const wire::Welcome& welcome,
                                                const std::string& secret_sent) {
  if (!welcome.secret().empty()) return keep_made(welcome);
  if (!secret_) return std::nullopt;
  std::string error;
  if (!secret_->pending().empty() && secret_sent == secret_->pending()) {
    // A rotation whose answer was lost: the server took the new secret.
    if (!secret_->finish_rotation(error)) say("The new secret could not be saved: " + error);
  }
  if (secret_->made_now() && !welcome.resumed()) {
    // The name was free and is ours now: the secret sent with it owns it.
    if (!secret_->path().empty()) {
      say("The name " + welcomed_name(welcome) +
          " is now yours on this server; its secret is kept in " + secret_->path() + ".");
    }
    secret_->registered();
  }
  return std::nullopt;
}

// The server gives a name's secret once, when the name is first used (a
// server older than client-made secrets).
std::optional<std::string> NameSecret::keep_made(const wire::Welcome& welcome) {
  std::string error;
  if (secret_ && secret_->adopt(welcome.secret(), error)) {
    say("The name " + welcomed_name(welcome) +
        " is now yours on this server; its secret is kept in " + secret_->path() + ".");
    return welcome.secret();
  }
  constexpr std::size_t kSecretWidth = 64;  // a real one is 32 hex digits
  say("The name " + welcomed_name(welcome) +
      " is now yours on this server. Keep its secret to use it again: " +
      safe_text(welcome.secret(), kSecretWidth) +
      (error.empty() ? "" : " (not saved: " + error + ")"));
  return std::nullopt;
}

void NameSecret::name_taken() {
  if (secret_) secret_->forget_made();
}

std::optional<std::string> NameSecret::begin_rotation() {
  std::string error;
  std::string next = secret_ ? secret_->begin_rotation(error) : "";
  if (next.empty()) {
    say("The secret can't be replaced: " + (error.empty() ? "none is kept" : error) + ".");
    return std::nullopt;
  }
  return next;
}

std::optional<std::string> NameSecret::rotated() {
  std::string error;
  if (!secret_ || !secret_->finish_rotation(error)) {
    say("The server took the new secret, but it could not be saved here: " + error);
    return std::nullopt;
  }
  say("Your name has a new secret, kept in " + secret_->path() + "; the old one no longer works.");
  return secret_->current();
}

std::string NameSecret::refusal_text(const std::string& name, const std::string& server) const {
  NameRefusal refusal;
  refusal.name = name;
  refusal.server = server;
  refusal.secret_path = path_;
  refusal.had_secret = !path_.empty() && !read_secret(path_).empty();
  refusal.secret_flag = "--secret-file";
  return name_refusal_text(refusal);
}

void NameSecret::say(const std::string& line) { terminal_.print(line + "\n"); }

}  // namespace ttt::client
