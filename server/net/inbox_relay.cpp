#include "net/inbox_relay.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <utility>

namespace ttt::server {

namespace asio = boost::asio;

InboxRelay::InboxRelay(Gate& gate, asio::any_io_executor logic, std::string name)
    : gate_(gate),
      logic_(std::move(logic)),
      logic_io_(logic_.target<asio::io_context::executor_type>()),
      name_(std::move(name)) {}

bool InboxRelay::on_logic_thread() const noexcept {
  return logic_io_ != nullptr && logic_io_->running_in_this_thread();
}

template <typename F>
void InboxRelay::to_logic(F&& f) {
  if (on_logic_thread()) {  // where dispatch would run f at once: no need to wrap it
    guarded(f);
    return;
  }
  // What is queued keeps the connection, and so this relay, alive.
  asio::dispatch(logic_,
                 [this, self = self_.lock(), f = std::forward<F>(f)]() mutable { guarded(f); });
}

template <typename F>
void InboxRelay::guarded(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    // The inbox catches what handling a message throws; this is the net
    // under it (e.g. opening the inbox failed).
    spdlog::error("{}: {}", name_, e.what());
    if (auto self = self_.lock()) self->close();
  }
}

void InboxRelay::open(const std::shared_ptr<Participant>& self, std::string address) {
  self_ = self;
  to_logic([this, self, address = std::move(address)] { inbox_ = gate_.open(self, address); });
}

void InboxRelay::receive(wire::ClientMessage& message) {
  if (on_logic_thread()) {
    guarded([&] {
      if (inbox_) inbox_->receive(message);
    });
    return;
  }
  to_logic([this, m = std::move(message)] {
    if (inbox_) inbox_->receive(m);
  });
}

void InboxRelay::closed() {
  auto owner = self_.lock();
  if (!owner) return;  // never opened: there is no inbox to tell
  asio::post(logic_, [this, self = std::move(owner)] {
    if (auto inbox = std::move(inbox_)) inbox->closed();
  });
}

}  // namespace ttt::server
