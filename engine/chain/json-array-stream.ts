/**
 * An incremental scanner of one JSON document arriving in chunks: it hands over, as soon as each is complete, the
 * raw bytes of every element of chosen arrays (`result.value` of a JSON-RPC answer) and of chosen values
 * (`result.context`, `error`), without ever holding the whole document. The scan only finds where values start
 * and end (strings, nesting); what an element means is its caller's business (each one is small enough for
 * `JSON.parse`). Used to read `getProgramAccounts` answers that are hundreds of megabytes on mainnet, larger than
 * the longest string V8 can make.
 */
import { EngineError } from '../errors.js';

/** What a {@link JsonArrayStream} hands over. */
export interface JsonStreamTargets {
  /** Paths of arrays (object keys from the root) whose elements are handed over one by one. */
  readonly arrays: readonly (readonly string[])[];
  /** Paths of values handed over whole once complete. */
  readonly values: readonly (readonly string[])[];
}

/** Receivers of a {@link JsonArrayStream}: `target` is the index of the path in its list. */
export interface JsonStreamSink {
  element(bytes: Uint8Array, target: number): void;
  value(bytes: Uint8Array, target: number): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** A container the scan walks through (the root object, `result`, a target array). */
interface Frame {
  readonly isObject: boolean;
  readonly path: readonly string[];
  /** Index of the array target this frame is, or -1. */
  readonly arrayTarget: number;
  /** Current key (objects). */
  key: string | null;
  expectKey: boolean;
}

/** A value being skipped or collected, possibly across chunks. */
interface Pending {
  /** 0: skipped; 1: an element of `target`; 2: the value of `target`. */
  readonly kind: 0 | 1 | 2;
  readonly target: number;
  /** Nesting depth of `{` and `[` inside the value; 0 for a string or scalar value. */
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** A number, true, false or null: ends before the first delimiter. */
  readonly scalar: boolean;
  /** Earlier chunks' bytes of the value (collected kinds only). */
  readonly parts: Uint8Array[];
}

/** Incremental scanner; see the file comment. `write` each chunk in order, then `end`. */
export class JsonArrayStream {
  private readonly frames: Frame[] = [];
  private pending: Pending | null = null;
  /** Bytes of a key being read (a key split across chunks). */
  private keyBytes: number[] | null = null;
  private keyEscaped = false;
  private started = false;
  private done = false;
  /** Index of the next backslash at or after the scan in the current chunk (-1: none left), found once per chunk
   * and again only once passed: a search per string would rescan the chunk for every string. */
  private backslashAt = -1;

  constructor(
    private readonly targets: JsonStreamTargets,
    private readonly sink: JsonStreamSink,
  ) {}

  /** Scans the next chunk of the document. */
  write(chunk: Uint8Array): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let i = 0;
    let valueStart = 0;
    const n = buf.length;
    this.backslashAt = buf.indexOf(BACKSLASH, 0);
    while (i < n) {
      const p = this.pending;
      if (p !== null) {
        const end = this.scanValue(buf, i, p);
        if (end < 0) {
          // A copy: the stream may reuse the chunk's memory once it is handed back.
          if (p.kind !== 0) p.parts.push(Buffer.from(buf.subarray(valueStart, n)));
          return;
        }
        // `end` is the index just past the value.
        this.pending = null;
        if (p.kind !== 0) {
          const tail = buf.subarray(valueStart, end);
          const bytes = p.parts.length === 0 ? tail : Buffer.concat([...p.parts, tail]);
          if (p.kind === 1) this.sink.element(bytes, p.target);
          else this.sink.value(bytes, p.target);
        }
        i = end;
        continue;
      }
      if (this.keyBytes !== null) {
        i = this.scanKey(buf, i);
        continue;
      }
      const c = buf[i]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      if (this.done) throw new EngineError('RPC_BAD_JSON', 'bytes after the end of the JSON document');
      const frame = this.frames.length > 0 ? this.frames[this.frames.length - 1]! : null;
      if (frame !== null && (c === CLOSE_OBJECT || c === CLOSE_ARRAY)) {
        if ((c === CLOSE_OBJECT) !== frame.isObject) throw new EngineError('RPC_BAD_JSON', 'mismatched bracket');
        this.frames.pop();
        if (this.frames.length === 0) this.done = true;
        i++;
        continue;
      }
      if (frame !== null && c === COMMA) {
        if (frame.isObject) frame.expectKey = true;
        i++;
        continue;
      }
      if (frame !== null && frame.isObject && frame.expectKey) {
        if (c !== QUOTE) throw new EngineError('RPC_BAD_JSON', 'expected an object key');
        this.keyBytes = [];
        this.keyEscaped = false;
        i++;
        continue;
      }
      if (frame !== null && frame.isObject && c === COLON) {
        i++;
        continue;
      }
      // A value starts here.
      valueStart = i;
      i = this.startValue(buf, i, frame, c);
      if (this.pending === null) valueStart = i;
    }
    // The chunk ended right after a collected value's first byte.
    const p = this.pending;
    if (p !== null && p.kind !== 0 && valueStart < n) p.parts.push(Buffer.from(buf.subarray(valueStart, n)));
  }

  /** Checks that the document was complete. */
  end(): void {
    if (!this.done || this.pending !== null || this.keyBytes !== null) throw new EngineError('RPC_BAD_JSON', 'the JSON document ended early');
  }

  /** Decides what the value starting at `i` is to the scan; returns where scanning goes on. */
  private startValue(buf: Buffer, i: number, frame: Frame | null, c: number): number {
    if (frame === null && this.started) throw new EngineError('RPC_BAD_JSON', 'more than one JSON value');
    // A document that is a lone scalar or string (an HTML error page is not JSON at all) is refused.
    if (frame === null && c !== OPEN_OBJECT && c !== OPEN_ARRAY) throw new EngineError('RPC_BAD_JSON', 'the answer is not a JSON object');
    this.started = true;
    const path = frame === null ? [] : frame.isObject ? [...frame.path, frame.key ?? ''] : null;
    const collect = (kind: 1 | 2, target: number) => this.begin(i, c, kind, target);
    if (frame !== null && frame.arrayTarget >= 0) return collect(1, frame.arrayTarget);
    if (path !== null) {
      const value = this.targets.values.findIndex((t) => samePath(t, path));
      if (value >= 0) return collect(2, value);
      if (c === OPEN_ARRAY) {
        const array = this.targets.arrays.findIndex((t) => samePath(t, path));
        if (array >= 0) {
          this.frames.push({ isObject: false, path, arrayTarget: array, key: null, expectKey: false });
          return i + 1;
        }
      }
      if (c === OPEN_OBJECT && [...this.targets.arrays, ...this.targets.values].some((t) => isPrefix(path, t))) {
        this.frames.push({ isObject: true, path, arrayTarget: -1, key: null, expectKey: true });
        return i + 1;
      }
    }
    return this.begin(i, c, 0, -1);
  }

  /** Starts a value to skip or collect at `i`; scanning resumes at `i + 1` (or `i` for a scalar). */
  private begin(i: number, c: number, kind: 0 | 1 | 2, target: number): number {
    const container = c === OPEN_OBJECT || c === OPEN_ARRAY;
    const str = c === QUOTE;
    this.pending = { kind, target, depth: container ? 1 : 0, inString: str, escaped: false, scalar: !container && !str, parts: [] };
    return container || str ? i + 1 : i;
  }

  /** Scans a pending value from `i`; returns the index just past its end, or -1 when the chunk ends first. */
  private scanValue(buf: Buffer, i: number, p: Pending): number {
    const n = buf.length;
    if (p.scalar) {
      while (i < n) {
        const c = buf[i]!;
        if (c === COMMA || c === CLOSE_ARRAY || c === CLOSE_OBJECT || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return i;
        i++;
      }
      return -1;
    }
    while (i < n) {
      if (p.inString) {
        if (p.escaped) {
          p.escaped = false;
          i++;
          continue;
        }
        // Why indexOf: the strings (base64 data, base58 keys) are nearly all of the bytes; memchr skips them.
        const q = buf.indexOf(QUOTE, i);
        if (this.backslashAt >= 0 && this.backslashAt < i) this.backslashAt = buf.indexOf(BACKSLASH, i);
        const b = this.backslashAt;
        if (b >= 0 && (q < 0 || b < q)) {
          p.escaped = true;
          i = b + 1;
          continue;
        }
        if (q < 0) return -1;
        p.inString = false;
        i = q + 1;
        if (p.depth === 0) return i;
        continue;
      }
      const c = buf[i]!;
      if (c === QUOTE) p.inString = true;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) p.depth++;
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        p.depth--;
        if (p.depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }

  /** Reads the key being read from `i`; returns where scanning goes on. */
  private scanKey(buf: Buffer, i: number): number {
    const key = this.keyBytes!;
    const n = buf.length;
    while (i < n) {
      const c = buf[i++]!;
      if (this.keyEscaped) {
        this.keyEscaped = false;
        key.push(c);
      } else if (c === BACKSLASH) {
        this.keyEscaped = true;
        key.push(c);
      } else if (c === QUOTE) {
        const frame = this.frames[this.frames.length - 1]!;
        frame.key = String.fromCharCode(...key);
        frame.expectKey = false;
        this.keyBytes = null;
        return i;
      } else key.push(c);
    }
    return i;
  }
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/** True when `prefix` is a strict prefix of `path`. */
function isPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length < path.length && prefix.every((k, i) => k === path[i]);
}
