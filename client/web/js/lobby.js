// The lobby: games (paged), players online (paged) and challenges, the
// leaderboard, my games, profiles, me (the secret), new games.

import {askName} from './app.js';
import {forgetIdentity} from './identity.js';
import {$, announce, app, button, cell, fillSizes, PAGE_SIZE, send, show, watchLink} from './page.js';
import {boardName, clockName, resultText, seconds} from './words.js';

// --- the lobby ------------------------------------------------------------------

export function nameButton(name) {
  return button(name, () => askProfile(name), 'link');
}


export let tab = 'games';
for (const b of document.querySelectorAll('.tabs button')) {
  b.addEventListener('click', () => selectTab(b.dataset.tab));
}

export function selectTab(name) {
  tab = name;
  for (const b of document.querySelectorAll('.tabs button')) {
    b.setAttribute('aria-pressed', String(b.dataset.tab === name));
  }
  for (const p of document.querySelectorAll('[data-panel]')) p.hidden = p.dataset.panel !== name;
  refreshLobby();
}

export function refreshLobby() {
  if (!app.link || !app.link.connected) return;
  if (tab === 'games')
    listGames();
  else if (tab === 'players')
    listPlayers();
  else if (tab === 'leaderboard')
    send({get_leaderboard: {limit: 50}});
  else if (tab === 'history')
    send({get_history: {name: '', limit: 30}});
  else if (tab === 'me')
    send({get_profile: {name: ''}}, 'me');
}

export function listGames() {
  const after = app.gamesPages[app.gamesPages.length - 1];
  send({list_games: {open_only: $('games-open').checked, page_size: PAGE_SIZE, after}});
}

export function listPlayers() {
  const after = app.playersPages[app.playersPages.length - 1];
  send({list_players: {page_size: PAGE_SIZE, after}});
}

$('games-refresh').addEventListener('click', () => {
  app.gamesPages = [0];
  listGames();
});
$('games-open').addEventListener('change', () => {
  app.gamesPages = [0];
  listGames();
});
$('games-next').addEventListener('click', () => {
  if (!app.gamesNext) return;
  app.gamesPages.push(app.gamesNext);
  listGames();
});
$('games-prev').addEventListener('click', () => {
  if (app.gamesPages.length > 1) app.gamesPages.pop();
  listGames();
});
$('players-refresh').addEventListener('click', () => {
  app.playersPages = [''];
  listPlayers();
});
$('players-next').addEventListener('click', () => {
  if (!app.playersNext) return;
  app.playersPages.push(app.playersNext);
  listPlayers();
});
$('players-prev').addEventListener('click', () => {
  if (app.playersPages.length > 1) app.playersPages.pop();
  listPlayers();
});
$('refuse-challenges').addEventListener('change', (e) => {
  send({challenge_settings: {refuse_all: e.target.checked}});
});

export function showGameList(list) {
  const body = $('games-table').tBodies[0];
  body.textContent = '';
  for (const g of list.games) {
    const tr = document.createElement('tr');
    cell(tr, String(g.game_id));
    const clock = clockName(g.clock);
    cell(
        tr,
        boardName(g.size, g.win_length) + (clock ? `, ${clock}` : '') + (g.rated ? ', rated' : ''));
    cell(tr, g.x_name || '-');
    cell(tr, g.o_name || '-');
    cell(
        tr,
        g.status === 'GAME_STATUS_WAITING' ? 'open' :
                                             resultText(g.status, '', null, g.size) +
                (g.spectators ? ` (${g.spectators} watching)` : ''));
    const actions = cell(tr, '');
    if (g.status === 'GAME_STATUS_WAITING') {
      actions.append(button('Join', () => send({join_game: {game_id: g.game_id}}, 'join')));
    }
    actions.append(' ', button('Watch', () => {
                     app.watching = g.game_id;
                     send({spectate: {game_id: g.game_id}}, 'watch');
                   }));
    const a = document.createElement('a');
    a.href = watchLink(g.game_id);
    a.textContent = 'link';
    actions.append(' ', a);
    body.append(tr);
  }
  if (!list.games.length) {
    const tr = document.createElement('tr');
    cell(tr, 'No games yet: start one above.').colSpan = 6;
    body.append(tr);
  }
  app.gamesNext = list.next_after;
  const first = (app.gamesPages.length - 1) * (list.page_size || PAGE_SIZE);
  $('games-page').textContent =
      list.total ? `Games ${first + 1}-${first + list.games.length} of ${list.total}` : '';
  $('games-next').disabled = !list.next_after;
  $('games-prev').disabled = app.gamesPages.length <= 1;
}

export const ACTIVITY = {
  ACTIVITY_IDLE: 'in the lobby',
  ACTIVITY_QUEUED: 'waiting for a quick match',
  ACTIVITY_WAITING: 'waiting for an opponent',
  ACTIVITY_PLAYING: 'playing',
  ACTIVITY_WATCHING: 'watching',
};

export function showPlayers(list) {
  const body = $('players-table').tBodies[0];
  body.textContent = '';
  for (const p of list.players) {
    const tr = document.createElement('tr');
    cell(tr, nameButton(p.name));
    cell(tr, String(Math.round(p.rating)));
    let doing = ACTIVITY[p.activity] || '';
    if (p.opponent)
      doing += p.activity === 'ACTIVITY_PLAYING' ? ` against ${p.opponent}` : ` ${p.opponent}`;
    if (p.away) doing += ' (away)';
    if (p.is_bot) doing += ' [bot]';
    cell(tr, doing);
    const actions = cell(tr, '');
    if (app.me && p.name !== app.me.name) {
      actions.append(button('Challenge', () => openChallengeForm(p.name)));
    }
    if (p.game_id && p.activity === 'ACTIVITY_PLAYING') {
      actions.append(' ', button('Watch', () => {
                       app.watching = p.game_id;
                       send({spectate: {game_id: p.game_id}}, 'watch');
                     }));
    }
    body.append(tr);
  }
  app.playersNext = list.next_after;
  $('players-page').textContent = list.total ? `${list.total} online` : '';
  $('players-next').disabled = !list.next_after;
  $('players-prev').disabled = app.playersPages.length <= 1;
}

export function showLeaderboard(board) {
  const body = $('leaderboard-table').tBodies[0];
  body.textContent = '';
  board.entries.forEach((e, i) => {
    const tr = document.createElement('tr');
    cell(tr, String(i + 1));
    cell(tr, nameButton(e.name));
    cell(tr, String(Math.round(e.rating)) + (e.provisional ? '?' : ''));
    cell(tr, String(e.games));
    cell(tr, `${e.wins}/${e.losses}/${e.draws}`);
    body.append(tr);
  });
}

export function showHistory(history) {
  const list = $('history-list');
  list.textContent = '';
  if (!history.games.length) {
    const li = document.createElement('li');
    li.textContent = `${history.name || 'You'}: no finished games yet.`;
    list.append(li);
  }
  for (const g of history.games) {
    const li = document.createElement('li');
    const when = g.ended_ms ? new Date(Number(g.ended_ms)).toLocaleString() : '';
    li.textContent = `Game ${g.game_id}${g.round > 1 ? ` round ${g.round}` : ''}: ${
        g.x_name} (X) vs ${g.o_name} (O), ${boardName(g.size, g.win_length)}, ${
        resultText(
            g.status, g.end_reason, g.winning_line,
            g.size)}, ${g.move_count} moves ${when ? `(${when}) ` : ''}`;
    li.append(button('Replay', () => send({get_replay: {record_id: g.record_id}})));
    list.append(li);
  }
  if (tab !== 'history') selectTab('history');
}

export function askProfile(name) {
  app.profileName = name;
  send({get_profile: {name}}, 'profile');
}

export function profileWords(p) {
  if (!p.games) return `${p.name}: rating ${Math.round(p.rating)}, no games yet (unranked).`;
  const rank = p.rank ? `, rank ${p.rank} of ${p.ranked}` : '';
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : word === 'loss' ? 'es' : 's'}`;
  return `${p.name}: rating ${Math.round(p.rating)}${rank}; ${plural(p.games, 'game')}: ${
      plural(p.wins, 'win')}, ${plural(p.losses, 'loss')}, ${plural(p.draws, 'draw')}.`;
}

$('profile-close').addEventListener('click', () => $('profile').close());
$('profile-history').addEventListener('click', () => {
  $('profile').close();
  send({get_history: {name: app.profileName, limit: 30}});
});

export function updateMe() {
  if (!app.identity) return;
  const {name, secret} = app.identity;
  $('secret-text').textContent = secret;
  const file = `${location.hostname}-${
                   location.port || (location.protocol === 'https:' ? '443' : '80')}-${name}`
                   .replace(/[^A-Za-z0-9._-]/g, '_');
  const a = $('download-secret');
  a.download = file;
  if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([secret + '\n'], {type: 'text/plain'}));
  $('client-command').textContent =
      `ttt-client --host ${location.hostname} --port ${
          location.port || (location.protocol === 'https:' ? 443 : 80)} ` +
      `--name '${name.replace(/'/g, '\'\\\'\'')}' --secret-file ${file}`;
}

$('show-secret').addEventListener('click', (e) => {
  const pre = $('secret-text');
  pre.hidden = !pre.hidden;
  e.target.setAttribute('aria-expanded', String(!pre.hidden));
  e.target.textContent = pre.hidden ? 'Show the secret' : 'Hide the secret';
});
$('sign-out').addEventListener('click', () => {
  if (app.link) app.link.shutdown();
  forgetIdentity();
  app.identity = null;
  app.me = null;
  $('who').hidden = true;
  askName();
});

// New games.
fillSizes($('ng-size'), $('ng-win'));
export function newGameSettings() {
  const size = Number($('ng-size').value);
  const win = Number($('ng-win').value);
  const clock = $('ng-clock').value;
  const settings = {
    size,
    win_length: win,
    rated: $('ng-rated').checked ? 'RATED_DEFAULT' : 'RATED_NO'
  };
  if (clock) {
    const [initial, increment] = clock.split(',').map(Number);
    settings.clock = {initial_ms: initial, increment_ms: increment};
  }
  return settings;
}
$('quick-match').addEventListener('click', () => send({quick_match: newGameSettings()}, 'quick'));
$('create-open').addEventListener('click', () => send({create_game: newGameSettings()}, 'create'));
$('create-private')
    .addEventListener(
        'click', () => send({create_game: {...newGameSettings(), is_private: true}}, 'create'));
$('create-bot').addEventListener('click', () => {
  const s = newGameSettings();
  send(
      {create_game: {...s, vs_bot: true, bot_level: $('ng-bot').value, rated: 'RATED_DEFAULT'}},
      'bot');
});
$('join-code').addEventListener('submit', (e) => {
  e.preventDefault();
  const code = $('join-code-input').value.trim();
  if (code) send({join_game: {game_id: 0, invite_code: code}}, 'join');
});

// Challenges.
fillSizes($('cf-size'), $('cf-win'));
export function openChallengeForm(name) {
  app.challengeTarget = name;
  $('challenge-form-title').textContent = `Challenge ${name}`;
  $('challenge-form').showModal();
}
$('challenge-form').addEventListener('close', () => {
  if ($('challenge-form').returnValue !== 'send') return;
  send(
      {
        challenge: {
          name: app.challengeTarget,
          size: Number($('cf-size').value),
          win_length: Number($('cf-win').value),
          rated: $('cf-rated').checked ? 'RATED_DEFAULT' : 'RATED_NO',
        }
      },
      'challenge');
});
export function showChallengeOffer(offer) {
  app.challenge = offer;
  const s = offer.settings || {};
  const clock = clockName(s.clock);
  $('challenge-offer-text').textContent = `${offer.from} (rating ${Math.round(offer.from_rating)})${
      offer.from_bot ? ' [bot]' : ''} challenges you to ${boardName(s.size || 3, s.win_length)}${
      clock ? `, ${clock}` : ''}${s.rated === 'RATED_NO' ? ', unrated' : ''}. It stands ${
      seconds(offer.expires_in_ms)} s.`;
  const d = $('challenge-offer');
  if (!d.open) d.showModal();
  announce(`${offer.from} challenges you.`);
}
$('challenge-accept').addEventListener('click', () => {
  $('challenge-offer').close();
  if (app.challenge)
    send({answer_challenge: {challenge_id: app.challenge.challenge_id, accept: true}}, 'accept');
  app.challenge = null;
});
$('challenge-decline').addEventListener('click', () => {
  $('challenge-offer').close();
  if (app.challenge)
    send({answer_challenge: {challenge_id: app.challenge.challenge_id, accept: false}});
  app.challenge = null;
});
