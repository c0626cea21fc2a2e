// LocalLobby: the lobby with the parts of one server process — accounts and
// the game journal over the store's writer (SQLite or PostgreSQL; nothing
// kept without one), counted for the metrics, the in-process game directory and
// quick-match queues. The Server
// and in-process tests build their lobby with it.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <vector>

#include "lobby/game_directory.hpp"
#include "lobby/lobby.hpp"
#include "lobby/matchmaker.hpp"
#include "lobby/text_rules.hpp"
#include "metrics/counting_journal.hpp"
#include "store/store_journal.hpp"
#include "store/stored_accounts.hpp"

namespace ttt::server {

// Several nodes: the parts shared with the other nodes, used in place of
// the in-process ones (all set, or the struct not given).
struct SharedParts {
  GameDirectory* directory = nullptr;
  Matchmaker* matchmaker = nullptr;
  Cluster* cluster = nullptr;
  IdSource* room_ids = nullptr;
  GameHolders* holders = nullptr;
};

struct LocalLobby {
  // writer may be null (nothing kept); players, last_record and pairings are
  // what the database held at start (and blocks, who blocked whom);
  // read_budget, if given, is the sessions' (for the operator's counters).
  LocalLobby(boost::asio::any_io_executor logic, boost::asio::any_io_executor compute,
             LobbyConfig config, StoreWriter* writer = nullptr,
             const std::vector<StoredPlayer>& players = {}, RecordId last_record = {},
             const std::vector<RatedPairing>& pairings = {},
             const ReadBudget* read_budget = nullptr, metrics::Counter* moves = nullptr,
             const std::vector<std::pair<std::int64_t, std::int64_t>>& blocks = {},
             const SharedParts& shared = {})
      : log(config.log_burst, LogLimiter::Clock::duration(config.log_every)),
        accounts(writer, name_key, players, pairings, blocks),
        journal(writer, accounts, last_record),
        counted(journal, moves),
        lobby(LobbyDependencies{std::move(logic), std::move(compute), accounts, counted,
                                shared.directory ? *shared.directory : directory,
                                shared.matchmaker ? *shared.matchmaker : matchmaker, log,
                                read_budget, shared.cluster, shared.room_ids, shared.holders},
              std::move(config)) {}

  LogLimiter log;  // the info lines allowed per address (the sessions share it)
  StoredAccounts accounts;
  StoreJournal journal;
  metrics::CountingJournal counted;  // journal, the moves counted on the way (moves, if given)
  LocalGameDirectory directory;
  LocalMatchmaker matchmaker;
  Lobby lobby;  // last: it uses the others
};

}  // namespace ttt::server
