#include "lobby/records_desk.hpp"

#include <algorithm>

#include "lobby/text_rules.hpp"
#include "net/replies.hpp"
#include "store/record_outcome.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::server {
namespace {

void fill_record(const GameRecord& g, wire::GameRecord& out) {
  out.set_record_id(static_cast<std::uint64_t>(g.id));
  out.set_game_id(static_cast<std::uint64_t>(g.room_id));
  out.set_round(static_cast<std::uint32_t>(g.round));
  out.set_size(g.size);
  out.set_win_length(g.win_length);
  out.set_x_name(g.x_name);
  out.set_o_name(g.o_name);
  out.set_status(game_status_of(g.status));
  out.set_end_reason(end_reason_of(g.reason));
  out.set_rated(g.rated);
  out.set_started_ms(static_cast<std::uint64_t>(g.started_ms));
  out.set_ended_ms(static_cast<std::uint64_t>(g.ended_ms));
  out.set_move_count(static_cast<std::uint32_t>(g.moves.size()));
  if (const auto line = winning_line_of(g)) {
    out.mutable_winning_line()->set_kind(wire::line_kind_of(line->kind));
    out.mutable_winning_line()->set_index(line->index);
  }
}

std::uint32_t clamp_limit(std::uint32_t limit) {
  return limit == 0 ? 10 : std::min<std::uint32_t>(limit, 100);
}

}  // namespace

bool RecordsDesk::has_records(LobbyPlayer& player, std::uint32_t request_id) {
  if (accounts_.keeps_games()) return true;
  replies_.error(player, wire::ERROR_CODE_NO_DATABASE,
                 "this server keeps no game records (it runs with --db none)", request_id);
  return false;
}

void RecordsDesk::leaderboard(LobbyPlayer& player, const wire::GetLeaderboard& request,
                              std::uint32_t request_id) {
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Leaderboard* board = message.mutable_leaderboard();
  for (const StoredPlayer& p : accounts_.leaderboard(clamp_limit(request.limit()))) {
    wire::LeaderboardEntry* entry = board->add_entries();
    entry->set_name(p.name);
    entry->set_rating(p.rating);
    entry->set_games(static_cast<std::uint64_t>(p.games_played));
    entry->set_wins(static_cast<std::uint64_t>(p.wins));
    entry->set_losses(static_cast<std::uint64_t>(p.losses));
    entry->set_draws(static_cast<std::uint64_t>(p.draws));
    entry->set_provisional(is_provisional(p));
    entry->set_server_bot(p.is_bot);
  }
  replies_.reply(player, std::move(message));
}

void RecordsDesk::profile(LobbyPlayer& player, const wire::GetProfile& request,
                          std::uint32_t request_id) {
  const StoredPlayer* account = request.name().empty() ? accounts_.get(player.account)
                                                       : accounts_.find(name_key(request.name()));
  if (account == nullptr) {
    replies_.error(player, wire::ERROR_CODE_NO_RECORD,
                   "no player is called '" + request.name() + "'", request_id);
    return;
  }
  const Standing standing = accounts_.standing(account_id(*account));
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Profile* out = message.mutable_profile();
  out->set_name(account->name);
  out->set_rating(accounts_.rating(account_id(*account)));
  out->set_games(static_cast<std::uint64_t>(account->games_played));
  out->set_wins(static_cast<std::uint64_t>(account->wins));
  out->set_losses(static_cast<std::uint64_t>(account->losses));
  out->set_draws(static_cast<std::uint64_t>(account->draws));
  out->set_rank(static_cast<std::uint32_t>(standing.rank));
  out->set_ranked(static_cast<std::uint32_t>(standing.ranked));
  replies_.reply(player, std::move(message));
}

void RecordsDesk::history(LobbyPlayer& player, const wire::GetHistory& request,
                          std::uint32_t request_id) {
  if (!has_records(player, request_id)) return;
  const StoredPlayer* account = accounts_.get(player.account);
  if (!request.name().empty()) {
    account = accounts_.find(name_key(request.name()));
    if (account == nullptr) {
      replies_.error(player, wire::ERROR_CODE_NO_RECORD,
                     "no player is called '" + request.name() + "'", request_id);
      return;
    }
  }
  if (account == nullptr) return;
  accounts_.history(account_id(*account), static_cast<int>(clamp_limit(request.limit())),
                    [this, asker = player.id, name = account->name,
                     request_id](std::optional<std::vector<GameRecord>> games) {
                      LobbyPlayer* asking = replies_.player_of(asker);
                      if (asking == nullptr) return;
                      if (!games) {
                        replies_.error(*asking, wire::ERROR_CODE_STORAGE,
                                       "the history could not be read", request_id);
                        return;
                      }
                      wire::ServerMessage message;
                      message.set_in_reply_to(request_id);
                      message.mutable_history()->set_name(name);
                      for (const GameRecord& g : *games) {
                        fill_record(g, *message.mutable_history()->add_games());
                      }
                      replies_.reply(*asking, std::move(message));
                    });
}

void RecordsDesk::replay(LobbyPlayer& player, const wire::GetReplay& request,
                         std::uint32_t request_id) {
  if (!has_records(player, request_id)) return;
  auto answer = [this, asker = player.id, request_id, record = request.record_id(),
                 room = request.game_id()](bool read_ok, std::optional<GameRecord> game) {
    LobbyPlayer* asking = replies_.player_of(asker);
    if (asking == nullptr) return;
    // A private game is not found by its room (its link needs the code,
    // which only a live Spectate checks, under the limits on codes).
    if (game && record == 0 && game->is_private) game.reset();
    if (!read_ok || !game || game->status == "in_progress") {
      if (record == 0 && read_ok) {
        replies_.error(*asking, wire::ERROR_CODE_NO_RECORD,
                       "game " + std::to_string(room) + " has no finished round on record",
                       request_id);
        return;
      }
      replies_.error(*asking, !read_ok ? wire::ERROR_CODE_STORAGE : wire::ERROR_CODE_NO_RECORD,
                     !read_ok ? "the game could not be read"
                              : "no finished game has record " + std::to_string(record),
                     request_id);
      return;
    }
    wire::ServerMessage message;
    message.set_in_reply_to(request_id);
    wire::GameRecord* out = message.mutable_replay()->mutable_game();
    fill_record(*game, *out);
    for (const StoredMove& m : game->moves) {
      wire::MoveRecord* move = out->add_moves();
      move->set_row(m.row);
      move->set_col(m.col);
      move->set_at_ms(static_cast<std::uint64_t>(m.at_ms));
    }
    replies_.reply(*asking, std::move(message));
  };
  if (request.record_id() == 0 && request.game_id() != 0) {
    accounts_.replay_of_room(request.game_id(), std::move(answer));
  } else {
    accounts_.replay(static_cast<RecordId>(request.record_id()), std::move(answer));
  }
}

}  // namespace ttt::server
