#include "metrics/server_metrics.hpp"

#include <algorithm>
#include <cstdio>

namespace ttt::server::metrics {
namespace {

// The limit an error code reports reaching, or nullptr.
const char* limit_of(wire::ErrorCode code) noexcept {
  switch (code) {
    case wire::ERROR_CODE_SERVER_FULL:
      return "connections";
    case wire::ERROR_CODE_TOO_MANY_CONNECTIONS:
      return "connections_per_address";
    case wire::ERROR_CODE_TOO_MANY_NEW_NAMES:
      return "new_names_per_address";
    case wire::ERROR_CODE_IDENTITY_LOCKED:
      return "identity_failures_per_address";
    case wire::ERROR_CODE_TOO_MANY_GAMES:
      return "games_per_address";
    case wire::ERROR_CODE_ALREADY_IN_GAME:
      return "games_per_player";
    case wire::ERROR_CODE_RATE_LIMITED:
      return "message_rate";
    case wire::ERROR_CODE_SLOW_CONSUMER:
      return "send_queue";
    case wire::ERROR_CODE_FRAME_TOO_LARGE:
      return "frame_size";
    case wire::ERROR_CODE_SPECTATORS_FULL:
      return "spectators";
    case wire::ERROR_CODE_BOTS_BUSY:
      return "bot_queue";
    case wire::ERROR_CODE_HELLO_TIMEOUT:
      return "hello_timeout";
    case wire::ERROR_CODE_IDLE_TIMEOUT:
      return "idle_timeout";
    default:
      return nullptr;
  }
}

const char* state_name(std::size_t state) {
  static constexpr const char* kNames[] = {"", "handshake", "awaiting_hello", "ready", "closing"};
  return kNames[state];
}

// Label values are ours, but escaped as the format says all the same.
std::string escaped(std::string_view value) {
  std::string out;
  for (const char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

class Page {
 public:
  void family(const char* name, const char* type, const char* help) {
    out_ += "# HELP ";
    out_ += name;
    out_ += ' ';
    out_ += help;
    out_ += "\n# TYPE ";
    out_ += name;
    out_ += ' ';
    out_ += type;
    out_ += '\n';
  }
  void sample(std::string_view name, std::string_view labels, const std::string& value) {
    out_ += name;
    if (!labels.empty()) {
      out_ += '{';
      out_ += labels;
      out_ += '}';
    }
    out_ += ' ';
    out_ += value;
    out_ += '\n';
  }
  void sample(std::string_view name, std::string_view labels, std::uint64_t value) {
    sample(name, labels, std::to_string(value));
  }
  void labeled(const char* name, const char* type, const char* help, const LabeledCounters& c) {
    family(name, type, help);
    for (std::size_t i = 0; i < c.size(); ++i) {
      sample(name, c.label() + "=\"" + escaped(c.value_name(i)) + "\"", c.count(i));
    }
  }
  void histogram(const char* name, const char* help, const Histogram& h) {
    family(name, "histogram", help);
    const std::string bucket = std::string(name) + "_bucket";
    for (std::size_t i = 0; i < h.bounds().size(); ++i) {
      sample(bucket, "le=\"" + number(h.bounds()[i]) + "\"", h.cumulative(i));
    }
    sample(bucket, "le=\"+Inf\"", h.count());
    sample(std::string(name) + "_sum", "", number(h.sum_seconds()));
    sample(std::string(name) + "_count", "", h.count());
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

}  // namespace

ServerMetrics::ServerMetrics(std::string version, bool tls)
    : version_(std::move(version)), tls_(tls) {}

void ServerMetrics::connection_state(ConnectionState from, ConnectionState to) noexcept {
  if (from != ConnectionState::kNone) connections_[static_cast<std::size_t>(from)].add(-1);
  if (to != ConnectionState::kNone) connections_[static_cast<std::size_t>(to)].add(1);
}

void ServerMetrics::error_sent(wire::ErrorCode code) noexcept {
  const auto index = static_cast<std::size_t>(code);
  errors_[index < errors_.size() ? index : errors_.size() - 1].add();
  if (const char* limit = limit_of(code)) limit_hits.at(limit).add();
}

std::string ServerMetrics::render(const Snapshot& s) const {
  Page page;
  page.family("ttt_build_info", "gauge", "The server's version and whether it speaks TLS.");
  page.sample("ttt_build_info",
              "version=\"" + escaped(version_) + "\",tls=\"" + (tls_ ? "on" : "off") + "\"",
              std::uint64_t{1});

  page.family("ttt_connections", "gauge", "Open connections by state.");
  for (std::size_t state = 1; state < connections_.size(); ++state) {
    const std::int64_t value = connections_[state].value();
    page.sample("ttt_connections", std::string("state=\"") + state_name(state) + "\"",
                std::to_string(value < 0 ? 0 : value));
  }
  page.family("ttt_connections_accepted_total", "counter", "Connections accepted.");
  page.sample("ttt_connections_accepted_total", "", connections_accepted.value());
  page.labeled("ttt_tls_handshakes_total", "counter",
               "New connections to a TLS server by outcome (plain_client: told TLS_REQUIRED).",
               tls_handshakes);

  page.family("ttt_web_connections", "gauge",
              "Browsers' HTTP connections open on the game port, before any WebSocket.");
  page.sample("ttt_web_connections", "",
              std::to_string(std::max<std::int64_t>(0, web_connections.value())));
  page.family("ttt_web_sessions", "gauge",
              "Browsers' WebSocket sessions open (counted in ttt_connections too).");
  page.sample("ttt_web_sessions", "",
              std::to_string(std::max<std::int64_t>(0, web_sessions.value())));
  page.labeled("ttt_web_requests_total", "counter", "HTTP requests for the web client, by result.",
               web_requests);
  page.labeled("ttt_web_upgrades_total", "counter",
               "WebSocket upgrades, by result (foreign_origin: another site's page, refused).",
               web_upgrades);

  page.family("ttt_players_online", "gauge", "Players connected past Hello (bots excluded).");
  page.sample("ttt_players_online", "", s.players_online);
  page.family("ttt_players_away", "gauge", "Seated players whose connection dropped.");
  page.sample("ttt_players_away", "", s.players_away);

  page.family("ttt_games", "gauge", "Games by state and board size.");
  for (const auto& [key, count] : s.games) {
    page.sample("ttt_games",
                "state=\"" + escaped(key.first) + "\",size=\"" + std::to_string(key.second) + "\"",
                count);
  }
  page.family("ttt_moves_total", "counter", "Moves accepted by the game rooms.");
  page.sample("ttt_moves_total", "", moves.value());
  page.histogram("ttt_move_reply_seconds",
                 "From a move read off the connection to its GameState queued for the mover.",
                 move_reply_seconds);

  page.labeled("ttt_frames_refused_total", "counter", "Frames refused, by reason.", frames_refused);
  page.labeled("ttt_limit_hits_total", "counter", "Requests and connections refused by a limit.",
               limit_hits);
  page.family("ttt_errors_sent_total", "counter", "Error messages sent, by code.");
  for (std::size_t code = 1; code < errors_.size(); ++code) {
    const std::uint64_t count = errors_[code].value();
    if (count == 0 || !wire::ErrorCode_IsValid(static_cast<int>(code))) continue;
    page.sample("ttt_errors_sent_total",
                "code=\"" + wire::ErrorCode_Name(static_cast<wire::ErrorCode>(code)) + "\"", count);
  }

  page.family("ttt_store_enabled", "gauge", "1 if games are kept in a database.");
  page.sample("ttt_store_enabled", "", std::uint64_t{s.store ? 1u : 0u});
  page.histogram("ttt_store_commit_seconds", "One batch of writes committed and synced.",
                 store_commit_seconds);
  page.family("ttt_store_queue_depth", "gauge", "Writes waiting for the database thread.");
  page.sample("ttt_store_queue_depth", "", s.store_queue);
  page.family("ttt_store_failures_total", "counter", "Batches the database refused.");
  page.sample("ttt_store_failures_total", "", s.store_failures);

  page.family("ttt_store_waiting", "gauge",
              "1 while the database can't be reached and writes wait for it.");
  page.sample("ttt_store_waiting", "", std::uint64_t{s.store_waiting ? 1u : 0u});

  if (s.cluster) {
    page.family("ttt_cluster_nodes", "gauge", "Live nodes of the lobby, this one included.");
    page.sample("ttt_cluster_nodes", "", s.nodes_alive);
    page.family("ttt_cluster_reachable", "gauge", "1 while the nodes' Redis answers.");
    page.sample("ttt_cluster_reachable", "", std::uint64_t{s.cluster_reachable ? 1u : 0u});
    page.family("ttt_cluster_draining", "gauge", "1 while this node drains.");
    page.sample("ttt_cluster_draining", "", std::uint64_t{s.draining ? 1u : 0u});
    page.family("ttt_cluster_redirects_total", "counter",
                "Connections this node sent to another node.");
    page.sample("ttt_cluster_redirects_total", "", s.redirects);
    page.family("ttt_cluster_games_adopted_total", "counter",
                "Games this node took over from a dead or drained node.");
    page.sample("ttt_cluster_games_adopted_total", "", s.games_adopted);
    page.family("ttt_cluster_games_lost_total", "counter",
                "Games this node dropped because another node held them (it looked dead).");
    page.sample("ttt_cluster_games_lost_total", "", s.games_lost);
  }

  page.family("ttt_bot_searches", "gauge", "The server's bot searches, by state.");
  page.sample("ttt_bot_searches", "state=\"running\"", s.bot_searches_running);
  page.sample("ttt_bot_searches", "state=\"waiting\"", s.bot_searches_waiting);
  return page.take();
}

}  // namespace ttt::server::metrics
