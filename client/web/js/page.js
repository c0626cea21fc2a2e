// What every part of the page shares: its state (app), the elements by id,
// the notes and announcements, requests to the server, small builders.

export const $ = (id) => document.getElementById(id);

export const BOT_LEVELS = {
  random: 'BOT_LEVEL_RANDOM',
  easy: 'BOT_LEVEL_EASY',
  medium: 'BOT_LEVEL_MEDIUM',
  hard: 'BOT_LEVEL_HARD',
  perfect: 'BOT_LEVEL_PERFECT',
};
export const PAGE_SIZE = 20;

export const app = {
  identity: null,
  link: null,
  me: null,    // the Welcome
  game: null,  // {id, side, state, at, invite, announcedRound, spectator, watchedPlayers}
  gamesPages: [0],
  gamesNext: 0,
  playersPages: [''],
  playersNext: '',
  pending: new Map(),  // request id -> what it was for
  challenge: null,     // the ChallengeOffer shown
  challengeTarget: '',
  profileName: '',
  replay: null,   // {record, ply}
  droppedRound: null,  // the round the link dropped whose end is looked for in the history
  startup: null,  // what the address asked for: {watch, code, bot}
  lastTurnSaid: '',
  tick: null,
};

// --- small helpers ----------------------------------------------------------

export function show(section) {
  for (const id of ['signin', 'lobby', 'game', 'replay']) $(id).hidden = id !== section;
}

export function note(text) {
  const li = document.createElement('li');
  li.textContent = text;
  const list = $('notes');
  list.append(li);
  while (list.children.length > 100) list.firstChild.remove();
  li.scrollIntoView({block: 'nearest'});
}

export function announce(text) {
  const region = $('announce');
  region.textContent = '';
  // A fresh node each time, so the same words are read again.
  setTimeout(() => {
    region.textContent = text;
  }, 30);
}

export function cell(row, text) {
  const td = document.createElement('td');
  if (text instanceof Node)
    td.append(text);
  else
    td.textContent = text;
  row.append(td);
  return td;
}

export function button(text, onClick, className = '') {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (className) b.className = className;
  b.addEventListener('click', onClick);
  return b;
}

export function send(body, purpose = '') {
  const id = app.link ? app.link.send(body) : 0;
  if (!id) {
    note('Not connected: the request waits for nothing; try again when the connection is back.');
    return 0;
  }
  if (purpose) app.pending.set(id, purpose);
  return id;
}

export function fillSizes(select, winSelect, size = 3) {
  select.textContent = '';
  for (let n = 3; n <= 19; n++) {
    const o = document.createElement('option');
    o.value = String(n);
    o.textContent = `${n}x${n}`;
    if (n === size) o.selected = true;
    select.append(o);
  }
  const fillWin = () => {
    const n = Number(select.value);
    const keep = Number(winSelect.value);
    winSelect.textContent = '';
    for (let k = 3; k <= n; k++) {
      const o = document.createElement('option');
      o.value = String(k === n ? 0 : k);
      o.textContent = k === n ? `${k} (whole line)` : String(k);
      if ((keep && k === keep) || (!keep && k === n)) o.selected = true;
      winSelect.append(o);
    }
  };
  select.addEventListener('change', fillWin);
  fillWin();
}

export function watchLink(id, code = '') {
  return `${location.origin}/game/${id}${code ? `?code=${encodeURIComponent(code)}` : ''}`;
}
