// A finished game, move by move.

import {Board, lineCells} from './board.js';
import {leaveGameView} from './game.js';
import {$, app, button, show} from './page.js';
import {boardName, cellName, resultText} from './words.js';

// --- replays --------------------------------------------------------------------

export const replayBoard = new Board($('replay-board'), () => {});

export function showReplay(record) {
  app.replay = {record, ply: record.moves.length};
  show('replay');
  $('replay-title').textContent =
      `Replay of game ${record.game_id}${record.round > 1 ? ` round ${record.round}` : ''}: ${
          record.x_name} (X) vs ${record.o_name} (O), ${boardName(record.size, record.win_length)}`;
  const list = $('replay-moves');
  list.textContent = '';
  record.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.append(button(
        `${i % 2 === 0 ? 'X' : 'O'} ${cellName(m.row, m.col)}`, () => replayTo(i + 1), 'link'));
    list.append(li);
  });
  replayTo(record.moves.length);
}

export function replayTo(ply) {
  const r = app.replay;
  if (!r) return;
  const rec = r.record;
  r.ply = Math.max(0, Math.min(ply, rec.moves.length));
  const cells = Array(rec.size * rec.size).fill('E');
  rec.moves.slice(0, r.ply).forEach((m, i) => {
    cells[m.row * rec.size + m.col] = i % 2 === 0 ? 'X' : 'O';
  });
  const end = r.ply === rec.moves.length;
  const last = r.ply > 0 ? rec.moves[r.ply - 1] : null;
  replayBoard.show(rec.size, cells.join(''), {
    last,
    winning: end && rec.end_reason === 'END_REASON_LINE' ?
        lineCells(rec.winning_line, rec.size, rec.win_length) :
        [],
    label: `Replay board, move ${r.ply} of ${rec.moves.length}`,
  });
  $('replay-status').textContent = end ?
      `Move ${r.ply} of ${rec.moves.length}. Game over: ${
          resultText(rec.status, rec.end_reason, rec.winning_line, rec.size)}.` :
      `Move ${r.ply} of ${rec.moves.length}${
          last ? `: ${r.ply % 2 === 1 ? 'X' : 'O'} ${cellName(last.row, last.col)}` : ''}.`;
  [...$('replay-moves').children].forEach(
      (li, i) => li.classList.toggle('current', i + 1 === r.ply));
}
$('replay-start').addEventListener('click', () => replayTo(0));
$('replay-prev').addEventListener('click', () => replayTo(app.replay.ply - 1));
$('replay-next').addEventListener('click', () => replayTo(app.replay.ply + 1));
$('replay-end').addEventListener('click', () => replayTo(Infinity));
$('replay-close').addEventListener('click', () => {
  app.replay = null;
  if (app.game)
    show('game');
  else
    leaveGameView();
});
document.addEventListener('keydown', (e) => {
  // In a replay, the arrow keys step through the moves.
  if ($('replay').hidden || e.target.closest('input, select, textarea')) return;
  if (e.key === 'ArrowLeft' && !e.target.closest('.board')) replayTo(app.replay.ply - 1);
  if (e.key === 'ArrowRight' && !e.target.closest('.board')) replayTo(app.replay.ply + 1);
});
