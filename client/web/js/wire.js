// The wire: protobuf's binary encoding of ttt.proto's messages, driven by
// the schema the server publishes at /wire.json (made from its own
// descriptors), so the page and the server never disagree on the protocol.
// Messages are plain objects with the fields' names from ttt.proto
// (snake_case); enums are their names ("SIDE_X"); 64-bit integers are
// Numbers while exact, BigInts beyond. Decoding fills proto3's defaults.

let schema = null;

export async function loadSchema() {
  const response = await fetch('/wire.json', {cache: 'no-cache'});
  if (!response.ok) throw new Error(`the server's protocol schema: HTTP ${response.status}`);
  const raw = await response.json();
  const messages = new Map();
  for (const [name, fields] of Object.entries(raw.messages)) {
    const byNumber = new Map();
    const list = fields.map(([number, field, type, repeated, typeName, oneof]) => {
      const f = {number, name: field, type, repeated: repeated === 1, typeName, oneof};
      byNumber.set(number, f);
      return f;
    });
    messages.set(name, {fields: list, byNumber});
  }
  const enums = new Map();
  for (const [name, values] of Object.entries(raw.enums)) {
    const byName = new Map(Object.entries(values));
    const byValue = new Map(Object.entries(values).map(([k, v]) => [v, k]));
    enums.set(name, {byName, byValue});
  }
  schema = {messages, enums};
}

const PACKAGE = 'ttt.wire.';

function messageType(name) {
  const full = name.startsWith(PACKAGE) ? name : PACKAGE + name;
  const type = schema && schema.messages.get(full);
  if (!type) throw new Error(`unknown message type ${name}`);
  return type;
}

// --- encoding ---------------------------------------------------------------

class Writer {
  constructor() {
    this.bytes = [];
  }
  varint(value) {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.bytes.push(Number(v));
  }
  small(value) {
    // Numbers below 2^31 without BigInt: the common case (tags, lengths, ints).
    if (value >= 0 && value < 0x80000000) {
      while (value >= 0x80) {
        this.bytes.push((value & 0x7f) | 0x80);
        value >>>= 7;
      }
      this.bytes.push(value);
    } else {
      this.varint(value);
    }
  }
  tag(number, wireType) {
    this.small(number * 8 + wireType);
  }
  raw(array) {
    for (const b of array) this.bytes.push(b);
  }
  result() {
    return new Uint8Array(this.bytes);
  }
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', {fatal: false});

function enumNumber(field, value) {
  if (typeof value === 'number') return value;
  const e = schema.enums.get(field.typeName);
  const n = e && e.byName.get(String(value));
  if (n === undefined) throw new Error(`${value} is not a value of ${field.typeName}`);
  return n;
}

function encodeScalar(w, field, value) {
  switch (field.type) {
    case 'bool':
      w.tag(field.number, 0);
      w.small(value ? 1 : 0);
      return;
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'uint64':
      w.tag(field.number, 0);
      w.varint(value);
      return;
    case 'sint32':
    case 'sint64': {
      const v = BigInt(value);
      w.tag(field.number, 0);
      w.varint(v >= 0n ? v * 2n : -v * 2n - 1n);
      return;
    }
    case 'enum':
      w.tag(field.number, 0);
      w.varint(enumNumber(field, value));
      return;
    case 'double': {
      const b = new DataView(new ArrayBuffer(8));
      b.setFloat64(0, Number(value), true);
      w.tag(field.number, 1);
      w.raw(new Uint8Array(b.buffer));
      return;
    }
    case 'float': {
      const b = new DataView(new ArrayBuffer(4));
      b.setFloat32(0, Number(value), true);
      w.tag(field.number, 5);
      w.raw(new Uint8Array(b.buffer));
      return;
    }
    case 'fixed32':
    case 'sfixed32': {
      const b = new DataView(new ArrayBuffer(4));
      b.setUint32(0, Number(value) >>> 0, true);
      w.tag(field.number, 5);
      w.raw(new Uint8Array(b.buffer));
      return;
    }
    case 'fixed64':
    case 'sfixed64': {
      const b = new DataView(new ArrayBuffer(8));
      b.setBigUint64(0, BigInt.asUintN(64, BigInt(value)), true);
      w.tag(field.number, 1);
      w.raw(new Uint8Array(b.buffer));
      return;
    }
    case 'string':
    case 'bytes': {
      const data = field.type === 'string' ? utf8Encoder.encode(String(value)) : value;
      w.tag(field.number, 2);
      w.small(data.length);
      w.raw(data);
      return;
    }
    case 'message': {
      const inner = encodeMessage(field.typeName, value);
      w.tag(field.number, 2);
      w.small(inner.length);
      w.raw(inner);
      return;
    }
    default:
      throw new Error(`field type ${field.type} is not supported`);
  }
}

function isDefault(field, value) {
  if (value === undefined || value === null) return true;
  if (field.type === 'message') return false;
  if (field.oneof) return false;  // a oneof member is sent even at its default
  if (field.type === 'string') return value === '';
  if (field.type === 'bool') return value === false;
  if (field.type === 'enum') return enumNumber(field, value) === 0;
  return value === 0 || value === 0n;
}

export function encodeMessage(name, object) {
  const type = messageType(name);
  const w = new Writer();
  for (const field of type.fields) {
    const value = object[field.name];
    if (field.repeated) {
      for (const item of value || []) encodeScalar(w, field, item);
    } else if (!isDefault(field, value)) {
      encodeScalar(w, field, value);
    }
  }
  return w.result();
}

// --- decoding ---------------------------------------------------------------

class Reader {
  constructor(bytes, start = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = start;
    this.end = end;
  }
  varint() {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.end) throw new Error('a message cut short');
      const b = this.bytes[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 63n) throw new Error('a varint longer than 10 bytes');
    }
  }
  small() {
    // Up to 28 bits without BigInt, else the long way.
    let result = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (this.pos >= this.end) throw new Error('a message cut short');
      const b = this.bytes[this.pos++];
      result |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
    }
    this.pos -= 4;
    return toNumber(this.varint());
  }
  take(n) {
    if (n < 0 || this.pos + n > this.end) throw new Error('a field longer than its message');
    const start = this.pos;
    this.pos += n;
    return [start, this.pos];
  }
}

function toNumber(big) {
  return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= -BigInt(Number.MAX_SAFE_INTEGER) ?
      Number(big) :
      big;
}

function defaultOf(field) {
  if (field.repeated) return [];
  switch (field.type) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'bytes':
      return new Uint8Array(0);
    case 'enum': {
      const e = schema.enums.get(field.typeName);
      return (e && e.byValue.get(0)) || 0;
    }
    case 'message':
      return undefined;
    default:
      return 0;
  }
}

function decodeValue(field, reader, wireType) {
  const t = field.type;
  if (wireType === 0) {
    const v = reader.varint();
    if (t === 'bool') return v !== 0n;
    if (t === 'enum') {
      const n = Number(BigInt.asIntN(32, v));
      const e = schema.enums.get(field.typeName);
      return (e && e.byValue.get(n)) ?? n;
    }
    if (t === 'int32') return Number(BigInt.asIntN(32, v));
    if (t === 'uint32') return Number(BigInt.asUintN(32, v));
    if (t === 'int64') return toNumber(BigInt.asIntN(64, v));
    if (t === 'sint32' || t === 'sint64') return toNumber(v & 1n ? -(v >> 1n) - 1n : v >> 1n);
    return toNumber(BigInt.asUintN(64, v));
  }
  if (wireType === 1) {
    const [start] = reader.take(8);
    const view = new DataView(reader.bytes.buffer, reader.bytes.byteOffset + start, 8);
    if (t === 'double') return view.getFloat64(0, true);
    if (t === 'sfixed64') return toNumber(view.getBigInt64(0, true));
    return toNumber(view.getBigUint64(0, true));
  }
  if (wireType === 5) {
    const [start] = reader.take(4);
    const view = new DataView(reader.bytes.buffer, reader.bytes.byteOffset + start, 4);
    if (t === 'float') return view.getFloat32(0, true);
    if (t === 'sfixed32') return view.getInt32(0, true);
    return view.getUint32(0, true);
  }
  if (wireType === 2) {
    const length = reader.small();
    const [start, end] = reader.take(length);
    if (t === 'string') return utf8Decoder.decode(reader.bytes.subarray(start, end));
    if (t === 'bytes') return reader.bytes.slice(start, end);
    if (t === 'message') return decodeRange(field.typeName, reader.bytes, start, end);
    // A packed repeated scalar.
    const inner = new Reader(reader.bytes, start, end);
    const values = [];
    const packedType = t === 'double' || t === 'fixed64' || t === 'sfixed64' ? 1 :
        t === 'float' || t === 'fixed32' || t === 'sfixed32'                 ? 5 :
                                                                               0;
    while (inner.pos < inner.end) values.push(decodeValue(field, inner, packedType));
    return values;
  }
  throw new Error(`wire type ${wireType} is not supported`);
}

function skip(reader, wireType) {
  if (wireType === 0)
    reader.varint();
  else if (wireType === 1)
    reader.take(8);
  else if (wireType === 5)
    reader.take(4);
  else if (wireType === 2)
    reader.take(reader.small());
  else
    throw new Error(`wire type ${wireType} can't be skipped`);
}

function decodeRange(name, bytes, start, end) {
  const type = messageType(name);
  const out = {};
  for (const field of type.fields) {
    if (!field.oneof) out[field.name] = defaultOf(field);
  }
  const reader = new Reader(bytes, start, end);
  while (reader.pos < reader.end) {
    const key = reader.small();
    const number = Math.floor(key / 8);
    const wireType = key & 7;
    const field = type.byNumber.get(number);
    if (!field) {
      skip(reader, wireType);  // a newer server's field: ignored, as protobuf does
      continue;
    }
    const value = decodeValue(field, reader, wireType);
    if (field.repeated) {
      if (Array.isArray(value) && field.type !== 'message' && field.type !== 'string' &&
          field.type !== 'bytes') {
        out[field.name].push(...value);
      } else {
        out[field.name].push(value);
      }
    } else {
      if (field.oneof) {
        for (const other of type.fields) {
          if (other.oneof === field.oneof && other !== field) delete out[other.name];
        }
        out[field.oneof] = field.name;
      }
      out[field.name] = value;
    }
  }
  return out;
}

// Decodes bytes as the named message; throws on malformed input.
export function decodeMessage(name, bytes) {
  return decodeRange(name, bytes, 0, bytes.length);
}
