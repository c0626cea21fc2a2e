// The board: one <button> per cell, named by its coordinate as ttt-client
// writes it ("a1", and its mark: "a1 X"), in a grid that fits any screen
// from a phone to a desktop. Arrow keys move between cells (one tab stop
// for the whole board), Enter or Space plays, a tap or click plays.

import {cellName} from './words.js';

export class Board {
  // element: the container; onPlay(row, col) when the player picks a cell.
  constructor(element, onPlay) {
    this.element = element;
    this.onPlay = onPlay;
    this.size = 0;
    this.cells = [];
    this.focusIndex = 0;
    element.addEventListener('keydown', (e) => this.key(e));
  }

  // Draws cells ("XOE..." row-major), the last move and the winning cells.
  show(size, cells, {last = null, winning = [], playable = false, label = ''} = {}) {
    if (size !== this.size) this.build(size);
    this.element.setAttribute('aria-label', label || `Board ${size}x${size}`);
    const win = new Set(winning.map((c) => c.row * size + c.col));
    for (let i = 0; i < size * size; i++) {
      const b = this.cells[i];
      const mark = cells[i] === 'X' || cells[i] === 'O' ? cells[i] : '';
      const row = Math.floor(i / size);
      const col = i % size;
      if (b.textContent !== mark) b.textContent = mark;
      b.setAttribute('aria-label', mark ? `${cellName(row, col)} ${mark}` : cellName(row, col));
      b.dataset.mark = mark;
      b.classList.toggle('last', !!last && last.row === row && last.col === col);
      b.classList.toggle('win', win.has(i));
      b.disabled = false;
      b.setAttribute('aria-disabled', playable && !mark ? 'false' : 'true');
    }
    this.playable = playable;
  }

  build(size) {
    this.size = size;
    this.element.textContent = '';
    this.element.style.setProperty('--n', String(size));
    this.element.setAttribute('role', 'grid');
    this.cells = [];
    for (let row = 0; row < size; row++) {
      const line = document.createElement('div');
      line.setAttribute('role', 'row');
      line.className = 'board-row';
      for (let col = 0; col < size; col++) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'cell';
        b.setAttribute('role', 'gridcell');
        b.dataset.cell = cellName(row, col);
        b.tabIndex = row === 0 && col === 0 ? 0 : -1;
        b.addEventListener('click', () => {
          this.focus(row * size + col, false);
          if (this.playable && !b.dataset.mark) this.onPlay(row, col);
        });
        line.append(b);
        this.cells.push(b);
      }
      this.element.append(line);
    }
    this.focusIndex = 0;
  }

  focus(index, move = true) {
    if (index < 0 || index >= this.cells.length) return;
    this.cells[this.focusIndex].tabIndex = -1;
    this.focusIndex = index;
    this.cells[index].tabIndex = 0;
    if (move) this.cells[index].focus();
  }

  key(e) {
    if (!this.size) return;
    const n = this.size;
    const i = this.focusIndex;
    const moves = {
      ArrowLeft: i % n > 0 ? i - 1 : i,
      ArrowRight: i % n < n - 1 ? i + 1 : i,
      ArrowUp: i >= n ? i - n : i,
      ArrowDown: i + n < n * n ? i + n : i,
      Home: i - (i % n),
      End: i - (i % n) + n - 1,
    };
    if (e.key in moves) {
      e.preventDefault();
      this.focus(moves[e.key]);
    }
  }
}

// The cells of a winning line (GameState.winning_line), for highlighting.
export function lineCells(line, size, winLength) {
  if (!line || !line.kind || line.kind === 'LINE_KIND_NONE') return [];
  const cells = [];
  const k = line.length || winLength || size;
  const dir = {
    LINE_KIND_ROW: [0, 1],
    LINE_KIND_COLUMN: [1, 0],
    LINE_KIND_DIAGONAL: [1, 1],
    LINE_KIND_ANTI_DIAGONAL: [1, -1],
  }[line.kind];
  if (!dir) return [];
  let start;
  if (line.length && line.start) {
    start = {row: line.start.row, col: line.start.col};
  } else if (line.kind === 'LINE_KIND_ROW') {
    start = {row: line.index, col: 0};
  } else if (line.kind === 'LINE_KIND_COLUMN') {
    start = {row: 0, col: line.index};
  } else if (line.kind === 'LINE_KIND_DIAGONAL') {
    start = {row: 0, col: 0};
  } else {
    start = {row: 0, col: size - 1};
  }
  const count = line.length ? k : size;
  for (let i = 0; i < count; i++) {
    cells.push({row: start.row + dir[0] * i, col: start.col + dir[1] * i});
  }
  return cells;
}
