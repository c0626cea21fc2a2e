// The link to the lobby: a WebSocket to /ws on the page's own server,
// carrying ClientMessage and ServerMessage in binary protobuf, one per
// WebSocket message. Like ttt-client's connection (docs/client.md, "The
// connection"): Hello first (the resume token when there is one, else the
// name and its secret), Pings answered, the heartbeat the Welcome asks for,
// and after a lost link reconnection with backoff (0.2 s doubling to 2 s)
// for 30 s, or for as long as the server may still hold the player's seat
// when that is longer, saying so as ttt-client does.

import {decodeMessage, encodeMessage} from './wire.js';

const PROTOCOL_VERSION = 1;
// What the page calls itself in its Hello (the version is the project's).
const CLIENT = 'ttt-web 0.1.0';
const RETRY_MS = 30000;
// Errors after which trying again can't help.
const FINAL_ERRORS = new Set([
  'ERROR_CODE_REPLACED',
  'ERROR_CODE_VERSION_UNSUPPORTED',
  'ERROR_CODE_NAME_TAKEN',
  'ERROR_CODE_SESSION_ACTIVE',
  'ERROR_CODE_BAD_FRAME',
  'ERROR_CODE_FRAME_TOO_LARGE',
  'ERROR_CODE_HELLO_REQUIRED',
  'ERROR_CODE_INTERNAL',
  'ERROR_CODE_TOO_MANY_NEW_NAMES',
  'ERROR_CODE_IDENTITY_LOCKED',
  'ERROR_CODE_TLS_REQUIRED',
]);

export class Link {
  // identity: {name, secret, token} (the token is replaced at every
  // Welcome through onToken). events: onMessage(message), onWelcome(welcome,
  // info), onNote(text), onLost(text) (gave up), onStatus(connected).
  constructor(identity, events) {
    this.identity = identity;
    this.events = events;
    this.socket = null;
    this.nextRequest = 1;
    this.welcome = null;
    this.established = false;  // a Welcome came on some link
    this.connected = false;
    this.seated = false;  // a player in a game in progress (the app says)
    this.lostAt = 0;
    this.retryUntil = 0;
    this.backoff = 200;
    this.timers = new Set();
    this.lastHeard = 0;
    this.lastPing = 0;
    this.heartbeat = null;
    this.closedForGood = false;
    this.usedToken = false;
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}/ws`;
  }

  start() {
    this.open();
  }

  open() {
    if (this.closedForGood) return;
    const socket = new WebSocket(this.url());
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      const hello = {
        protocol_version: PROTOCOL_VERSION,
        client: CLIENT,
      };
      if (this.identity.token) {
        hello.resume_token = this.identity.token;
        this.usedToken = true;
      } else {
        hello.name = this.identity.name;
        hello.secret = this.identity.secret;
        this.usedToken = false;
      }
      this.sendNow({hello});
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      let message;
      try {
        message = decodeMessage('ServerMessage', new Uint8Array(event.data));
      } catch (e) {
        this.events.onNote(`The server sent a message the page can't read (${e.message}).`);
        return;
      }
      this.receive(message);
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      this.dropped(
          event.reason || (event.code === 1006 ? 'connection closed' : `closed (${event.code})`));
    };
    socket.onerror = () => {};
  }

  receive(message) {
    if (message.body === 'ping') {
      this.sendNow({pong: {nonce: message.ping.nonce}});
      return;
    }
    if (message.body === 'pong') return;
    if (message.body === 'welcome') {
      const resumedFrom = this.lostAt;
      this.welcome = message.welcome;
      this.connected = true;
      this.lostAt = 0;
      this.backoff = 200;
      this.clearTimers();
      this.startHeartbeat();
      this.identity.token = message.welcome.resume_token;
      const info = {reconnected: resumedFrom > 0 || this.established, byToken: this.usedToken};
      this.established = true;
      this.events.onStatus(true);
      this.events.onWelcome(message.welcome, info);
      return;
    }
    if (message.body === 'error') {
      const code = message.error.code;
      if (code === 'ERROR_CODE_BAD_RESUME_TOKEN') {
        // The server no longer knows the session: the name and its secret.
        this.identity.token = '';
        this.events.onNote(
            `The server no longer holds this session: signing in again as ${this.identity.name}.`);
        this.usedToken = false;
        this.sendNow({
          hello: {
            protocol_version: PROTOCOL_VERSION,
            client: CLIENT,
            name: this.identity.name,
            secret: this.identity.secret
          }
        });
        return;
      }
      if (message.error.fatal && FINAL_ERRORS.has(code)) {
        this.closedForGood = true;
        this.events.onMessage(message);
        this.events.onLost(message.error.text, code);
        this.shutdown();
        return;
      }
    }
    if (message.body === 'goodbye') {
      this.events.onNote(`The server says goodbye: ${message.goodbye.reason}`);
    }
    this.events.onMessage(message);
  }

  // A request; returns its request id (0 when it could not be sent).
  send(body) {
    if (!this.connected) return 0;
    const id = this.nextRequest++;
    this.sendNow({request_id: id, ...body});
    return id;
  }

  sendNow(message) {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(encodeMessage('ClientMessage', message));
    return true;
  }

  startHeartbeat() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    const w = this.welcome;
    const every = w.heartbeat_ms || 15000;
    const deadAfter = w.heartbeat_timeout_ms || 25000;
    this.heartbeat = setInterval(() => {
      if (!this.connected) return;
      const silent = Date.now() - this.lastHeard;
      if (silent >= deadAfter) {
        const socket = this.socket;
        this.socket = null;
        if (socket) socket.close();
        this.dropped(`no answer for ${Math.round(silent / 1000)} s`);
      } else if (silent >= every && Date.now() - this.lastPing >= every) {
        this.lastPing = Date.now();
        this.sendNow({ping: {nonce: Date.now()}});
      }
    }, 250);
  }

  // The seat-holding period: how long to keep trying.
  retryPeriod() {
    const w = this.welcome;
    if (this.seated && w) {
      const seat = (w.reconnect_grace_ms || 0) + (w.heartbeat_timeout_ms || 0) + 5000;
      return Math.max(RETRY_MS, seat);
    }
    return RETRY_MS;
  }

  dropped(reason) {
    this.connected = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.events.onStatus(false);
    if (this.closedForGood) return;
    if (!this.established) {
      // Never got in: try again a few times, then say so.
      if (!this.lostAt) {
        this.lostAt = Date.now();
        this.retryUntil = this.lostAt + RETRY_MS;
      }
    } else if (!this.lostAt) {
      this.lostAt = Date.now();
      const period = this.retryPeriod();
      this.retryUntil = this.lostAt + period;
      const w = this.welcome;
      const seat = this.seated && w ?
          ` (the server holds your seat ${
              Math.round((w.reconnect_grace_ms || 0) / 1000)} s after it notices)` :
          '';
      this.events.onNote(`Connection lost (${reason}); reconnecting for up to ${
          Math.round(period / 1000)} s${seat}...`);
      this.scheduleReminders();
    }
    if (Date.now() >= this.retryUntil) {
      this.giveUp(reason);
      return;
    }
    const wait = this.backoff;
    this.backoff = Math.min(this.backoff * 2, 2000);
    this.later(() => this.open(), wait);
  }

  scheduleReminders() {
    const left = () => Math.round((this.retryUntil - Date.now()) / 1000);
    const remind = () => {
      if (this.connected || this.closedForGood) return;
      const s = left();
      if (s <= 0) return;
      this.events.onNote(`Still reconnecting: ${s} s left.`);
      const next = s > 10 ? 10000 : s > 5 ? (s - 5) * 1000 : 0;
      if (next > 0) this.later(remind, next);
    };
    const first = this.retryUntil - Date.now() > 15000 ?
        10000 :
        Math.max(0, this.retryUntil - Date.now() - 5000);
    if (first > 0) this.later(remind, first);
  }

  giveUp(reason) {
    this.closedForGood = true;
    const seat = this.seated ? ', as long as the server could still hold your seat' : '';
    const period = Math.round((this.retryUntil - this.lostAt) / 1000);
    this.events.onLost(`lost the server at ${location.host} (${
        reason}) and could not reconnect within ${period} s${seat}`);
    this.shutdown();
  }

  later(fn, ms) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  clearTimers() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  // Closes for good (the page leaves or the identity changes).
  shutdown() {
    this.closedForGood = true;
    this.clearTimers();
    if (this.heartbeat) clearInterval(this.heartbeat);
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close(1000, 'bye');
    this.connected = false;
  }

  // Tries again at once (a "Reconnect" button after giving up).
  retryNow() {
    this.closedForGood = false;
    this.lostAt = 0;
    this.backoff = 200;
    this.open();
  }
}
