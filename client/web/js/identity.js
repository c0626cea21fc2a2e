// The player's identity on this server, kept in the browser's storage as
// ttt-client keeps its files (docs/client.md, "Name secrets"): the name,
// the secret that owns it (made here: 256 random bits as 64 hex digits,
// saved before the first Hello), and the last Welcome's resume token.
// Storage is per origin: one server, one identity. No cookies.

const KEY = 'ttt.identity';
// Every name this browser used here and its secret: switching names never
// loses one.
const SECRETS = 'ttt.secrets';

function secrets() {
  try {
    const all = JSON.parse(localStorage.getItem(SECRETS) || '{}');
    return all && typeof all === 'object' ? all : {};
  } catch {
    return {};
  }
}

// The secret this browser keeps for name, or "".
export function secretOf(name) {
  const s = secrets()[name];
  return typeof s === 'string' ? s : '';
}

export function newSecret() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function loadIdentity() {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const id = JSON.parse(raw);
    if (typeof id.name !== 'string' || typeof id.secret !== 'string') return null;
    return {name: id.name, secret: id.secret, token: typeof id.token === 'string' ? id.token : ''};
  } catch {
    return null;
  }
}

export function saveIdentity(identity) {
  try {
    localStorage.setItem(
        KEY,
        JSON.stringify(
            {name: identity.name, secret: identity.secret, token: identity.token || ''}));
    const all = secrets();
    all[identity.name] = identity.secret;
    localStorage.setItem(SECRETS, JSON.stringify(all));
  } catch {
    // Private browsing without storage: the identity lives as long as the page.
  }
}

// Signs out: the current name is forgotten (its secret stays kept).
export function forgetIdentity() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}

// A secret as ttt-client's files hold it: 32..128 of [0-9A-Za-z_-].
export function validSecret(text) {
  return /^[0-9A-Za-z_-]{32,128}$/.test(text);
}
