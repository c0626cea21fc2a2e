#include "console/kept_token.hpp"

#include <spdlog/spdlog.h>

namespace ttt::client {

void KeptToken::open(const std::string& path) {
  file_.reset();
  if (path.empty()) return;
  std::string error;
  file_ = TokenFile::open(path, error);
  if (!file_) spdlog::warn("resume token not kept between runs: {}", error);
}

std::string KeptToken::earlier() const { return file_ ? file_->read() : ""; }

void KeptToken::welcomed(const wire::Welcome& welcome) { keep(welcome.resume_token()); }

void KeptToken::rotated(const wire::SecretRotated& rotated) {
  if (!rotated.resume_token().empty()) keep(rotated.resume_token());
}

void KeptToken::forget() { keep(""); }

void KeptToken::keep(const std::string& token) {
  if (!file_ || file_->write(token) || failure_said_) return;
  failure_said_ = true;
  spdlog::warn("resume token not kept between runs: {} could not be written", file_->path());
}

}  // namespace ttt::client
