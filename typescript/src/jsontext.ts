/**
 * JSON text for the proto3 JSON mapping: a tree that keeps object members in document
 * order and numbers as written (exact integers stay exact), read by a parser that refuses
 * a key twice in one object (which `JSON.parse` silently merges), and its writer.
 */

/** Why a JSON text does not map to a message, or a message has no proto3 JSON form. */
export class JsonError extends Error {
  /** The JSON path of the offending value, `$` being the document (`$.lines[3].sku`). */
  readonly path: string;
  /** What is wrong there. */
  readonly detail: string;

  /** An error at `path` (rendered now: a {@link JsonPath} keeps changing). */
  constructor(path: string | JsonPath, detail: string) {
    const p = String(path);
    super(p === "" ? detail : `${p}: ${detail}`);
    this.name = "JsonError";
    this.path = p;
    this.detail = detail;
  }
}

/**
 * Where in a JSON document the mapping is: a stack of member names and array indexes,
 * pushed and popped as it walks, rendered as text (`$.lines[3].sku`) only for an error,
 * so a walk allocates nothing per member for its paths.
 */
export class JsonPath {
  private readonly segs: (string | number)[] = [];

  /** Step into member `key` or element `index`. */
  push(seg: string | number): this {
    this.segs.push(seg);
    return this;
  }

  /** Step back out. */
  pop(): void {
    this.segs.pop();
  }

  /** `$` followed by each step. */
  toString(): string {
    let s = "$";
    for (const g of this.segs) s = typeof g === "number" ? `${s}[${g}]` : memberPath(s, g);
    return s;
  }
}

/**
 * How deep arrays and objects may nest in JSON input: twice the largest message depth
 * limit (500), as in Rust. proto3 JSON spends up to two levels per message (a repeated or
 * map field's container, then the message's object), so serde_json's default of 128
 * refused the JSON of values the binary decoder accepts at the default depth (100).
 */
const MAX_JSON_NESTING = 1000;


/** A JSON number as written: its text (exact integers stay exact). */
export class JNum {
  constructor(
    readonly text: string,
    readonly value: number,
  ) {}
}
/** A JSON object: members in document order. */
export class JObj {
  constructor(readonly members: [string, J][]) {}
}
export type J = null | boolean | string | JNum | J[] | JObj;

export function kindOf(j: J): string {
  if (j === null) return "null";
  if (typeof j === "boolean") return "a bool";
  if (typeof j === "string") return "a string";
  if (j instanceof JNum) return "a number";
  if (Array.isArray(j)) return "an array";
  return "an object";
}

/** `$.name` for identifier-like keys, `$["odd key"]` otherwise. */
export function memberPath(parent: string, key: string): string {
  return /^[A-Za-z0-9_@]+$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

class Parser {
  pos = 0;
  constructor(readonly s: string) {}

  fail(what: string): never {
    throw new JsonError("", `${what} at character ${this.pos}`);
  }

  ws(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else break;
    }
  }

  readonly path = new JsonPath();

  document(): J {
    this.ws();
    const v = this.value(0);
    this.ws();
    if (this.pos !== this.s.length) this.fail("trailing characters");
    return v;
  }

  value(nesting: number): J {
    const s = this.s;
    const c = s[this.pos];
    if (c === "{" || c === "[") {
      if (nesting >= MAX_JSON_NESTING) this.fail(`arrays and objects nest deeper than ${MAX_JSON_NESTING}`);
      return c === "{" ? this.object(nesting + 1) : this.array(nesting + 1);
    }
    if (c === '"') return this.string();
    if (s.startsWith("true", this.pos)) {
      this.pos += 4;
      return true;
    }
    if (s.startsWith("false", this.pos)) {
      this.pos += 5;
      return false;
    }
    if (s.startsWith("null", this.pos)) {
      this.pos += 4;
      return null;
    }
    return this.number();
  }

  object(nesting: number): JObj {
    this.pos++;
    const members: [string, J][] = [];
    // Large objects (maps, Structs) check duplicates through a set: no quadratic scan.
    const keys = new Set<string>();
    this.ws();
    if (this.s[this.pos] === "}") {
      this.pos++;
      return new JObj(members);
    }
    for (;;) {
      this.ws();
      if (this.s[this.pos] !== '"') this.fail("expected a member name");
      const key = this.string();
      if (keys.has(key)) {
        throw new JsonError("", `duplicate key ${JSON.stringify(key)} in the object at ${this.path}`);
      }
      keys.add(key);
      this.ws();
      if (this.s[this.pos] !== ":") this.fail("expected ':'");
      this.pos++;
      this.ws();
      this.path.push(key);
      members.push([key, this.value(nesting)]);
      this.path.pop();
      this.ws();
      const c = this.s[this.pos++];
      if (c === "}") return new JObj(members);
      if (c !== ",") this.fail("expected ',' or '}'");
    }
  }

  array(nesting: number): J[] {
    this.pos++;
    const items: J[] = [];
    this.ws();
    if (this.s[this.pos] === "]") {
      this.pos++;
      return items;
    }
    for (;;) {
      this.ws();
      this.path.push(items.length);
      items.push(this.value(nesting));
      this.path.pop();
      this.ws();
      const c = this.s[this.pos++];
      if (c === "]") return items;
      if (c !== ",") this.fail("expected ',' or ']'");
    }
  }

  string(): string {
    const s = this.s;
    this.pos++;
    let out = "";
    let start = this.pos;
    for (;;) {
      if (this.pos >= s.length) this.fail("unterminated string");
      const c = s.charCodeAt(this.pos);
      if (c === 0x22) {
        out += s.slice(start, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail("control character in a string");
      if (c >= 0xd800 && c <= 0xdfff) {
        // The text itself may hold a lone surrogate only if it came from a JS string.
        const pair = c < 0xdc00 && (s.charCodeAt(this.pos + 1) & 0xfc00) === 0xdc00;
        if (!pair) this.fail("lone surrogate in a string");
        this.pos += 2;
        continue;
      }
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += s.slice(start, this.pos);
      const e = s[this.pos + 1];
      this.pos += 2;
      switch (e) {
        case '"':
        case "\\":
        case "/":
          out += e;
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const u = this.hex4();
          if (u >= 0xd800 && u < 0xdc00) {
            if (s[this.pos] !== "\\" || s[this.pos + 1] !== "u") this.fail("lone leading surrogate");
            this.pos += 2;
            const lo = this.hex4();
            if (lo < 0xdc00 || lo > 0xdfff) this.fail("lone leading surrogate");
            out += String.fromCharCode(u, lo);
          } else if (u >= 0xdc00 && u <= 0xdfff) {
            this.fail("lone trailing surrogate");
          } else out += String.fromCharCode(u);
          break;
        }
        default:
          this.fail("invalid escape");
      }
      start = this.pos;
    }
  }

  hex4(): number {
    const h = this.s.slice(this.pos, this.pos + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(h)) this.fail("invalid \\u escape");
    this.pos += 4;
    return parseInt(h, 16);
  }

  number(): JNum {
    const m = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
    m.lastIndex = this.pos;
    const r = m.exec(this.s);
    if (r === null || r[0] === "" || r[0] === "-") this.fail("expected a value");
    this.pos += r[0].length;
    const value = Number(r[0]);
    if (!Number.isFinite(value)) this.fail("number out of range");
    return new JNum(r[0], value);
  }
}

/** Parse one JSON document, refusing duplicate keys. */
export function parse(text: string): J {
  return new Parser(text).document();
}

/** A plain JavaScript JSON value (as `JSON.parse` returns) as the tree. */
export function fromPlain(v: unknown, path: JsonPath, nesting: number): J {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new JsonError(path, "a number must be finite");
    return new JNum(Object.is(v, -0) ? "-0.0" : String(v), v);
  }
  if (nesting >= MAX_JSON_NESTING) throw new JsonError(path, `arrays and objects nest deeper than ${MAX_JSON_NESTING}`);
  if (Array.isArray(v)) {
    return v.map((x, i) => {
      path.push(i);
      const j = fromPlain(x, path, nesting + 1);
      path.pop();
      return j;
    });
  }
  if (typeof v === "object") {
    return new JObj(
      Object.entries(v as object).map(([k, x]) => {
        path.push(k);
        const j = fromPlain(x, path, nesting + 1);
        path.pop();
        return [k, j];
      }),
    );
  }
  throw new JsonError(path, `${typeof v} is not a JSON value`);
}


export function write(j: J, indent: number, level: number): string {
  if (j === null) return "null";
  if (typeof j === "boolean") return j ? "true" : "false";
  if (typeof j === "string") return JSON.stringify(j);
  if (j instanceof JNum) return j.text;
  const nl = indent > 0 ? "\n" + " ".repeat(indent * (level + 1)) : "";
  const end = indent > 0 ? "\n" + " ".repeat(indent * level) : "";
  if (Array.isArray(j)) {
    if (j.length === 0) return "[]";
    return "[" + j.map((x) => nl + write(x, indent, level + 1)).join(",") + end + "]";
  }
  if (j.members.length === 0) return "{}";
  const sep = indent > 0 ? ": " : ":";
  const members = j.members.map(([k, x]) => nl + JSON.stringify(k) + sep + write(x, indent, level + 1));
  return "{" + members.join(",") + end + "}";
}
