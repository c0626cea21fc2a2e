// The web client: sign in, the lobby (games, players, leaderboard, my
// games, me), a game (board, clocks, chat, offers), replays, watch links
// (/game/ID) and challenges, over one Link to the server. Every text from
// the server goes into the page through textContent, never as markup.

import { Board, lineCells } from "./board.js";
import { forgetIdentity, loadIdentity, newSecret, saveIdentity, secretOf, validSecret } from "./identity.js";
import { Link } from "./link.js";
import { loadSchema } from "./wire.js";
import {
  boardName, cellName, clockName, clockText, isOver, parseCell, resultText, seconds, sideLetter,
} from "./words.js";

const $ = (id) => document.getElementById(id);

const BOT_LEVELS = {
  random: "BOT_LEVEL_RANDOM", easy: "BOT_LEVEL_EASY", medium: "BOT_LEVEL_MEDIUM",
  hard: "BOT_LEVEL_HARD", perfect: "BOT_LEVEL_PERFECT",
};
const PAGE_SIZE = 20;

const app = {
  identity: null,
  link: null,
  me: null, // the Welcome
  game: null, // {id, side, state, at, invite, announcedRound, spectator, watchedPlayers}
  gamesPages: [0],
  gamesNext: 0,
  playersPages: [""],
  playersNext: "",
  pending: new Map(), // request id -> what it was for
  challenge: null, // the ChallengeOffer shown
  challengeTarget: "",
  profileName: "",
  replay: null, // {record, ply}
  startup: null, // what the address asked for: {watch, code, bot}
  lastTurnSaid: "",
  tick: null,
};

// --- small helpers ----------------------------------------------------------

function show(section) {
  for (const id of ["signin", "lobby", "game", "replay"]) $(id).hidden = id !== section;
}

function note(text) {
  const li = document.createElement("li");
  li.textContent = text;
  const list = $("notes");
  list.append(li);
  while (list.children.length > 100) list.firstChild.remove();
  li.scrollIntoView({ block: "nearest" });
}

function announce(text) {
  const region = $("announce");
  region.textContent = "";
  // A fresh node each time, so the same words are read again.
  setTimeout(() => { region.textContent = text; }, 30);
}

function cell(row, text) {
  const td = document.createElement("td");
  if (text instanceof Node) td.append(text);
  else td.textContent = text;
  row.append(td);
  return td;
}

function button(text, onClick, className = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (className) b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

function nameButton(name) {
  return button(name, () => askProfile(name), "link");
}

function send(body, purpose = "") {
  const id = app.link ? app.link.send(body) : 0;
  if (!id) {
    note("Not connected: the request waits for nothing; try again when the connection is back.");
    return 0;
  }
  if (purpose) app.pending.set(id, purpose);
  return id;
}

function fillSizes(select, winSelect, size = 3) {
  select.textContent = "";
  for (let n = 3; n <= 19; n++) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = `${n}x${n}`;
    if (n === size) o.selected = true;
    select.append(o);
  }
  const fillWin = () => {
    const n = Number(select.value);
    const keep = Number(winSelect.value);
    winSelect.textContent = "";
    for (let k = 3; k <= n; k++) {
      const o = document.createElement("option");
      o.value = String(k === n ? 0 : k);
      o.textContent = k === n ? `${k} (whole line)` : String(k);
      if ((keep && k === keep) || (!keep && k === n)) o.selected = true;
      winSelect.append(o);
    }
  };
  select.addEventListener("change", fillWin);
  fillWin();
}

function watchLink(id, code = "") {
  return `${location.origin}/game/${id}${code ? `?code=${encodeURIComponent(code)}` : ""}`;
}

// --- signing in -----------------------------------------------------------------

function signIn(identity) {
  app.identity = identity;
  saveIdentity(identity);
  if (app.link) app.link.shutdown();
  app.link = new Link(identity, {
    onMessage: onMessage,
    onWelcome: onWelcome,
    onNote: note,
    onLost: onLost,
    onStatus: (connected) => {
      $("link-state").textContent = connected ? "" : "connecting...";
      saveIdentity(app.identity);
    },
  });
  $("link-state").textContent = "connecting...";
  app.link.start();
}

function askName(prefill = "") {
  show("signin");
  $("signin-name").value = prefill;
  $("signin-name").focus();
}

$("signin-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("signin-name").value.trim();
  const secret = $("signin-secret").value.trim();
  $("signin-error").textContent = "";
  if (!name) return;
  if (secret && !validSecret(secret)) {
    $("signin-error").textContent = "That is not a secret: 32 to 128 letters, digits, - or _.";
    return;
  }
  signIn({ name, secret: secret || secretOf(name) || newSecret(), token: "" });
});

function onLost(text, code) {
  $("link-state").textContent = "disconnected";
  if (code === "ERROR_CODE_NAME_TAKEN") {
    forgetIdentity();
    app.identity = null;
    askName();
    $("signin-error").textContent = `${text} Choose another name, or give its secret.`;
    return;
  }
  if (code === "ERROR_CODE_SESSION_ACTIVE") {
    note(`${text} (This name is playing in another window or program; close it, or use another name.)`);
    return;
  }
  if (code === "ERROR_CODE_REPLACED") {
    note("This session was taken over by another window or program; this one stops.");
    return;
  }
  note(`ttt: ${text}`);
  const retry = button("Reconnect", () => {
    retry.remove();
    app.link.retryNow();
  });
  $("notes").lastChild.append(" ", retry);
}

function onWelcome(welcome, info) {
  const firstTime = !app.me;
  const wasInGame = app.game && !app.game.spectator && app.game.state &&
    app.game.state.status === "GAME_STATUS_IN_PROGRESS";
  app.me = welcome;
  app.identity.name = welcome.name;
  if (welcome.secret) app.identity.secret = welcome.secret; // an older server made it
  saveIdentity(app.identity);
  const who = $("who");
  who.hidden = false;
  who.textContent = `${welcome.name} (rating ${Math.round(welcome.rating)})`;
  updateMe();
  if (info.reconnected && !firstTime) {
    if (welcome.game_id) note(`Reconnected as ${welcome.name}: back in game ${welcome.game_id}.`);
    else if (wasInGame) note("The server no longer holds your game: you are in the lobby.");
    else note(`Reconnected to ${location.host} as ${welcome.name} (rating ${Math.round(welcome.rating)}).`);
  } else if (welcome.resumed && welcome.game_id) {
    note(`Reconnected as ${welcome.name}: back in game ${welcome.game_id}.`);
  } else {
    note(`Signed in to ${location.host} as ${welcome.name} (rating ${Math.round(welcome.rating)}).`);
  }
  for (const r of welcome.decided_while_away || []) {
    const you = r.side === "SIDE_X" ? "GAME_STATUS_X_WON" : "GAME_STATUS_O_WON";
    const outcome = r.status === "GAME_STATUS_DRAW" ? "A draw" : r.status === you ? "You won" : "You lost";
    const rating = r.rated ? `; your rating ${Math.round(r.rating_before)} -> ${Math.round(r.rating_after)} (${signed(r.rating_after - r.rating_before)})` : "";
    note(`While you were away, game ${r.game_id} against ${r.opponent} ended: ${resultText(r.status, r.end_reason, null, 0)}. ${outcome}${rating}.`);
  }
  if (!welcome.game_id) {
    if (app.game && !app.game.spectator) leaveGameView();
    startFromAddress();
  }
  if (!app.game && !app.startup) {
    show("lobby");
    refreshLobby();
  }
}

// What the address asked for, once signed in: a watch link or a bot game.
function startFromAddress() {
  const s = app.startup;
  if (!s) return;
  app.startup = null;
  if (s.watch) {
    app.watching = s.watch;
    send({ spectate: { game_id: s.watch, invite_code: s.code } }, "watch");
  } else if (s.bot) {
    send({ create_game: { size: s.size, win_length: s.win, vs_bot: true, bot_level: s.bot, rated: "RATED_DEFAULT" } }, "bot");
  }
}

function signed(x) {
  const r = Math.round(x);
  return r >= 0 ? `+${r}` : String(r);
}

// --- the lobby ------------------------------------------------------------------

let tab = "games";
for (const b of document.querySelectorAll(".tabs button")) {
  b.addEventListener("click", () => selectTab(b.dataset.tab));
}

function selectTab(name) {
  tab = name;
  for (const b of document.querySelectorAll(".tabs button")) {
    b.setAttribute("aria-pressed", String(b.dataset.tab === name));
  }
  for (const p of document.querySelectorAll("[data-panel]")) p.hidden = p.dataset.panel !== name;
  refreshLobby();
}

function refreshLobby() {
  if (!app.link || !app.link.connected) return;
  if (tab === "games") listGames();
  else if (tab === "players") listPlayers();
  else if (tab === "leaderboard") send({ get_leaderboard: { limit: 50 } });
  else if (tab === "history") send({ get_history: { name: "", limit: 30 } });
  else if (tab === "me") send({ get_profile: { name: "" } }, "me");
}

function listGames() {
  const after = app.gamesPages[app.gamesPages.length - 1];
  send({ list_games: { open_only: $("games-open").checked, page_size: PAGE_SIZE, after } });
}

function listPlayers() {
  const after = app.playersPages[app.playersPages.length - 1];
  send({ list_players: { page_size: PAGE_SIZE, after } });
}

$("games-refresh").addEventListener("click", () => { app.gamesPages = [0]; listGames(); });
$("games-open").addEventListener("change", () => { app.gamesPages = [0]; listGames(); });
$("games-next").addEventListener("click", () => {
  if (!app.gamesNext) return;
  app.gamesPages.push(app.gamesNext);
  listGames();
});
$("games-prev").addEventListener("click", () => {
  if (app.gamesPages.length > 1) app.gamesPages.pop();
  listGames();
});
$("players-refresh").addEventListener("click", () => { app.playersPages = [""]; listPlayers(); });
$("players-next").addEventListener("click", () => {
  if (!app.playersNext) return;
  app.playersPages.push(app.playersNext);
  listPlayers();
});
$("players-prev").addEventListener("click", () => {
  if (app.playersPages.length > 1) app.playersPages.pop();
  listPlayers();
});
$("refuse-challenges").addEventListener("change", (e) => {
  send({ challenge_settings: { refuse_all: e.target.checked } });
});

function showGameList(list) {
  const body = $("games-table").tBodies[0];
  body.textContent = "";
  for (const g of list.games) {
    const tr = document.createElement("tr");
    cell(tr, String(g.game_id));
    const clock = clockName(g.clock);
    cell(tr, boardName(g.size, g.win_length) + (clock ? `, ${clock}` : "") + (g.rated ? ", rated" : ""));
    cell(tr, g.x_name || "-");
    cell(tr, g.o_name || "-");
    cell(tr, g.status === "GAME_STATUS_WAITING" ? "open" : resultText(g.status, "", null, g.size) +
      (g.spectators ? ` (${g.spectators} watching)` : ""));
    const actions = cell(tr, "");
    if (g.status === "GAME_STATUS_WAITING") {
      actions.append(button("Join", () => send({ join_game: { game_id: g.game_id } }, "join")));
    }
    actions.append(" ", button("Watch", () => { app.watching = g.game_id; send({ spectate: { game_id: g.game_id } }, "watch"); }));
    const a = document.createElement("a");
    a.href = watchLink(g.game_id);
    a.textContent = "link";
    actions.append(" ", a);
    body.append(tr);
  }
  if (!list.games.length) {
    const tr = document.createElement("tr");
    cell(tr, "No games yet: start one above.").colSpan = 6;
    body.append(tr);
  }
  app.gamesNext = list.next_after;
  const first = (app.gamesPages.length - 1) * (list.page_size || PAGE_SIZE);
  $("games-page").textContent = list.total
    ? `Games ${first + 1}-${first + list.games.length} of ${list.total}` : "";
  $("games-next").disabled = !list.next_after;
  $("games-prev").disabled = app.gamesPages.length <= 1;
}

const ACTIVITY = {
  ACTIVITY_IDLE: "in the lobby", ACTIVITY_QUEUED: "waiting for a quick match",
  ACTIVITY_WAITING: "waiting for an opponent", ACTIVITY_PLAYING: "playing",
  ACTIVITY_WATCHING: "watching",
};

function showPlayers(list) {
  const body = $("players-table").tBodies[0];
  body.textContent = "";
  for (const p of list.players) {
    const tr = document.createElement("tr");
    cell(tr, nameButton(p.name));
    cell(tr, String(Math.round(p.rating)));
    let doing = ACTIVITY[p.activity] || "";
    if (p.opponent) doing += p.activity === "ACTIVITY_PLAYING" ? ` against ${p.opponent}` : ` ${p.opponent}`;
    if (p.away) doing += " (away)";
    if (p.is_bot) doing += " [bot]";
    cell(tr, doing);
    const actions = cell(tr, "");
    if (app.me && p.name !== app.me.name) {
      actions.append(button("Challenge", () => openChallengeForm(p.name)));
    }
    if (p.game_id && p.activity === "ACTIVITY_PLAYING") {
      actions.append(" ", button("Watch", () => { app.watching = p.game_id; send({ spectate: { game_id: p.game_id } }, "watch"); }));
    }
    body.append(tr);
  }
  app.playersNext = list.next_after;
  $("players-page").textContent = list.total ? `${list.total} online` : "";
  $("players-next").disabled = !list.next_after;
  $("players-prev").disabled = app.playersPages.length <= 1;
}

function showLeaderboard(board) {
  const body = $("leaderboard-table").tBodies[0];
  body.textContent = "";
  board.entries.forEach((e, i) => {
    const tr = document.createElement("tr");
    cell(tr, String(i + 1));
    cell(tr, nameButton(e.name));
    cell(tr, String(Math.round(e.rating)) + (e.provisional ? "?" : ""));
    cell(tr, String(e.games));
    cell(tr, `${e.wins}/${e.losses}/${e.draws}`);
    body.append(tr);
  });
}

function showHistory(history) {
  const list = $("history-list");
  list.textContent = "";
  if (!history.games.length) {
    const li = document.createElement("li");
    li.textContent = `${history.name || "You"}: no finished games yet.`;
    list.append(li);
  }
  for (const g of history.games) {
    const li = document.createElement("li");
    const when = g.ended_ms ? new Date(Number(g.ended_ms)).toLocaleString() : "";
    li.textContent = `Game ${g.game_id}${g.round > 1 ? ` round ${g.round}` : ""}: ${g.x_name} (X) vs ${g.o_name} (O), ${boardName(g.size, g.win_length)}, ${resultText(g.status, g.end_reason, g.winning_line, g.size)}, ${g.move_count} moves ${when ? `(${when}) ` : ""}`;
    li.append(button("Replay", () => send({ get_replay: { record_id: g.record_id } })));
    list.append(li);
  }
  if (tab !== "history") selectTab("history");
}

function askProfile(name) {
  app.profileName = name;
  send({ get_profile: { name } }, "profile");
}

function profileWords(p) {
  if (!p.games) return `${p.name}: rating ${Math.round(p.rating)}, no games yet (unranked).`;
  const rank = p.rank ? `, rank ${p.rank} of ${p.ranked}` : "";
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : word === "loss" ? "es" : "s"}`;
  return `${p.name}: rating ${Math.round(p.rating)}${rank}; ${plural(p.games, "game")}: ${plural(p.wins, "win")}, ${plural(p.losses, "loss")}, ${plural(p.draws, "draw")}.`;
}

$("profile-close").addEventListener("click", () => $("profile").close());
$("profile-history").addEventListener("click", () => {
  $("profile").close();
  send({ get_history: { name: app.profileName, limit: 30 } });
});

function updateMe() {
  if (!app.identity) return;
  const { name, secret } = app.identity;
  $("secret-text").textContent = secret;
  const file = `${location.hostname}-${location.port || (location.protocol === "https:" ? "443" : "80")}-${name}`.replace(/[^A-Za-z0-9._-]/g, "_");
  const a = $("download-secret");
  a.download = file;
  a.href = URL.createObjectURL(new Blob([secret + "\n"], { type: "text/plain" }));
  $("client-command").textContent =
    `ttt-client --host ${location.hostname} --port ${location.port || (location.protocol === "https:" ? 443 : 80)} ` +
    `--name '${name.replace(/'/g, "'\\''")}' --secret-file ${file}`;
}

$("show-secret").addEventListener("click", (e) => {
  const pre = $("secret-text");
  pre.hidden = !pre.hidden;
  e.target.setAttribute("aria-expanded", String(!pre.hidden));
  e.target.textContent = pre.hidden ? "Show the secret" : "Hide the secret";
});
$("sign-out").addEventListener("click", () => {
  if (app.link) app.link.shutdown();
  forgetIdentity();
  app.identity = null;
  app.me = null;
  $("who").hidden = true;
  askName();
});

// New games.
fillSizes($("ng-size"), $("ng-win"));
function newGameSettings() {
  const size = Number($("ng-size").value);
  const win = Number($("ng-win").value);
  const clock = $("ng-clock").value;
  const settings = { size, win_length: win, rated: $("ng-rated").checked ? "RATED_DEFAULT" : "RATED_NO" };
  if (clock) {
    const [initial, increment] = clock.split(",").map(Number);
    settings.clock = { initial_ms: initial, increment_ms: increment };
  }
  return settings;
}
$("quick-match").addEventListener("click", () => send({ quick_match: newGameSettings() }, "quick"));
$("create-open").addEventListener("click", () => send({ create_game: newGameSettings() }, "create"));
$("create-private").addEventListener("click", () => send({ create_game: { ...newGameSettings(), is_private: true } }, "create"));
$("create-bot").addEventListener("click", () => {
  const s = newGameSettings();
  send({ create_game: { ...s, vs_bot: true, bot_level: $("ng-bot").value, rated: "RATED_DEFAULT" } }, "bot");
});
$("join-code").addEventListener("submit", (e) => {
  e.preventDefault();
  const code = $("join-code-input").value.trim();
  if (code) send({ join_game: { game_id: 0, invite_code: code } }, "join");
});

// Challenges.
fillSizes($("cf-size"), $("cf-win"));
function openChallengeForm(name) {
  app.challengeTarget = name;
  $("challenge-form-title").textContent = `Challenge ${name}`;
  $("challenge-form").showModal();
}
$("challenge-form").addEventListener("close", () => {
  if ($("challenge-form").returnValue !== "send") return;
  send({ challenge: {
    name: app.challengeTarget, size: Number($("cf-size").value), win_length: Number($("cf-win").value),
    rated: $("cf-rated").checked ? "RATED_DEFAULT" : "RATED_NO",
  } }, "challenge");
});
function showChallengeOffer(offer) {
  app.challenge = offer;
  const s = offer.settings || {};
  const clock = clockName(s.clock);
  $("challenge-offer-text").textContent =
    `${offer.from} (rating ${Math.round(offer.from_rating)})${offer.from_bot ? " [bot]" : ""} challenges you to ${boardName(s.size || 3, s.win_length)}${clock ? `, ${clock}` : ""}${s.rated === "RATED_NO" ? ", unrated" : ""}. It stands ${seconds(offer.expires_in_ms)} s.`;
  const d = $("challenge-offer");
  if (!d.open) d.showModal();
  announce(`${offer.from} challenges you.`);
}
$("challenge-accept").addEventListener("click", () => {
  $("challenge-offer").close();
  if (app.challenge) send({ answer_challenge: { challenge_id: app.challenge.challenge_id, accept: true } }, "accept");
  app.challenge = null;
});
$("challenge-decline").addEventListener("click", () => {
  $("challenge-offer").close();
  if (app.challenge) send({ answer_challenge: { challenge_id: app.challenge.challenge_id, accept: false } });
  app.challenge = null;
});

// --- a game ---------------------------------------------------------------------

const board = new Board($("board"), (row, col) => play(row, col));

function play(row, col) {
  const g = app.game;
  if (!g || g.spectator || !g.state) return;
  const s = g.state;
  if (s.status !== "GAME_STATUS_IN_PROGRESS") {
    setStatus(s.status === "GAME_STATUS_WAITING" ? "The game has not started: waiting for an opponent." : "The game is over.");
    return;
  }
  if (s.to_move !== g.side) {
    setStatus("It is not your turn");
    return;
  }
  if (s.cells[row * s.size + col] !== "E") {
    setStatus(`That cell is already taken (${cellName(row, col)}): choose another cell`);
    return;
  }
  g.pendingMove = { row, col };
  send({ make_move: { game_id: g.id, row, col } }, "move");
}

$("move-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const g = app.game;
  const input = $("move-input");
  if (!g || !g.state) return;
  const c = parseCell(input.value, g.state.size);
  if (!c) {
    setStatus(`Not a move: type a cell such as b2 (columns a-${String.fromCharCode(96 + g.state.size)}, rows 1-${g.state.size}).`);
    return;
  }
  input.value = "";
  play(c.row, c.col);
});

function setStatus(text) {
  $("game-status").textContent = text;
}

function enterGame(joined) {
  const s = joined.state;
  const spectator = joined.side === "SIDE_SPECTATOR";
  const same = app.game && app.game.id === s.game_id;
  app.game = {
    id: s.game_id,
    side: joined.side,
    spectator,
    state: null,
    at: 0,
    invite: joined.invite_code || (same ? app.game.invite : ""),
    announcedRound: same ? app.game.announcedRound : (isOver(s.status) ? s.round : 0),
    chat: same ? app.game.chat : [],
  };
  if (!same) $("chat-log").textContent = "";
  app.lastTurnSaid = "";
  show("game");
  if (!spectator) note(same || app.link.usedToken ? `Back in game ${s.game_id} as ${sideLetter(joined.side)}.` : `You play ${sideLetter(joined.side)} in game ${s.game_id}.`);
  else note(`Watching game ${s.game_id}.`);
  if (spectator && location.pathname !== `/game/${s.game_id}`) {
    history.replaceState(null, "", `/game/${s.game_id}`);
  } else if (!spectator && location.pathname !== "/") {
    history.replaceState(null, "", "/");
  }
  updateState(s);
  app.link.seated = !spectator && s.status === "GAME_STATUS_IN_PROGRESS";
}

function leaveGameView(text = "") {
  app.game = null;
  if (app.link) app.link.seated = false;
  if (text) note(text);
  if (app.replay && !$("replay").hidden) return; // a replay being watched stays
  if (location.pathname !== "/") history.replaceState(null, "", "/");
  show("lobby");
  refreshLobby();
}

function playerName(info) {
  return info && info.name ? info.name : "";
}

function updateState(s) {
  const g = app.game;
  if (!g || s.game_id !== g.id) return;
  const previous = g.state;
  g.state = s;
  g.at = performance.now();
  if (app.link) app.link.seated = !g.spectator && s.status === "GAME_STATUS_IN_PROGRESS";
  const xName = playerName(s.x);
  const oName = playerName(s.o);
  $("game-title").textContent =
    `Game ${s.game_id}${s.round > 1 ? ` (round ${s.round})` : ""}: ${boardName(s.size, s.win_length)}${s.rated ? ", rated" : ""}${s.is_private ? ", private" : ""}`;
  for (const [id, info, side] of [["player-x", s.x, "SIDE_X"], ["player-o", s.o, "SIDE_O"]]) {
    const el = $(id);
    const name = el.querySelector(".name");
    name.textContent = playerName(info) || "(free seat)";
    name.disabled = !playerName(info);
    el.querySelector(".rating").textContent = info && info.name ? `(${Math.round(info.rating)})` : "";
    el.querySelector(".away").textContent = info && info.name && !info.connected && !info.is_bot
      ? `away, ${seconds(info.away_ms_left)} s left` : "";
    el.classList.toggle("to-move", s.status === "GAME_STATUS_IN_PROGRESS" && s.to_move === side);
    if (g.side === side) el.querySelector(".mark").textContent = `${sideLetter(side)} (you)`;
    else el.querySelector(".mark").textContent = sideLetter(side);
  }
  const over = isOver(s.status);
  const mine = !g.spectator && s.status === "GAME_STATUS_IN_PROGRESS" && s.to_move === g.side;
  const winning = s.end_reason === "END_REASON_LINE" ? lineCells(s.winning_line, s.size, s.win_length) : [];
  const last = s.move_count > 0 ? s.last_move : null;
  board.show(s.size, s.cells, {
    last, winning, playable: mine,
    label: `Board ${boardName(s.size, s.win_length)}${mine ? ", your move" : ""}`,
  });
  // The side to move and the result, said once each.
  let status;
  if (s.status === "GAME_STATUS_WAITING") {
    status = g.invite ? `Waiting for an opponent. Invite code: ${g.invite}` : "Waiting for an opponent.";
  } else if (s.status === "GAME_STATUS_IN_PROGRESS") {
    const moverName = s.to_move === "SIDE_X" ? xName : oName;
    status = mine ? `Your move (${sideLetter(g.side)}).` : `${moverName} (${sideLetter(s.to_move)}) to move.`;
    if (last && s.move_count > 0 && previous && previous.move_count !== s.move_count) {
      const mover = s.to_move === "SIDE_X" ? "O" : "X";
      status = `${mover} played ${cellName(last.row, last.col)}. ${status}`;
    }
  } else {
    status = `Game over: ${resultText(s.status, s.end_reason, s.winning_line, s.size)}.`;
  }
  if (s.draw_offered_by && s.draw_offered_by !== "SIDE_NONE" && !over) {
    const by = s.draw_offered_by === "SIDE_X" ? xName : oName;
    status += s.draw_offered_by === g.side ? " You offered a draw." : ` ${by} (${sideLetter(s.draw_offered_by)}) offers a draw: Offer draw to accept, Decline to refuse.`;
  }
  if (s.rematch_requested_by && s.rematch_requested_by !== "SIDE_NONE" && over) {
    const by = s.rematch_requested_by === "SIDE_X" ? xName : oName;
    status += s.rematch_requested_by === g.side ? " You asked for a rematch." : ` ${by} (${sideLetter(s.rematch_requested_by)}) asks for a rematch: Rematch to accept, Decline to refuse.`;
  }
  setStatus(status);
  const turnKey = `${s.round}:${s.move_count}:${s.status}`;
  if (turnKey !== app.lastTurnSaid && s.status === "GAME_STATUS_IN_PROGRESS") {
    app.lastTurnSaid = turnKey;
    announce(status);
  }
  if (over && g.announcedRound !== s.round) {
    g.announcedRound = s.round;
    gameOver(s);
  }
  // Actions that make sense now.
  const playing = !g.spectator && s.status === "GAME_STATUS_IN_PROGRESS";
  $("offer-draw").hidden = !playing;
  $("resign").hidden = !playing;
  $("rematch").hidden = g.spectator || !over;
  $("decline").hidden = g.spectator ||
    !((s.draw_offered_by !== "SIDE_NONE" && s.draw_offered_by !== g.side && !over) ||
      (s.rematch_requested_by !== "SIDE_NONE" && s.rematch_requested_by !== g.side && over));
  $("move-form").hidden = g.spectator;
  $("leave").textContent = g.spectator ? "Stop watching" : "Leave";
  const share = $("game-share");
  share.textContent = "";
  if (!s.is_private || g.invite) {
    share.append(g.spectator ? "Watch link: " : "Watch link for friends: ");
    const a = document.createElement("a");
    a.href = watchLink(s.game_id, s.is_private ? g.invite : "");
    a.textContent = a.href;
    share.append(a);
    if (s.is_private && g.invite) share.append(` (invite code ${g.invite})`);
  }
  $("spectators").textContent = s.spectators ? `${s.spectators} watching` : "";
  tickClocks();
  if (over && g.spectator && !g.replayAsked) {
    // A spectator sees the finished game as a replay once it is stored.
    g.replayAsked = true;
    g.replayFor = { game_id: s.game_id, round: s.round };
    send({ get_history: { name: xName, limit: 20 } }, "find-replay");
  }
}

function gameOver(s) {
  const g = app.game;
  const lines = [`Game over: ${resultText(s.status, s.end_reason, s.winning_line, s.size)}.`];
  if (!g.spectator) {
    const won = (s.status === "GAME_STATUS_X_WON" && g.side === "SIDE_X") || (s.status === "GAME_STATUS_O_WON" && g.side === "SIDE_O");
    lines.push(s.status === "GAME_STATUS_DRAW" ? "A draw." : won ? "You won." : "You lost.");
    const mine = g.side === "SIDE_X" ? s.x : s.o;
    if (s.rated && mine && mine.rating_before) {
      lines.push(`Your rating: ${Math.round(mine.rating_before)} -> ${Math.round(mine.rating)} (${signed(mine.rating - mine.rating_before)}).`);
    }
  } else if (s.rated && s.x && s.o && s.x.rating_before) {
    lines.push(`Ratings: ${s.x.name} ${Math.round(s.x.rating_before)} -> ${Math.round(s.x.rating)} (${signed(s.x.rating - s.x.rating_before)}), ${s.o.name} ${Math.round(s.o.rating_before)} -> ${Math.round(s.o.rating)} (${signed(s.o.rating - s.o.rating_before)}).`);
  }
  lines.push(`Watch link: ${watchLink(s.game_id, s.is_private ? g.invite : "")}`);
  for (const l of lines) note(l);
  announce(lines.slice(0, 2).join(" "));
}

// The clocks count down between states: the mover's from the time of sending.
function tickClocks() {
  const g = app.game;
  if (!g || !g.state) return;
  const s = g.state;
  const elapsed = s.status === "GAME_STATUS_IN_PROGRESS" ? performance.now() - g.at : 0;
  const fischer = s.clock && s.clock.initial_ms;
  for (const [id, side, ms] of [["player-x", "SIDE_X", s.x_clock_ms], ["player-o", "SIDE_O", s.o_clock_ms]]) {
    const el = $(id).querySelector(".clock");
    if (!fischer) {
      el.textContent = "";
      continue;
    }
    const left = s.to_move === side && s.status === "GAME_STATUS_IN_PROGRESS" ? ms - elapsed : ms;
    el.textContent = clockText(left);
    el.classList.toggle("low", left < 10000);
  }
  const moveClock = $("move-clock");
  if (!fischer && s.move_time_left_ms && s.status === "GAME_STATUS_IN_PROGRESS") {
    const left = s.move_time_left_ms - elapsed;
    moveClock.textContent = `Move clock: ${clockText(left)} for ${sideLetter(s.to_move)}`;
  } else {
    moveClock.textContent = "";
  }
}
app.tick = setInterval(tickClocks, 100);

$("offer-draw").addEventListener("click", () => send({ offer_draw: {} }));
$("resign").addEventListener("click", () => {
  if (confirm("Resign this game?")) send({ resign: {} });
});
$("rematch").addEventListener("click", () => send({ rematch: {} }));
$("decline").addEventListener("click", () => send({ decline: {} }));
$("leave").addEventListener("click", () => {
  const g = app.game;
  if (g && !g.spectator && g.state && g.state.status === "GAME_STATUS_IN_PROGRESS" &&
      !confirm(`Leave game ${g.id}? You lose it (resign).`)) return;
  send({ leave: {} }, "leave");
});
$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  input.value = "";
  send({ chat: { text } });
});
for (const id of ["player-x", "player-o"]) {
  $(id).querySelector(".name").addEventListener("click", (e) => {
    if (e.target.textContent && !e.target.disabled) askProfile(e.target.textContent);
  });
}

function addChat(m) {
  const li = document.createElement("li");
  const from = document.createElement("span");
  from.className = "from";
  const side = sideLetter(m.from_side);
  from.textContent = side ? `${m.from} (${side}):` : `${m.from}:`;
  li.append(from, document.createTextNode(m.text));
  $("chat-log").append(li);
  li.scrollIntoView({ block: "nearest" });
}

// --- replays --------------------------------------------------------------------

const replayBoard = new Board($("replay-board"), () => {});

function showReplay(record) {
  app.replay = { record, ply: record.moves.length };
  show("replay");
  $("replay-title").textContent =
    `Replay of game ${record.game_id}${record.round > 1 ? ` round ${record.round}` : ""}: ${record.x_name} (X) vs ${record.o_name} (O), ${boardName(record.size, record.win_length)}`;
  const list = $("replay-moves");
  list.textContent = "";
  record.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.append(button(`${i % 2 === 0 ? "X" : "O"} ${cellName(m.row, m.col)}`, () => replayTo(i + 1), "link"));
    list.append(li);
  });
  replayTo(record.moves.length);
}

function replayTo(ply) {
  const r = app.replay;
  if (!r) return;
  const rec = r.record;
  r.ply = Math.max(0, Math.min(ply, rec.moves.length));
  const cells = Array(rec.size * rec.size).fill("E");
  rec.moves.slice(0, r.ply).forEach((m, i) => { cells[m.row * rec.size + m.col] = i % 2 === 0 ? "X" : "O"; });
  const end = r.ply === rec.moves.length;
  const last = r.ply > 0 ? rec.moves[r.ply - 1] : null;
  replayBoard.show(rec.size, cells.join(""), {
    last, winning: end && rec.end_reason === "END_REASON_LINE" ? lineCells(rec.winning_line, rec.size, rec.win_length) : [],
    label: `Replay board, move ${r.ply} of ${rec.moves.length}`,
  });
  $("replay-status").textContent = end
    ? `Move ${r.ply} of ${rec.moves.length}. Game over: ${resultText(rec.status, rec.end_reason, rec.winning_line, rec.size)}.`
    : `Move ${r.ply} of ${rec.moves.length}${last ? `: ${r.ply % 2 === 1 ? "X" : "O"} ${cellName(last.row, last.col)}` : ""}.`;
  [...$("replay-moves").children].forEach((li, i) => li.classList.toggle("current", i + 1 === r.ply));
}
$("replay-start").addEventListener("click", () => replayTo(0));
$("replay-prev").addEventListener("click", () => replayTo(app.replay.ply - 1));
$("replay-next").addEventListener("click", () => replayTo(app.replay.ply + 1));
$("replay-end").addEventListener("click", () => replayTo(Infinity));
$("replay-close").addEventListener("click", () => {
  app.replay = null;
  if (app.game) show("game");
  else leaveGameView();
});
document.addEventListener("keydown", (e) => {
  // In a replay, the arrow keys step through the moves.
  if ($("replay").hidden || e.target.closest("input, select, textarea")) return;
  if (e.key === "ArrowLeft" && !e.target.closest(".board")) replayTo(app.replay.ply - 1);
  if (e.key === "ArrowRight" && !e.target.closest(".board")) replayTo(app.replay.ply + 1);
});

// --- messages from the server ---------------------------------------------------

function onMessage(m) {
  const purpose = m.in_reply_to ? app.pending.get(m.in_reply_to) : undefined;
  if (m.in_reply_to) app.pending.delete(m.in_reply_to);
  switch (m.body) {
    case "error":
      onError(m.error, purpose);
      break;
    case "game_list":
      showGameList(m.game_list);
      break;
    case "joined":
      enterGame(m.joined);
      break;
    case "state":
      updateState(m.state);
      break;
    case "queued": {
      const q = m.queued;
      note(`Waiting for a quick match: ${boardName(q.size, q.win_length)}${clockName(q.clock) ? `, ${clockName(q.clock)}` : ""}${q.bot_fallback_s ? ` (a bot steps in after ${q.bot_fallback_s} s)` : ""}. Leave the queue with Leave in the game view, or start another game.`);
      break;
    }
    case "left":
      if (m.left.reason === "LEFT_REASON_PLAYERS_LEFT") {
        leaveGameView(`${m.left.players.join(" and ") || "The players"} left; back in the lobby.`);
      } else if (app.game && app.game.id === m.left.game_id) {
        leaveGameView(`You left game ${m.left.game_id}.`);
      }
      break;
    case "chat":
      addChat(m.chat);
      break;
    case "opponent":
      opponentStatus(m.opponent);
      break;
    case "goodbye":
      break;
    case "leaderboard":
      showLeaderboard(m.leaderboard);
      break;
    case "history":
      if (purpose === "find-replay") findReplay(m.history);
      else showHistory(m.history);
      break;
    case "replay":
      showReplay(m.replay.game);
      break;
    case "spectator_count":
      if (app.game && app.game.id === m.spectator_count.game_id) {
        $("spectators").textContent = m.spectator_count.spectators ? `${m.spectator_count.spectators} watching` : "";
      }
      break;
    case "offer_ended":
      offerEnded(m.offer_ended);
      break;
    case "profile":
      if (purpose === "me") {
        $("me-profile").textContent = profileWords(m.profile);
      } else {
        $("profile-title").textContent = m.profile.name;
        $("profile-text").textContent = profileWords(m.profile);
        $("profile").showModal();
      }
      break;
    case "player_list":
      showPlayers(m.player_list);
      break;
    case "challenge_offer":
      showChallengeOffer(m.challenge_offer);
      break;
    case "challenge_sent":
      note(`Challenge sent to ${m.challenge_sent.settings.name}: it stands ${seconds(m.challenge_sent.expires_in_ms)} s.`);
      break;
    case "challenge_ended": {
      const c = m.challenge_ended;
      const how = {
        CHALLENGE_END_DECLINED: `${c.challenged} declined`,
        CHALLENGE_END_EXPIRED: "it expired",
        CHALLENGE_END_WITHDRAWN: `${c.challenger} withdrew it`,
        CHALLENGE_END_UNAVAILABLE: `${c.challenged} is no longer available`,
      }[c.how] || "it ended";
      note(`The challenge from ${c.challenger} to ${c.challenged} ended: ${how}.`);
      if (app.challenge && app.challenge.challenge_id === c.challenge_id) {
        app.challenge = null;
        if ($("challenge-offer").open) $("challenge-offer").close();
      }
      break;
    }
    case "challenge_settings":
      $("refuse-challenges").checked = m.challenge_settings.refuse_all;
      break;
    case "block_list":
      note(`Blocked: ${m.block_list.names.join(", ") || "nobody"}.`);
      break;
    case "redirect":
      note(`This lobby continues at another node (${m.redirect.host}:${m.redirect.port}): open https://${m.redirect.host}:${m.redirect.port}/ there. ${m.redirect.reason}`);
      break;
    case "notice":
      note(m.notice.text);
      break;
    default:
      break;
  }
}

function onError(error, purpose) {
  const text = error.text || error.code;
  if (purpose === "watch" && (error.code === "ERROR_CODE_UNKNOWN_GAME")) {
    note(`Game ${app.watching} is not being played now: ${text}`);
    if (app.watching) send({ get_replay: { record_id: 0, game_id: app.watching } }, "watch-replay");
    show("lobby");
    refreshLobby();
    return;
  }
  if (purpose === "watch-replay") {
    note(`No record of game ${app.watching} on this server.`);
    return;
  }
  if (purpose === "find-replay") return;
  if (purpose === "move" && app.game) {
    setStatus(text);
    announce(text);
    return;
  }
  if (app.game && !$("game").hidden) setStatus(text);
  note(text);
  if (purpose === "watch" && !app.game) {
    show("lobby");
    refreshLobby();
  }
}

function opponentStatus(o) {
  const g = app.game;
  if (!g || !g.state) return;
  const s = g.state;
  const opponentSide = g.side === "SIDE_X" ? "SIDE_O" : "SIDE_X";
  const info = opponentSide === "SIDE_X" ? s.x : s.o;
  const who = `${playerName(info) || "The opponent"} (${sideLetter(opponentSide)})`;
  if (o.left) note(`${who} left the game.`);
  else if (o.connected) note(`${who} is back.`);
  else note(`${who} lost the connection; the seat is held ${seconds(o.grace_ms)} s (then the game is lost by disconnect).`);
}

function offerEnded(o) {
  const kind = o.kind === "OFFER_KIND_DRAW" ? "draw offer" : "rematch request";
  const g = app.game;
  const mine = g && o.by === g.side;
  const whose = mine ? `Your ${kind}` : `${o.by_name}'s ${kind}`;
  const how = {
    OFFER_END_DECLINED: mine ? "was declined" : "was declined",
    OFFER_END_MOVED: "lapsed: a move was played",
    OFFER_END_LEFT: `lapsed: ${o.by_name} left or lost the connection`,
    OFFER_END_OPPONENT_LEFT: "lapsed: the other player left or lost the connection",
  }[o.how] || "ended";
  note(`${whose} ${how}.`);
}

function findReplay(history) {
  const g = app.game;
  const want = g && g.replayFor;
  if (!want) return;
  const record = history.games.find((r) => r.game_id === want.game_id && r.round === want.round);
  if (record) {
    note(`Game ${want.game_id} is over: its replay follows (Lobby to leave).`);
    send({ get_replay: { record_id: record.record_id } });
  }
}

// --- start ----------------------------------------------------------------------

function readAddress() {
  const params = new URLSearchParams(location.search);
  const watch = /^\/game\/(\d{1,18})$/.exec(location.pathname);
  if (watch) return { watch: Number(watch[1]), code: params.get("code") || "" };
  const level = params.get("play-bot");
  if (level !== null) {
    const size = Math.min(19, Math.max(3, Number(params.get("size")) || 3));
    const win = Number(params.get("win")) || 0;
    return {
      bot: BOT_LEVELS[level.toLowerCase()] || "BOT_LEVEL_PERFECT",
      size,
      win: win >= 3 && win <= size ? win : 0,
      name: params.get("name") || "",
    };
  }
  return null;
}

async function main() {
  show(null);
  try {
    await loadSchema();
  } catch (e) {
    note(`The page could not load the protocol from the server: ${e.message}`);
    return;
  }
  app.startup = readAddress();
  let identity = loadIdentity();
  const askedName = app.startup && app.startup.name;
  if (askedName && (!identity || identity.name !== askedName)) {
    identity = { name: askedName, secret: secretOf(askedName) || newSecret(), token: "" };
  }
  if (!identity && app.startup && app.startup.watch) {
    // Watching needs a name too: a guest one, kept like any other.
    identity = { name: `watcher-${newSecret().slice(0, 6)}`, secret: newSecret(), token: "" };
  }
  if (identity) signIn(identity);
  else askName();
}

main();
