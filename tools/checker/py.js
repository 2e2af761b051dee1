// py.js — the few Python behaviours gm_check.py relies on, written once so
// the port reads like the original. Python's str methods, `re` classes and
// json.dumps differ from JavaScript's in small ways (Unicode \w and \d,
// whitespace sets, key order by code point); each difference that can
// change a verdict is handled here, never ad hoc in the checks.

class PyError extends Error {
  // pyType: "ValueError", "TypeError", "OSError", "KeyError"… as Python names it
  constructor(pyType, message) {
    super(message);
    this.pyType = pyType;
  }
}
function valueError(message) {
  return new PyError("ValueError", message);
}

// Python's str.isspace() characters (what str.split() and str.strip() use).
const PY_SPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
const PY_SPACE_SET = new Set(PY_SPACE);
function isSpace(ch) {
  return PY_SPACE_SET.has(ch);
}
// For RegExp sources: Python's \s, \w, \d, \W, \S, \D in str patterns.
const RE_S = "[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const RE_NS = "[^\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const RE_W = "[\\p{L}\\p{N}_]";
const RE_NW = "[^\\p{L}\\p{N}_]";
const RE_D = "\\p{Nd}";
const RE_ND = "\\P{Nd}";

// Compile a Python-style pattern: `\s \S \w \W \d \D` outside character
// classes are replaced by their Unicode meaning; inside a class, write the
// class out yourself (e.g. `[${RE_W.slice(1, -1)}-]`). Always the `u` flag.
function pyRe(source, flags = "") {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\" && i + 1 < source.length) {
      const n = source[i + 1];
      if (!inClass && "sSwWdD".includes(n)) {
        out += { s: RE_S, S: RE_NS, w: RE_W, W: RE_NW, d: RE_D, D: RE_ND }[n];
      } else {
        out += c + n;
      }
      i++;
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass) inClass = false;
    out += c;
  }
  return new RegExp(out, flags.includes("u") ? flags : flags + "u");
}

const _anchored = new WeakMap();
function _anchor(re, how) {
  let cache = _anchored.get(re);
  if (!cache) _anchored.set(re, (cache = {}));
  if (!cache[how]) {
    const flags = re.flags.replace(/[gy]/g, "");
    cache[how] = new RegExp(how === "full" ? `^(?:${re.source})$` : `^(?:${re.source})`, flags);
  }
  return cache[how];
}
// re.fullmatch(pattern, s): the match array (groups by index, .groups by name) or null.
function fullmatch(re, s) {
  return _anchor(re, "full").exec(s);
}
// re.match(pattern, s): anchored at the start only.
function rematch(re, s) {
  return _anchor(re, "start").exec(s);
}
// re.search(pattern, s).
function search(re, s) {
  const plain = re.global || re.sticky ? new RegExp(re.source, re.flags.replace(/[gy]/g, "")) : re;
  return plain.exec(s);
}
// re.finditer / re.findall: every match, left to right.
function finditer(re, s) {
  const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g");
  return [...s.matchAll(g)];
}
// m.group(name) as Python gives it: undefined (not matched) becomes null.
function group(m, name) {
  if (m === null) return null;
  const v = typeof name === "number" ? m[name] : m.groups ? m.groups[name] : undefined;
  return v === undefined ? null : v;
}

function pyStrip(s, chars) {
  return pyRstrip(pyLstrip(s, chars), chars);
}
function pyLstrip(s, chars) {
  const set = chars === undefined || chars === null ? PY_SPACE_SET : new Set(chars);
  let i = 0;
  while (i < s.length && set.has(s[i])) i++;
  return s.slice(i);
}
function pyRstrip(s, chars) {
  const set = chars === undefined || chars === null ? PY_SPACE_SET : new Set(chars);
  let j = s.length;
  while (j > 0 && set.has(s[j - 1])) j--;
  return s.slice(0, j);
}
// str.split(sep=None, maxsplit=-1)
function pySplit(s, sep, maxsplit = -1) {
  if (sep === undefined || sep === null) {
    const out = [];
    let i = 0;
    const n = s.length;
    while (i < n) {
      while (i < n && PY_SPACE_SET.has(s[i])) i++;
      if (i >= n) break;
      if (maxsplit >= 0 && out.length === maxsplit) {
        out.push(pyRstrip(s.slice(i)));
        return out;
      }
      let j = i;
      while (j < n && !PY_SPACE_SET.has(s[j])) j++;
      out.push(s.slice(i, j));
      i = j;
    }
    return out;
  }
  if (sep === "") throw valueError("empty separator");
  const parts = s.split(sep);
  if (maxsplit < 0 || parts.length <= maxsplit + 1) return parts;
  return [...parts.slice(0, maxsplit), parts.slice(maxsplit).join(sep)];
}
// str.splitlines() (keepends=False): Python's line boundaries.
function pySplitlines(s) {
  const out = [];
  const re = /\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/g;
  let last = 0;
  let m;
  while ((m = re.exec(s)) !== null) {
    out.push(s.slice(last, m.index));
    last = m.index + m[0].length;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}
// str.partition(sep)
function pyPartition(s, sep) {
  const i = s.indexOf(sep);
  return i < 0 ? [s, "", ""] : [s.slice(0, i), sep, s.slice(i + sep.length)];
}
function pyRpartition(s, sep) {
  const i = s.lastIndexOf(sep);
  return i < 0 ? ["", "", s] : [s.slice(0, i), sep, s.slice(i + sep.length)];
}
function removePrefix(s, p) {
  return p && s.startsWith(p) ? s.slice(p.length) : s;
}
function removeSuffix(s, p) {
  return p && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
}
function isDigitStr(s) {
  // str.isdigit() for what the checker reads (decimal digits; superscripts are not used)
  return s.length > 0 && /^\p{Nd}+$/u.test(s);
}
function isAsciiDigits(s) {
  return /^[0-9]+$/.test(s);
}

// int(text): Python accepts surrounding whitespace, a sign, underscores
// between digits and any Unicode decimal digit.
function pyInt(text) {
  const s = pyStrip(String(text));
  const m = /^([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)$/u.exec(s);
  if (!m) throw valueError(`invalid literal for int() with base 10: ${pyRepr(String(text))}`);
  let digits = "";
  for (const ch of m[2].replace(/_/g, "")) digits += String(_digitValue(ch));
  const value = Number(digits);
  return m[1] === "-" ? -value : value;
}
function _digitValue(ch) {
  const code = ch.codePointAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  // Unicode encodes each set of decimal digits as a contiguous run starting
  // at its zero, and some runs follow each other (U+1D7CE–U+1D7FF: five sets):
  // the value is the distance from the start of the run, modulo ten.
  let start = code;
  while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
  return (code - start) % 10;
}

// Python's // and % (floor division, sign of the divisor).
function floordiv(a, b) {
  return Math.floor(a / b);
}
function pymod(a, b) {
  return ((a % b) + b) % b;
}

// repr() of a str, as f"{x!r}" prints it.
function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (Array.isArray(value)) return "[" + value.map(pyRepr).join(", ") + "]";
  const s = String(value);
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).padStart(2, "0");
    else if (!_printable(ch)) {
      if (code <= 0xff) out += "\\x" + code.toString(16).padStart(2, "0");
      else if (code <= 0xffff) out += "\\u" + code.toString(16).padStart(4, "0");
      else out += "\\U" + code.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}
function _printable(ch) {
  // str.isprintable(): not in categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs (except the space)
  if (ch === " ") return true;
  return !/^[\p{C}\p{Z}]$/u.test(ch);
}

// str(value) as an f-string prints it.
function pyStr(value) {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (Array.isArray(value)) return pyRepr(value);
  return String(value);
}

// "…{0}…{1}".format(a, b) for the positional fields the checker uses.
function pyFormat(template, ...args) {
  return template.replace(/\{(\d+)\}/g, (_, i) => pyStr(args[Number(i)]));
}

// Python's ordering: numbers, strings by code point, arrays lexicographically.
function pyCmp(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = pyCmp(a[i], b[i]);
      if (c) return c;
    }
    return a.length - b.length;
  }
  if (typeof a === "string" && typeof b === "string") {
    const x = [...a];
    const y = [...b];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d) return d;
    }
    return x.length - y.length;
  }
  if (a === null || b === null) throw new PyError("TypeError", "'<' not supported with None");
  return a < b ? -1 : a > b ? 1 : 0;
}
// sorted(items, key=…) — stable, Python order.
function pySorted(items, key = (x) => x, reverse = false) {
  const decorated = [...items].map((item, i) => [key(item), i, item]);
  decorated.sort((p, q) => (reverse ? pyCmp(q[0], p[0]) : pyCmp(p[0], q[0])) || p[1] - q[1]);
  return decorated.map((d) => d[2]);
}

// A tuple used as a dict key or set member: one string per tuple.
function tk(...parts) {
  return JSON.stringify(parts);
}

// json.dumps: `compact` gives separators (",", ":"), else (", ", ": ");
// ensure_ascii=False; sort_keys by code point. Integers only (gm_check has no floats).
function jsonDumps(value, { sortKeys = false, compact = false } = {}) {
  const [itemSep, keySep] = compact ? [",", ":"] : [", ", ": "];
  const enc = (v) => {
    if (v === null || v === undefined) return "null";
    if (v === true) return "true";
    if (v === false) return "false";
    if (typeof v === "number") {
      if (!Number.isFinite(v)) throw new PyError("ValueError", "Out of range float values are not JSON compliant");
      return String(v);
    }
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "string") return JSON.stringify(v);
    if (Array.isArray(v)) return "[" + v.map(enc).join(itemSep) + "]";
    if (v instanceof Map) v = Object.fromEntries(v);
    let keys = Object.keys(v);
    if (sortKeys) keys = pySorted(keys);
    return "{" + keys.map((k) => JSON.stringify(k) + keySep + enc(v[k])).join(itemSep) + "}";
  };
  return enc(value);
}

// unicodedata.normalize and casefold.
function nfc(s) {
  return s.normalize("NFC");
}
function nfkd(s) {
  return s.normalize("NFKD");
}
function isCombining(ch) {
  // unicodedata.combining(ch) != 0. Nonspacing marks; the few of class 0
  // (U+034F, some Brahmic vowel signs) never occur in names gm accepts.
  return /^\p{Mn}$/u.test(ch);
}
function casefold(s) {
  return s.toLowerCase().replace(/ß/g, "ss").replace(/ς/g, "σ");
}

// collections.Counter, for what the checker counts.
class Counter extends Map {
  constructor(items = []) {
    super();
    for (const item of items) this.add(item);
  }
  add(item, n = 1) {
    this.set(item, (super.get(item) ?? 0) + n);
  }
  get(item) {
    return super.get(item) ?? 0;
  }
}
