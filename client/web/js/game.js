// A game on the page: the board, the players and their clocks, the status
// and what is announced, offers, chat, the end of a game.

import {Board, lineCells} from './board.js';
import {boardName, cellName, clockText, isOver, parseCell, ratingChangeText, resultText, seconds, sideLetter} from './words.js';
import {$, announce, app, cell, note, send, show, watchLink} from './page.js';
import {askProfile, refreshLobby} from './lobby.js';

// --- a game ---------------------------------------------------------------------

export const board = new Board($('board'), (row, col) => play(row, col));

export function play(row, col) {
  const g = app.game;
  if (!g || g.spectator || !g.state) return;
  const s = g.state;
  if (s.status !== 'GAME_STATUS_IN_PROGRESS') {
    setStatus(
        s.status === 'GAME_STATUS_WAITING' ? 'The game has not started: waiting for an opponent.' :
                                             'The game is over.');
    return;
  }
  if (s.to_move !== g.side) {
    setStatus('It is not your turn');
    return;
  }
  if (s.cells[row * s.size + col] !== 'E') {
    setStatus(`That cell is already taken (${cellName(row, col)}): choose another cell`);
    return;
  }
  g.pendingMove = {row, col};
  send({make_move: {game_id: g.id, row, col}}, 'move');
}

$('move-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const g = app.game;
  const input = $('move-input');
  if (!g || !g.state) return;
  const c = parseCell(input.value, g.state.size);
  if (!c) {
    setStatus(`Not a move: type a cell such as b2 (columns a-${
        String.fromCharCode(96 + g.state.size)}, rows 1-${g.state.size}).`);
    return;
  }
  input.value = '';
  play(c.row, c.col);
});

export function setStatus(text) {
  $('game-status').textContent = text;
}

export function enterGame(joined) {
  const s = joined.state;
  const spectator = joined.side === 'SIDE_SPECTATOR';
  const same = app.game && app.game.id === s.game_id;
  app.game = {
    id: s.game_id,
    side: joined.side,
    spectator,
    state: null,
    at: 0,
    invite: joined.invite_code || (same ? app.game.invite : ''),
    announcedRound: same ? app.game.announcedRound : (isOver(s.status) ? s.round : 0),
    chat: same ? app.game.chat : [],
  };
  if (!same) $('chat-log').textContent = '';
  app.lastTurnSaid = '';
  show('game');
  if (!spectator)
    note(
        same || app.link.usedToken ? `Back in game ${s.game_id} as ${sideLetter(joined.side)}.` :
                                     `You play ${sideLetter(joined.side)} in game ${s.game_id}.`);
  else
    note(`Watching game ${s.game_id}.`);
  if (spectator && location.pathname !== `/game/${s.game_id}`) {
    history.replaceState(null, '', `/game/${s.game_id}`);
  } else if (!spectator && location.pathname !== '/') {
    history.replaceState(null, '', '/');
  }
  updateState(s);
  app.link.seated = !spectator && s.status === 'GAME_STATUS_IN_PROGRESS';
}

export function leaveGameView(text = '') {
  app.game = null;
  if (app.link) app.link.seated = false;
  if (text) note(text);
  if (app.replay && !$('replay').hidden) return;  // a replay being watched stays
  if (location.pathname !== '/') history.replaceState(null, '', '/');
  show('lobby');
  refreshLobby();
}

export function playerName(info) {
  return info && info.name ? info.name : '';
}

export function updateState(s) {
  const g = app.game;
  if (!g || s.game_id !== g.id) return;
  const previous = g.state;
  g.state = s;
  g.at = performance.now();
  if (app.link) app.link.seated = !g.spectator && s.status === 'GAME_STATUS_IN_PROGRESS';
  const xName = playerName(s.x);
  const oName = playerName(s.o);
  $('game-title').textContent = `Game ${s.game_id}${s.round > 1 ? ` (round ${s.round})` : ''}: ${
      boardName(
          s.size, s.win_length)}${s.rated ? ', rated' : ''}${s.is_private ? ', private' : ''}`;
  for (const [id, info, side] of [['player-x', s.x, 'SIDE_X'], ['player-o', s.o, 'SIDE_O']]) {
    const el = $(id);
    const name = el.querySelector('.name');
    name.textContent = playerName(info) || '(free seat)';
    name.disabled = !playerName(info);
    el.querySelector('.rating').textContent =
        info && info.name ? `(${Math.round(info.rating)})` : '';
    el.querySelector('.away').textContent = info && info.name && !info.connected && !info.is_bot ?
        `away, ${seconds(info.away_ms_left)} s left` :
        '';
    el.classList.toggle('to-move', s.status === 'GAME_STATUS_IN_PROGRESS' && s.to_move === side);
    if (g.side === side)
      el.querySelector('.mark').textContent = `${sideLetter(side)} (you)`;
    else
      el.querySelector('.mark').textContent = sideLetter(side);
  }
  const over = isOver(s.status);
  const mine = !g.spectator && s.status === 'GAME_STATUS_IN_PROGRESS' && s.to_move === g.side;
  const winning =
      s.end_reason === 'END_REASON_LINE' ? lineCells(s.winning_line, s.size, s.win_length) : [];
  const last = s.move_count > 0 ? s.last_move : null;
  board.show(s.size, s.cells, {
    last,
    winning,
    playable: mine,
    label: `Board ${boardName(s.size, s.win_length)}${mine ? ', your move' : ''}`,
  });
  // The side to move and the result, said once each.
  let status;
  if (s.status === 'GAME_STATUS_WAITING') {
    status =
        g.invite ? `Waiting for an opponent. Invite code: ${g.invite}` : 'Waiting for an opponent.';
  } else if (s.status === 'GAME_STATUS_IN_PROGRESS') {
    const moverName = s.to_move === 'SIDE_X' ? xName : oName;
    status = mine ? `Your move (${sideLetter(g.side)}).` :
                    `${moverName} (${sideLetter(s.to_move)}) to move.`;
    if (last && s.move_count > 0 && previous && previous.move_count !== s.move_count) {
      const mover = s.to_move === 'SIDE_X' ? 'O' : 'X';
      status = `${mover} played ${cellName(last.row, last.col)}. ${status}`;
    }
  } else {
    status = `Game over: ${resultText(s.status, s.end_reason, s.winning_line, s.size)}.`;
  }
  if (s.draw_offered_by && s.draw_offered_by !== 'SIDE_NONE' && !over) {
    const by = s.draw_offered_by === 'SIDE_X' ? xName : oName;
    status += s.draw_offered_by === g.side ?
        ' You offered a draw.' :
        ` ${by} (${
            sideLetter(
                s.draw_offered_by)}) offers a draw: Offer draw to accept, Decline to refuse.`;
  }
  if (s.rematch_requested_by && s.rematch_requested_by !== 'SIDE_NONE' && over) {
    const by = s.rematch_requested_by === 'SIDE_X' ? xName : oName;
    status += s.rematch_requested_by === g.side ?
        ' You asked for a rematch.' :
        ` ${by} (${
            sideLetter(
                s.rematch_requested_by)}) asks for a rematch: Rematch to accept, Decline to refuse.`;
  }
  setStatus(status);
  const turnKey = `${s.round}:${s.move_count}:${s.status}`;
  if (turnKey !== app.lastTurnSaid && s.status === 'GAME_STATUS_IN_PROGRESS') {
    app.lastTurnSaid = turnKey;
    announce(status);
  }
  if (over && g.announcedRound !== s.round) {
    g.announcedRound = s.round;
    gameOver(s);
  }
  // Actions that make sense now.
  const playing = !g.spectator && s.status === 'GAME_STATUS_IN_PROGRESS';
  $('offer-draw').hidden = !playing;
  $('resign').hidden = !playing;
  $('rematch').hidden = g.spectator || !over;
  $('decline').hidden = g.spectator ||
      !((s.draw_offered_by !== 'SIDE_NONE' && s.draw_offered_by !== g.side && !over) ||
        (s.rematch_requested_by !== 'SIDE_NONE' && s.rematch_requested_by !== g.side && over));
  $('move-form').hidden = g.spectator;
  $('leave').textContent = g.spectator ? 'Stop watching' : 'Leave';
  const share = $('game-share');
  share.textContent = '';
  if (!s.is_private || g.invite) {
    share.append(g.spectator ? 'Watch link: ' : 'Watch link for friends: ');
    const a = document.createElement('a');
    a.href = watchLink(s.game_id, s.is_private ? g.invite : '');
    a.textContent = a.href;
    share.append(a);
    if (s.is_private && g.invite) share.append(` (invite code ${g.invite})`);
  }
  $('spectators').textContent = s.spectators ? `${s.spectators} watching` : '';
  tickClocks();
  if (over && g.spectator && !g.replayAsked) {
    // A spectator sees the finished game as a replay once it is stored.
    g.replayAsked = true;
    g.replayFor = {game_id: s.game_id, round: s.round};
    send({get_history: {name: xName, limit: 20}}, 'find-replay');
  }
}

export function gameOver(s) {
  const g = app.game;
  const lines = [`Game over: ${resultText(s.status, s.end_reason, s.winning_line, s.size)}.`];
  if (!g.spectator) {
    const won = (s.status === 'GAME_STATUS_X_WON' && g.side === 'SIDE_X') ||
        (s.status === 'GAME_STATUS_O_WON' && g.side === 'SIDE_O');
    lines.push(s.status === 'GAME_STATUS_DRAW' ? 'A draw.' : won ? 'You won.' : 'You lost.');
    const mine = g.side === 'SIDE_X' ? s.x : s.o;
    const theirs = g.side === 'SIDE_X' ? s.o : s.x;
    if (s.rated && mine && mine.rating_before) {
      lines.push(`Your rating: ${ratingChangeText(mine, theirs ? theirs.name : '', true)}.`);
    }
  } else if (s.rated && s.x && s.o && s.x.rating_before) {
    lines.push(`Ratings: ${s.x.name} ${ratingChangeText(s.x, s.o.name, false)}, ${s.o.name} ${
        ratingChangeText(s.o, s.x.name, false)}.`);
  }
  lines.push(`Watch link: ${watchLink(s.game_id, s.is_private ? g.invite : '')}`);
  for (const l of lines) note(l);
  announce(lines.slice(0, 2).join(' '));
}

// The clocks count down between states: the mover's from the time of sending.
export function tickClocks() {
  const g = app.game;
  if (!g || !g.state) return;
  const s = g.state;
  const elapsed = s.status === 'GAME_STATUS_IN_PROGRESS' ? performance.now() - g.at : 0;
  const fischer = s.clock && s.clock.initial_ms;
  for (const [id, side, ms] of [
           ['player-x', 'SIDE_X', s.x_clock_ms], ['player-o', 'SIDE_O', s.o_clock_ms]]) {
    const el = $(id).querySelector('.clock');
    if (!fischer) {
      el.textContent = '';
      continue;
    }
    const left = s.to_move === side && s.status === 'GAME_STATUS_IN_PROGRESS' ? ms - elapsed : ms;
    el.textContent = clockText(left);
    el.classList.toggle('low', left < 10000);
  }
  const moveClock = $('move-clock');
  if (!fischer && s.move_time_left_ms && s.status === 'GAME_STATUS_IN_PROGRESS') {
    const left = s.move_time_left_ms - elapsed;
    moveClock.textContent = `Move clock: ${clockText(left)} for ${sideLetter(s.to_move)}`;
  } else {
    moveClock.textContent = '';
  }
}
app.tick = setInterval(tickClocks, 100);

$('offer-draw').addEventListener('click', () => send({offer_draw: {}}));
$('resign').addEventListener('click', () => {
  if (confirm('Resign this game?')) send({resign: {}});
});
$('rematch').addEventListener('click', () => send({rematch: {}}));
$('decline').addEventListener('click', () => send({decline: {}}));
$('leave').addEventListener('click', () => {
  const g = app.game;
  if (g && !g.spectator && g.state && g.state.status === 'GAME_STATUS_IN_PROGRESS' &&
      !confirm(`Leave game ${g.id}? You lose it (resign).`))
    return;
  send({leave: {}}, 'leave');
});
$('chat-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = $('chat-input');
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  send({chat: {text}});
});
for (const id of ['player-x', 'player-o']) {
  $(id).querySelector('.name').addEventListener('click', (e) => {
    if (e.target.textContent && !e.target.disabled) askProfile(e.target.textContent);
  });
}

export function addChat(m) {
  const li = document.createElement('li');
  const from = document.createElement('span');
  from.className = 'from';
  const side = sideLetter(m.from_side);
  from.textContent = side ? `${m.from} (${side}):` : `${m.from}:`;
  li.append(from, document.createTextNode(m.text));
  $('chat-log').append(li);
  li.scrollIntoView({block: 'nearest'});
}
