#include "net/network_participant.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#include <optional>
#include <utility>

#include "net/replies.hpp"
#include "net/session.hpp"
#include "net/use_tuple.hpp"
#include "net/web_session.hpp"
#include "net/write_cork.hpp"

namespace ttt::server {

namespace asio = boost::asio;

template <typename Derived>
NetworkParticipant<Derived>::NetworkParticipant(asio::any_io_executor executor, Gate& gate,
                                                asio::any_io_executor logic,
                                                const SessionLimits& limits, SessionCommons commons,
                                                std::shared_ptr<void> slot, const char* kind,
                                                std::string peer, std::string address,
                                                ConnectionPhase first)
    : executor_(std::move(executor)),
      limits_(limits),
      commons_(commons),
      watchdog_timer_(executor_),
      rate_(limits.messages_per_second, limits.message_burst),
      slot_(std::move(slot)),
      kind_(kind),
      peer_(std::move(peer)),
      address_(std::move(address)),
      life_(limits.deadlines(), first, commons.metrics, Clock::now()),
      relay_(gate, std::move(logic), std::string(kind) + " " + peer_),
      own_io_(executor_.template target<asio::io_context::executor_type>()) {}

template <typename Derived>
bool NetworkParticipant<Derived>::on_own_thread() const noexcept {
  return own_io_ != nullptr && own_io_->running_in_this_thread();
}

template <typename Derived>
void NetworkParticipant<Derived>::spawn(asio::awaitable<void> coroutine) {
  asio::co_spawn(executor_, std::move(coroutine),
                 [self = this->shared_from_this()](std::exception_ptr e) {
                   if (!e) return;
                   try {
                     std::rethrow_exception(e);
                   } catch (const std::exception& ex) {
                     spdlog::error("{} {} failed: {}", self->kind_, self->peer_, ex.what());
                     self->stop(std::string("internal error: ") + ex.what());
                   }
                 });
}

// --- the lobby's end ------------------------------------------------------------

template <typename Derived>
void NetworkParticipant<Derived>::deliver(const Outbound& message) {
  if (message.frame->size() > limits_.max_queued_bytes) {
    refuse_oversized(message);
    return;
  }
  if (on_own_thread()) {
    // Where dispatch would run it at once (one thread), without wrapping it.
    if (message.message) life_.meter().sent(*message.message);
    derived().enqueue(message.frame);
    return;
  }
  asio::dispatch(executor_, [self = this->shared_from_this(), message] {
    if (message.message) self->life_.meter().sent(*message.message);
    self->enqueue(message.frame);
  });
}

template <typename Derived>
void NetworkParticipant<Derived>::refuse_oversized(const Outbound& message) {
  auto reply = oversized_refusal(message, peer_, limits_.max_queued_bytes);
  asio::dispatch(executor_,
                 [self = this->shared_from_this(), frame = reply.frame] { self->enqueue(frame); });
}

template <typename Derived>
void NetworkParticipant<Derived>::set_heartbeat(bool on) {
  asio::dispatch(executor_, [self = this->shared_from_this(), on] {
    if (self->life_.set_heartbeat(on)) self->watchdog_timer_.cancel();  // the deadlines changed
  });
}

template <typename Derived>
void NetworkParticipant<Derived>::close() {
  asio::dispatch(executor_,
                 [self = this->shared_from_this()] { self->begin_close("closed by the server"); });
}

template <typename Derived>
bool NetworkParticipant<Derived>::take(wire::ClientMessage& message, Clock::time_point now) {
  switch (life_.admit(message, now)) {
    case ConnectionLife::Admission::kHelloRequired:
      fail(wire::ERROR_CODE_HELLO_REQUIRED, "the first message must be Hello");
      return false;
    case ConnectionLife::Admission::kPing:
      send_now(pong_to(message));
      return true;
    case ConnectionLife::Admission::kPong:
      return true;
    case ConnectionLife::Admission::kHello:
      derived().became_ready();
      watchdog_timer_.cancel();  // from the Hello deadline to the idle clock
      break;
    case ConnectionLife::Admission::kMessage:
      break;
  }
  // What answering it sends to a connection on this thread goes out in one
  // write, once it is handled.
  std::optional<WriteCork> cork;
  if (Derived::kCorks && relay_.on_logic_thread()) cork.emplace();
  relay_.receive(message);
  return !closing();  // a call made at once may have closed us
}

template <typename Derived>
void NetworkParticipant<Derived>::warn_rate(std::string_view body, Clock::time_point now) {
  if (closing() || !rate_warnings_.allow(now)) return;
  spdlog::debug("{} {}: over the message rate limit", kind_, peer_);
  wire::ClientMessage refused;
  const std::uint32_t request_id = wire::parse_body(body, refused) ? refused.request_id() : 0;
  life_.meter().error_sent(wire::ERROR_CODE_RATE_LIMITED);
  derived().enqueue(
      error_reply(wire::ERROR_CODE_RATE_LIMITED, "too many messages: slow down", request_id).frame);
}

template <typename Derived>
void NetworkParticipant<Derived>::send_now(const wire::ServerMessage& message) {
  derived().enqueue(std::make_shared<const std::string>(wire::encode_frame(message)));
}

// --- deadlines and closing ------------------------------------------------------

template <typename Derived>
asio::awaitable<void> NetworkParticipant<Derived>::watchdog() {
  auto self = this->shared_from_this();
  while (!stopped()) {
    const auto now = Clock::now();
    ConnectionLife::Step step = life_.check(now);
    switch (step.action) {
      case ConnectionLife::Action::kWait:
        watchdog_timer_.expires_at(derived().wake_at(now, step.next));
        co_await watchdog_timer_.async_wait(use_tuple);
        break;
      case ConnectionLife::Action::kPing:
        send_now(ping_at(now));
        break;
      case ConnectionLife::Action::kFail:
        fail(step.code, std::move(step.text));
        break;
      case ConnectionLife::Action::kStop:
        stop(std::move(step.text));
        break;
    }
  }
}

template <typename Derived>
void NetworkParticipant<Derived>::fail(wire::ErrorCode code, std::string text) {
  if (closing()) return;
  spdlog::debug("{} {}: {}", kind_, peer_, text);
  life_.meter().error_sent(code);
  if (!derived().can_speak()) {
    stop(std::move(text));  // before the stream opens nothing can be said
    return;
  }
  derived().enqueue(error_reply(code, text, 0, true).frame);
  begin_close(std::move(text));
}

template <typename Derived>
void NetworkParticipant<Derived>::begin_close(std::string reason) {
  if (!life_.begin_close(std::move(reason), Clock::now())) return;
  watchdog_timer_.cancel();
  derived().closing_begun();
}

template <typename Derived>
void NetworkParticipant<Derived>::stop(std::string reason) {
  if (!life_.stop(std::move(reason))) return;
  derived().close_transport();
  watchdog_timer_.cancel();
  life_.log_end(commons_.log, kind_, peer_, address_, Clock::now());
  // Queued, never at once: a session may stop inside a call the logic
  // executor is making, which must not see the connection vanish.
  relay_.closed();
}

template class NetworkParticipant<Session>;
template class NetworkParticipant<WebSession>;

}  // namespace ttt::server
