#include "net/participant.hpp"

#include <google/protobuf/arena.h>

#include <cstddef>

#include "ttt/wire/frame.hpp"

namespace ttt::server {
namespace {

// The arena's first block, inside the allocation: a game's state with its
// players takes about half of it.
constexpr std::size_t kArenaBlock = 1024;

}  // namespace

Outbound make_outbound(wire::ServerMessage message) {
  auto shared = std::make_shared<const wire::ServerMessage>(std::move(message));
  auto frame = std::make_shared<const std::string>(wire::encode_frame(*shared));
  return {std::move(shared), std::move(frame)};
}

struct OutboundBuilder::Held {
  // Provided, so that make_shared does not zero the block first (as it
  // would for a constructor the compiler writes).
  Held() noexcept {}

  alignas(std::max_align_t) char block[kArenaBlock];
  google::protobuf::Arena arena{block, sizeof block};
  std::string frame;
};

OutboundBuilder::OutboundBuilder()
    : held_(std::make_shared<Held>()),
      message_(google::protobuf::Arena::CreateMessage<wire::ServerMessage>(&held_->arena)) {}

Outbound OutboundBuilder::finish() {
  held_->frame = wire::encode_frame(*message_);
  // Both point into the one allocation, which lives while either does.
  Outbound out{std::shared_ptr<const wire::ServerMessage>(held_, message_),
               std::shared_ptr<const std::string>(held_, &held_->frame)};
  held_.reset();
  return out;
}

}  // namespace ttt::server
