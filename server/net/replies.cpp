#include "net/replies.hpp"

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

void send_error(const std::weak_ptr<Participant>& to, wire::ErrorCode code, std::string text,
                std::uint32_t request_id) {
  if (auto participant = to.lock()) {
    participant->deliver(error_reply(code, std::move(text), request_id));
  }
}

}  // namespace ttt::server
