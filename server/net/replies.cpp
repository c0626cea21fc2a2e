#include "net/replies.hpp"

#include <spdlog/spdlog.h>

namespace ttt::server {

Outbound error_reply(wire::ErrorCode code, std::string text, std::uint32_t request_id, bool fatal) {
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Error* error = message.mutable_error();
  error->set_code(code);
  error->set_text(std::move(text));
  error->set_fatal(fatal);
  return make_outbound(std::move(message));
}

Outbound oversized_refusal(const Outbound& message, std::string_view peer, std::size_t max_queued) {
  std::string kind = "message";  // the message's kind, for the log ("game_list")
  if (message.message) {
    const auto* descriptor = wire::ServerMessage::descriptor();
    if (const auto* field = descriptor->FindFieldByNumber(message.message->body_case())) {
      kind = field->name();
    }
  }
  spdlog::error(
      "server error: a {} of {} bytes for {} is larger than a connection's whole send queue ({} "
      "bytes); not sent",
      kind, message.frame->size(), peer, max_queued);
  return error_reply(wire::ERROR_CODE_INTERNAL,
                     "the server could not send its " + kind +
                         ": it was too large (the server's fault; the connection stays open)",
                     message.message ? message.message->in_reply_to() : 0);
}

void send_error(const std::weak_ptr<Participant>& to, wire::ErrorCode code, std::string text,
                std::uint32_t request_id) {
  if (auto participant = to.lock()) {
    participant->deliver(error_reply(code, std::move(text), request_id));
  }
}

wire::ServerMessage ping_at(std::chrono::steady_clock::time_point now) {
  wire::ServerMessage ping;
  ping.mutable_ping()->set_nonce(static_cast<std::uint64_t>(now.time_since_epoch().count()));
  return ping;
}

wire::ServerMessage pong_to(const wire::ClientMessage& ping) {
  wire::ServerMessage pong;
  pong.set_in_reply_to(ping.request_id());
  pong.mutable_pong()->set_nonce(ping.ping().nonce());
  return pong;
}

}  // namespace ttt::server
