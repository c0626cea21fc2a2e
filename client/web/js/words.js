// The words the page shows, as ttt-client says them (docs/client.md):
// cell names (a1, b2: column letter, row number from 1), boards, results.

export function cellName(row, col) {
  return String.fromCharCode(97 + col) + String(row + 1);
}

// "b2" (or "2,2": row, column from 1) into {row, col}; null if not a cell.
export function parseCell(text, size) {
  const t = text.trim().toLowerCase();
  let m = /^([a-s])\s*(\d{1,2})$/.exec(t);
  let row;
  let col;
  if (m) {
    col = m[1].charCodeAt(0) - 97;
    row = Number(m[2]) - 1;
  } else if ((m = /^(\d{1,2})\s*[, ]\s*(\d{1,2})$/.exec(t))) {
    row = Number(m[1]) - 1;
    col = Number(m[2]) - 1;
  } else {
    return null;
  }
  if (row < 0 || col < 0 || row >= size || col >= size) return null;
  return {row, col};
}

export function boardName(size, winLength) {
  return !winLength || winLength === size ? `${size}x${size}` :
                                            `${size}x${size}, ${winLength} in a row`;
}

export function clockName(clock) {
  if (!clock || !clock.initial_ms) return '';
  const minutes = clock.initial_ms / 60000;
  const base = minutes >= 1 ? `${+ minutes.toFixed(2)} min` : `${clock.initial_ms / 1000} s`;
  return clock.increment_ms ? `${base} + ${clock.increment_ms / 1000} s` : base;
}

// mm:ss (h:mm:ss past an hour), tenths under ten seconds.
export function clockText(ms) {
  const m = Math.max(0, ms);
  if (m < 10000) return `0:0${(m / 1000).toFixed(1)}`;
  const total = Math.floor(m / 1000);
  const h = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(min).padStart(2, '0')}:${s}` : `${min}:${s}`;
}

function lineName(line, size) {
  if (!line) return 'a line';
  const kind = line.kind;
  if (line.length && line.start) {
    return `${line.length} in a row from ${cellName(line.start.row, line.start.col)}`;
  }
  if (kind === 'LINE_KIND_ROW') return `row ${line.index + 1}`;
  if (kind === 'LINE_KIND_COLUMN') return `column ${String.fromCharCode(97 + line.index)}`;
  if (kind === 'LINE_KIND_DIAGONAL') return 'the diagonal a1-' + cellName(size - 1, size - 1);
  if (kind === 'LINE_KIND_ANTI_DIAGONAL')
    return 'the diagonal ' + cellName(0, size - 1) + '-' + cellName(size - 1, 0);
  return 'a line';
}

// "X wins (row 2)", "draw (agreed)": the result as ttt-client's `Game over:` says it.
export function resultText(status, reason, line, size) {
  if (status === 'GAME_STATUS_X_WON' || status === 'GAME_STATUS_O_WON') {
    const xWon = status === 'GAME_STATUS_X_WON';
    const loser = xWon ? 'O' : 'X';
    let why = '';
    if (reason === 'END_REASON_LINE')
      why = lineName(line, size);
    else if (reason === 'END_REASON_RESIGNATION')
      why = `${loser} resigned`;
    else if (reason === 'END_REASON_TIMEOUT')
      why = `${loser} ran out of time`;
    else if (reason === 'END_REASON_DISCONNECT')
      why = `${loser} disconnected`;
    return `${xWon ? 'X' : 'O'} wins${why ? ` (${why})` : ''}`;
  }
  if (status === 'GAME_STATUS_DRAW') {
    if (reason === 'END_REASON_DRAW_AGREED') return 'draw (agreed)';
    if (reason === 'END_REASON_ABORTED') return 'no result (the server shut down)';
    if (reason === 'END_REASON_TIMEOUT_NO_WIN') {
      return 'draw (time ran out, and the other side could no longer win)';
    }
    return 'draw';
  }
  if (status === 'GAME_STATUS_WAITING') return 'waiting for an opponent';
  return 'in progress';
}

export function isOver(status) {
  return status === 'GAME_STATUS_X_WON' || status === 'GAME_STATUS_O_WON' ||
      status === 'GAME_STATUS_DRAW';
}

export function sideLetter(side) {
  return side === 'SIDE_X' ? 'X' : side === 'SIDE_O' ? 'O' : '';
}

export function seconds(ms) {
  return Math.max(0, Math.ceil(ms / 1000));
}

// What an Error's code means to a player, beside the server's own text.
export function errorWords(error) {
  return error.text || error.code;
}

// A finished game's result for the side the player played: "You won".
export function yourOutcome(status, side) {
  if (status === 'GAME_STATUS_DRAW') return 'A draw';
  const youWon = side === 'SIDE_X' ? 'GAME_STATUS_X_WON' : 'GAME_STATUS_O_WON';
  return status === youWon ? 'You won' : 'You lost';
}

// A rating change: "+16", "-16".
export function signed(x) {
  const r = Math.round(x);
  return r >= 0 ? `+${r}` : String(r);
}

function ordinal(n) {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' :
      n % 10 === 1                           ? 'st' :
      n % 10 === 2                           ? 'nd' :
      n % 10 === 3                           ? 'rd' :
                                               'th';
  return `${n}${suffix}`;
}

// Why a rating moved less than the result alone would move it (a
// PlayerInfo's rating_note), from the player's side (aboutMe) or a
// spectator's, as ttt-client says it; '' when there is no note and the
// change is not a rounded zero.
export function ratingNoteText(info, opponent, aboutMe, change) {
  switch (info.rating_note) {
    case 'RATING_NOTE_REPEAT': {
      const n = info.repeat_game || 0;
      const game = `${aboutMe ? 'your' : 'their'} ${n > 1 ? ordinal(n) : 'repeated'}` +
          ' rated game against each other within 24 hours';
      if (change === 0 || n >= 5) return `${game}: from the 5th on they move no rating`;
      return `${game} counts 1/${1 << Math.min(n - 1, 3)}`;
    }
    case 'RATING_NOTE_PROVISIONAL_OPPONENT':
      return `${opponent}'s rating is provisional: an established rating does not move against it`;
    case 'RATING_NOTE_TOO_SHORT':
      return 'the game ended before both players moved';
    case 'RATING_NOTE_FEW_OPPONENTS': {
      const n = Math.min(info.opponent_variety || 0, 9);
      return `${opponent} has played rated games against only ${n} other ` +
          `${n === 1 ? 'account' : 'accounts'}: it counts ${n}/10`;
    }
    default:
      return change === 0 ? 'the result the ratings expected' : '';
  }
}

// A rated game's change for one player: "1205 -> 1189 (-16)", with why it
// moved less when it did: "1205 -> 1205 (+0: ...)".
export function ratingChangeText(info, opponent, aboutMe) {
  const change = Math.round(info.rating) - Math.round(info.rating_before);
  const why = ratingNoteText(info, opponent, aboutMe, change);
  return `${Math.round(info.rating_before)} -> ${Math.round(info.rating)} (${signed(change)}${
      why ? `: ${why}` : ''})`;
}
