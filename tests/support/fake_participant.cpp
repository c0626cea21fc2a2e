#include "support/fake_participant.hpp"

namespace ttt::testing {

void FakeParticipant::deliver(const server::Outbound& message) {
  received.push_back(*message.message);
}

const wire::ServerMessage* FakeParticipant::last(
    const std::function<bool(const wire::ServerMessage&)>& pred) const {
  for (auto it = received.rbegin(); it != received.rend(); ++it) {
    if (pred(*it)) return &*it;
  }
  return nullptr;
}

const wire::ServerMessage* FakeParticipant::last_error() const {
  return last([](const wire::ServerMessage& m) { return m.has_error(); });
}

const wire::GameState* FakeParticipant::last_state() const {
  for (auto it = received.rbegin(); it != received.rend(); ++it) {
    if (it->has_state()) return &it->state();
    if (it->has_joined()) return &it->joined().state();
  }
  return nullptr;
}

std::vector<wire::OfferEnded> FakeParticipant::offers_ended() const {
  std::vector<wire::OfferEnded> ended;
  for (const auto& m : received) {
    if (m.has_offer_ended()) ended.push_back(m.offer_ended());
  }
  return ended;
}

bool FakeParticipant::got_opponent_status() const {
  for (const auto& m : received) {
    if (m.has_opponent()) return true;
  }
  return false;
}

}  // namespace ttt::testing
