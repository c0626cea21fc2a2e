// The web client's entry: signing in, the Welcome, what the address asks
// for (a watch link /game/ID, /?play-bot=...), and each server message to
// the part of the page it is for (lobby.js, game.js, replay.js), over one
// Link to the server. Every text from the server goes into the page
// through textContent, never as markup.

import {forgetIdentity, loadIdentity, newSecret, saveIdentity, secretOf, validSecret} from './identity.js';
import {Link} from './link.js';
import {loadSchema} from './wire.js';
import {boardName, clockName, isOver, resultText, seconds, sideLetter, signed, yourOutcome} from './words.js';
import {$, BOT_LEVELS, announce, app, button, note, send, show} from './page.js';
import {profileWords, refreshLobby, showChallengeOffer, showGameList, showHistory, showLeaderboard, showPlayers, updateMe} from './lobby.js';
import {addChat, enterGame, leaveGameView, play, playerName, setStatus, updateState} from './game.js';
import {showReplay} from './replay.js';

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
      $('link-state').textContent = connected ? '' : 'connecting...';
      saveIdentity(app.identity);
    },
  });
  $('link-state').textContent = 'connecting...';
  app.link.start();
}

export function askName(prefill = '') {
  show('signin');
  $('signin-name').value = prefill;
  $('signin-name').focus();
}

$('signin-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const name = $('signin-name').value.trim();
  const secret = $('signin-secret').value.trim();
  $('signin-error').textContent = '';
  if (!name) return;
  if (secret && !validSecret(secret)) {
    $('signin-error').textContent = 'That is not a secret: 32 to 128 letters, digits, - or _.';
    return;
  }
  signIn({name, secret: secret || secretOf(name) || newSecret(), token: ''});
});

function onLost(text, code) {
  $('link-state').textContent = 'disconnected';
  if (code === 'ERROR_CODE_NAME_TAKEN') {
    forgetIdentity();
    app.identity = null;
    askName();
    $('signin-error').textContent = `${text} Choose another name, or give its secret.`;
    return;
  }
  if (code === 'ERROR_CODE_SESSION_ACTIVE') {
    note(`${
        text} (This name is playing in another window or program; close it, or use another name.)`);
    return;
  }
  if (code === 'ERROR_CODE_REPLACED') {
    note('This session was taken over by another window or program; this one stops.');
    return;
  }
  note(`ttt: ${text}`);
  const retry = button('Reconnect', () => {
    retry.remove();
    app.link.retryNow();
  });
  $('notes').lastChild.append(' ', retry);
}

function onWelcome(welcome, info) {
  const firstTime = !app.me;
  const wasInGame = app.game && !app.game.spectator && app.game.state &&
      app.game.state.status === 'GAME_STATUS_IN_PROGRESS';
  const dropped = wasInGame ? droppedRound(app.game) : null;
  app.me = welcome;
  app.identity.name = welcome.name;
  if (welcome.secret) app.identity.secret = welcome.secret;  // an older server made it
  saveIdentity(app.identity);
  const who = $('who');
  who.hidden = false;
  who.textContent = `${welcome.name} (rating ${Math.round(welcome.rating)})`;
  updateMe();
  if (info.reconnected && !firstTime) {
    if (welcome.game_id)
      note(`Reconnected as ${welcome.name}: back in game ${welcome.game_id}.`);
    else if (wasInGame) {
      note('The server no longer holds your game: you are in the lobby.');
      lookForDroppedRound(dropped, welcome);
    }
    else
      note(`Reconnected to ${location.host} as ${welcome.name} (rating ${
          Math.round(welcome.rating)}).`);
  } else if (welcome.resumed && welcome.game_id) {
    note(`Reconnected as ${welcome.name}: back in game ${welcome.game_id}.`);
  } else {
    note(
        `Signed in to ${location.host} as ${welcome.name} (rating ${Math.round(welcome.rating)}).`);
  }
  for (const r of welcome.decided_while_away || []) {
    const outcome = yourOutcome(r.status, r.side);
    const rating = r.rated ?
        `; your rating ${Math.round(r.rating_before)} -> ${Math.round(r.rating_after)} (${
            signed(Math.round(r.rating_after) - Math.round(r.rating_before))})` :
        '';
    note(`While you were away, game ${r.game_id} against ${r.opponent} ended: ${
        resultText(r.status, r.end_reason, null, 0)}. ${outcome}${rating}.`);
  }
  if (!welcome.game_id) {
    if (app.game && !app.game.spectator) leaveGameView();
    startFromAddress();
  }
  if (!app.game && !app.startup) {
    show('lobby');
    refreshLobby();
  }
}

// The round in progress when the link dropped: which game and round, the
// side played, and the names on both sides.
function droppedRound(game) {
  const s = game.state;
  const mine = game.side === 'SIDE_X' ? s.x : s.o;
  const theirs = game.side === 'SIDE_X' ? s.o : s.x;
  return {
    game_id: s.game_id,
    round: s.round,
    side: game.side,
    name: mine ? mine.name : '',
    opponent: theirs ? theirs.name : '',
  };
}

// The server no longer holds the game the link dropped: it may have ended
// meanwhile (the opponent resigned, the seat's time ran out, its node went
// down after the last move was saved). Unless the Welcome told its end, it
// is looked for in the player's newest games.
function lookForDroppedRound(dropped, welcome) {
  if ((welcome.decided_while_away || []).some((r) => r.game_id === dropped.game_id)) return;
  app.droppedRound = dropped;
  send({get_history: {name: '', limit: 5}}, 'dropped-round');
}

// The history's answer: the same game and round, the player on its side,
// over. Not found, nothing more is said (the game ended without a result).
function foundDroppedRound(history) {
  const d = app.droppedRound;
  app.droppedRound = null;
  if (!d) return;
  const name = d.side === 'SIDE_X' ? 'x_name' : 'o_name';
  const r = history.games.find(
      (g) => g.game_id === d.game_id && g.round === d.round && g[name] === d.name &&
          isOver(g.status));
  if (!r) return;
  note(`Game ${d.game_id} against ${d.opponent} ended while you were away: ${
      resultText(r.status, r.end_reason, null, 0)}. ${yourOutcome(r.status, d.side)}.`);
}

// What the address asked for, once signed in: a watch link or a bot game.
function startFromAddress() {
  const s = app.startup;
  if (!s) return;
  app.startup = null;
  if (s.watch) {
    app.watching = s.watch;
    send({spectate: {game_id: s.watch, invite_code: s.code}}, 'watch');
  } else if (s.bot) {
    send(
        {
          create_game: {
            size: s.size,
            win_length: s.win,
            vs_bot: true,
            bot_level: s.bot,
            rated: 'RATED_DEFAULT'
          }
        },
        'bot');
  }
}

// --- messages from the server ---------------------------------------------------

function onMessage(m) {
  const purpose = m.in_reply_to ? app.pending.get(m.in_reply_to) : undefined;
  if (m.in_reply_to) app.pending.delete(m.in_reply_to);
  switch (m.body) {
    case 'error':
      onError(m.error, purpose);
      break;
    case 'game_list':
      showGameList(m.game_list);
      break;
    case 'joined':
      $('queue').hidden = true;
      enterGame(m.joined);
      break;
    case 'state':
      updateState(m.state);
      break;
    case 'queued': {
      const q = m.queued;
      const text = `Waiting for a quick match: ${boardName(q.size, q.win_length)}${
          clockName(q.clock) ? `, ${clockName(q.clock)}` : ''}${
          q.bot_fallback_s ? ` (a bot steps in after ${q.bot_fallback_s} s)` : ''}.`;
      note(text);
      $('queue-text').textContent = text;
      $('queue').hidden = false;
      break;
    }
    case 'left':
      $('queue').hidden = true;
      if (m.left.reason === 'LEFT_REASON_PLAYERS_LEFT') {
        leaveGameView(`${m.left.players.join(' and ') || 'The players'} left; back in the lobby.`);
      } else if (app.game && app.game.id === m.left.game_id) {
        leaveGameView(`You left game ${m.left.game_id}.`);
      }
      break;
    case 'chat':
      addChat(m.chat);
      break;
    case 'opponent':
      opponentStatus(m.opponent);
      break;
    case 'goodbye':
      break;
    case 'leaderboard':
      showLeaderboard(m.leaderboard);
      break;
    case 'history':
      if (purpose === 'find-replay')
        findReplay(m.history);
      else if (purpose === 'dropped-round')
        foundDroppedRound(m.history);
      else
        showHistory(m.history);
      break;
    case 'replay':
      showReplay(m.replay.game);
      break;
    case 'spectator_count':
      if (app.game && app.game.id === m.spectator_count.game_id) {
        $('spectators').textContent =
            m.spectator_count.spectators ? `${m.spectator_count.spectators} watching` : '';
      }
      break;
    case 'offer_ended':
      offerEnded(m.offer_ended);
      break;
    case 'profile':
      if (purpose === 'me') {
        $('me-profile').textContent = profileWords(m.profile);
      } else {
        $('profile-title').textContent = m.profile.name;
        $('profile-text').textContent = profileWords(m.profile);
        $('profile').showModal();
      }
      break;
    case 'player_list':
      showPlayers(m.player_list);
      break;
    case 'challenge_offer':
      showChallengeOffer(m.challenge_offer);
      break;
    case 'challenge_sent':
      note(`Challenge sent to ${m.challenge_sent.settings.name}: it stands ${
          seconds(m.challenge_sent.expires_in_ms)} s.`);
      break;
    case 'challenge_ended': {
      const c = m.challenge_ended;
      const how = {
        CHALLENGE_END_DECLINED: `${c.challenged} declined`,
        CHALLENGE_END_EXPIRED: 'it expired',
        CHALLENGE_END_WITHDRAWN: `${c.challenger} withdrew it`,
        CHALLENGE_END_UNAVAILABLE: `${c.challenged} is no longer available`,
      }[c.how] ||
          'it ended';
      note(`The challenge from ${c.challenger} to ${c.challenged} ended: ${how}.`);
      if (app.challenge && app.challenge.challenge_id === c.challenge_id) {
        app.challenge = null;
        if ($('challenge-offer').open) $('challenge-offer').close();
      }
      break;
    }
    case 'challenge_settings':
      $('refuse-challenges').checked = m.challenge_settings.refuse_all;
      break;
    case 'block_list':
      note(`Blocked: ${m.block_list.names.join(', ') || 'nobody'}.`);
      break;
    case 'redirect':
      note(`This lobby continues at another node (${m.redirect.host}:${
          m.redirect.port}): open https://${m.redirect.host}:${m.redirect.port}/ there. ${
          m.redirect.reason}`);
      break;
    case 'notice':
      note(m.notice.text);
      break;
    default:
      break;
  }
}

function onError(error, purpose) {
  const text = error.text || error.code;
  if (purpose === 'watch' && (error.code === 'ERROR_CODE_UNKNOWN_GAME')) {
    note(`Game ${app.watching} is not being played now: ${text}`);
    if (app.watching) send({get_replay: {record_id: 0, game_id: app.watching}}, 'watch-replay');
    show('lobby');
    refreshLobby();
    return;
  }
  if (purpose === 'watch-replay') {
    note(`No record of game ${app.watching} on this server.`);
    return;
  }
  if (purpose === 'find-replay') return;
  if (purpose === 'move' && app.game) {
    setStatus(text);
    announce(text);
    return;
  }
  if (app.game && !$('game').hidden) setStatus(text);
  note(text);
  if (purpose === 'watch' && !app.game) {
    show('lobby');
    refreshLobby();
  }
}

function opponentStatus(o) {
  const g = app.game;
  if (!g || !g.state) return;
  const s = g.state;
  const opponentSide = g.side === 'SIDE_X' ? 'SIDE_O' : 'SIDE_X';
  const info = opponentSide === 'SIDE_X' ? s.x : s.o;
  const who = `${playerName(info) || 'The opponent'} (${sideLetter(opponentSide)})`;
  if (o.left)
    note(`${who} left the game.`);
  else if (o.connected)
    note(`${who} is back.`);
  else
    note(`${who} lost the connection; the seat is held ${
        seconds(o.grace_ms)} s (then the game is lost by disconnect).`);
}

function offerEnded(o) {
  const kind = o.kind === 'OFFER_KIND_DRAW' ? 'draw offer' : 'rematch request';
  const g = app.game;
  const mine = g && o.by === g.side;
  const whose = mine ? `Your ${kind}` : `${o.by_name}'s ${kind}`;
  const how = {
    OFFER_END_DECLINED: mine ? 'was declined' : 'was declined',
    OFFER_END_MOVED: 'lapsed: a move was played',
    OFFER_END_LEFT: `lapsed: ${o.by_name} left or lost the connection`,
    OFFER_END_OPPONENT_LEFT: 'lapsed: the other player left or lost the connection',
  }[o.how] ||
      'ended';
  note(`${whose} ${how}.`);
}

function findReplay(history) {
  const g = app.game;
  const want = g && g.replayFor;
  if (!want) return;
  const record = history.games.find((r) => r.game_id === want.game_id && r.round === want.round);
  if (record) {
    note(`Game ${want.game_id} is over: its replay follows (Lobby to leave).`);
    send({get_replay: {record_id: record.record_id}});
  }
}

// --- start ----------------------------------------------------------------------

function readAddress() {
  const params = new URLSearchParams(location.search);
  const watch = /^\/game\/(\d{1,18})$/.exec(location.pathname);
  if (watch) return {watch: Number(watch[1]), code: params.get('code') || ''};
  const level = params.get('play-bot');
  if (level !== null) {
    const size = Math.min(19, Math.max(3, Number(params.get('size')) || 3));
    const win = Number(params.get('win')) || 0;
    return {
      bot: BOT_LEVELS[level.toLowerCase()] || 'BOT_LEVEL_PERFECT',
      size,
      win: win >= 3 && win <= size ? win : 0,
      name: params.get('name') || '',
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
    identity = {name: askedName, secret: secretOf(askedName) || newSecret(), token: ''};
  }
  if (!identity && app.startup && app.startup.watch) {
    // Watching needs a name too: a guest one, kept like any other.
    identity = {name: `watcher-${newSecret().slice(0, 6)}`, secret: newSecret(), token: ''};
  }
  if (identity)
    signIn(identity);
  else
    askName();
}

$('queue-cancel').addEventListener('click', () => {
  send({leave: {}});
  $('queue').hidden = true;
  note('You left the quick-match queue.');
});

main();
