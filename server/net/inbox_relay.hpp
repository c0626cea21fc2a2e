// InboxRelay: a connection's way to its Inbox on the logic executor. It
// opens the Inbox through the Gate before any message, hands over each
// message in order (at once when the caller already runs on the logic
// executor: one thread; else queued there) and says once that the
// connection closed. An exception escaping the logic side ends the
// connection (logged once), not the server.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <memory>
#include <string>

#include "net/inbox.hpp"
#include "net/participant.hpp"

namespace ttt::server {

class InboxRelay {
 public:
  // name: how the log names the connection ("connection ADDRESS:PORT").
  InboxRelay(Gate& gate, boost::asio::any_io_executor logic, std::string name);

  // Whether the caller runs on the logic executor's own thread (one
  // thread), where a message is handed over at once.
  bool on_logic_thread() const noexcept;
  // Opens the inbox for `self`, the connection this relay belongs to (kept
  // alive by what is queued for it), before anything else it relays.
  void open(const std::shared_ptr<Participant>& self, std::string address);
  // Hands a message over; `message` may be moved from.
  void receive(wire::ClientMessage& message);
  // The connection is gone: the inbox hears it, always from the logic
  // executor's queue (never inside a call it is making), and is let go.
  void closed();

 private:
  template <typename F>
  void to_logic(F&& f);
  template <typename F>
  void guarded(F&& f);

  Gate& gate_;
  boost::asio::any_io_executor logic_;
  // The io_context's executor behind logic_ when it is that (one thread),
  // else null (a strand).
  const boost::asio::io_context::executor_type* const logic_io_;
  std::string name_;
  std::weak_ptr<Participant> self_;
  std::shared_ptr<Inbox> inbox_;  // touched on the logic executor only
};

}  // namespace ttt::server
