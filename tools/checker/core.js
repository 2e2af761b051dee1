// core.js — gm_check.py's constants, the hashing contract (Web Crypto), the
// draws' stream, the Report and the digest checks (gm_check.py lines 1–350),
// then the small readers (1148–1306) and describe/fmtBills/parseDice/
// parseGroups (4080–4154). Everything that hashes is async.

const EXIT_OK = 0;
const EXIT_MISMATCH = 1;
const EXIT_UNREADABLE = 2;
const EXIT_UNCHECKED = 3;

const PREFIX = "sha256:";
// Hex digits a seal or fingerprint must have to be a proof (128 bits).
const MIN_DIGITS = 32;
// Hex digits of the players' words' mix in a draw label.
const MIX_DIGITS = 32;

const ORDER_KIND = "magot.order-set";
const FISTFUL_CARD = "fistful.card-played";
const FISTFUL_SETUP = "fistful.setup-discarded";
const FISTFUL_END = "fistful.end-chosen";
const COLT_CARD = "colt.card-hidden";
// Colt Express's action cards as posts name them, and as their seals hold them.
const COLT_CARDS = new Map([
  ["Déplacement", "deplacement"],
  ["Changement d'étage", "etage"],
  ["Marshal", "marshal"],
  ["Tir", "tir"],
  ["Braquage", "braquage"],
  ["Coup de poing", "poing"],
]);
// A bandit's 10 action cards in the order gm shuffles them; each bullet received adds a `balle`.
const COLT_DECK = [
  "deplacement", "deplacement", "etage", "etage", "marshal",
  "tir", "tir", "braquage", "braquage", "poing",
];
const COLT_CHARACTERS = ["Belle", "Cheyenne", "Django", "Doc", "Ghost", "Tuco"];
const COLT_ROUND_CARDS = [
  "Marshal en colère",
  "Bras pivotant",
  "Freinage",
  "Prenez tout !",
  "Rébellion des passagers",
  "Pont",
  "Tunnel",
];
// Round cards 1–4 are drawn among those not played yet, in this order; round 5 among the stations.
const COLT_STATIONS = ["La vengeance du Marshal", "Pickpocket", "Prise d'otage du conducteur"];
const COLT_PURSES_PER_CAR = new Map([[1, 3], [2, 0], [3, 1], [4, 3], [5, 4], [6, 1]]);
// The 18 purses; each bandit first takes a 250 $ one, the cars' purses are drawn from the rest.
const COLT_PURSE_STOCK = [250, 250, 250, 250, 250, 250, 250, 250, 300, 300, 350, 350, 400, 400, 450, 450, 500, 500];

// gm_check.py: slug
// A player's name as gm writes it in a draw's purpose (`round-2/deck/ana`).
function slug(name) {
  const folded = [...nfkd(name)].filter((c) => !isCombining(c)).join("");
  return pyStrip(casefold(nfc(folded)).replace(/[^a-z0-9]+/g, "-"), "-");
}

// --- the hashing contract -------------------------------------------------------

// A Python float (json.loads gives one for `1.0`, `1e5`, `NaN`): it has no
// canonical form, as in gm_check.py.
class PyFloat {
  constructor(text) {
    this.text = text;
  }
}

// gm_check.py: normalize
function normalize(value) {
  if (typeof value === "string") return nfc(value);
  if (value instanceof PyFloat || (typeof value === "number" && !Number.isInteger(value))) {
    throw new PyError("TypeError", "floats have no canonical form");
  }
  if (Array.isArray(value)) return value.map(normalize);
  if (value instanceof Map) {
    const out = new Map();
    for (const [k, v] of value) out.set(normalize(pyStr(k)), normalize(v));
    return out;
  }
  if (value !== null && typeof value === "object") {
    const out = new Map();
    for (const k of Object.keys(value)) out.set(normalize(k), normalize(value[k]));
    return out;
  }
  return value;
}

// gm_check.py: canonical_json
function canonicalJson(value) {
  return jsonDumps(normalize(value), { sortKeys: true, compact: true });
}

// str.encode("utf-8"): Python refuses a lone surrogate (a ValueError).
const _encoder = new TextEncoder();
function utf8Bytes(text) {
  const m = /\p{Cs}/u.exec(text);
  if (m) {
    const pos = [...text.slice(0, m.index)].length;
    throw valueError(
      `'utf-8' codec can't encode character '\\u${m[0].charCodeAt(0).toString(16)}' in position ${pos}: surrogates not allowed`,
    );
  }
  return _encoder.encode(text);
}
// A lone surrogate in a value stays raw in Python's canonical JSON (then
// fails to encode); jsonDumps escapes it, so the values are checked here.
function _refuseSurrogates(value) {
  if (typeof value === "string") utf8Bytes(value);
  else if (Array.isArray(value)) value.forEach(_refuseSurrogates);
  else if (value instanceof Map) for (const [k, v] of value) _refuseSurrogates(k), _refuseSurrogates(v);
}

function _hex(buffer) {
  let out = "";
  for (const b of new Uint8Array(buffer)) out += b.toString(16).padStart(2, "0");
  return out;
}
async function sha256Hex(bytes) {
  return _hex(await crypto.subtle.digest("SHA-256", bytes));
}
// canonical_json(value).encode("utf-8"): the bytes a seal or a mix hashes.
function canonicalUtf8(value) {
  const normal = normalize(value);
  _refuseSurrogates(normal);
  return utf8Bytes(jsonDumps(normal, { sortKeys: true, compact: true }));
}
async function _canonicalDigest(value) {
  return sha256Hex(canonicalUtf8(value));
}

// gm_check.py: seal
async function seal(kind, payload, salt) {
  return PREFIX + (await _canonicalDigest(new Map([["kind", kind], ["payload", payload], ["salt", salt]])));
}

// gm_check.py: commitment
async function commitment(seed) {
  return PREFIX + (await sha256Hex(utf8Bytes(seed)));
}

// gm_check.py: mix
// The players' words as a label mixes them: the first hex digits of SHA-256
// over the canonical JSON of `[[player, word], …]` (seating order).
async function mix(words, digits = MIX_DIGITS) {
  return (await _canonicalDigest(words.map(([player, word]) => [player, word]))).slice(0, digits);
}

// gm_check.py: label_for
// `purpose`, or `purpose+<mix>` when players sent words.
async function labelFor(purpose, words = []) {
  return purpose + (words.length ? `+${await mix(words)}` : "");
}

// HMAC keys by seed, and blocks by (seed, label, block): the checker draws
// the same streams again and again (each round's deck, each check).
const _hmacKeys = new Map();
const _blocks = new Map();
function _hmacKey(seed) {
  let key = _hmacKeys.get(seed);
  if (!key) {
    // Web Crypto refuses an empty key; HMAC pads a key with zero bytes to
    // its block size, so one zero byte is the same key as none.
    const bytes = seed ? utf8Bytes(seed) : new Uint8Array(1);
    key = crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    _hmacKeys.set(seed, key);
  }
  return key;
}
function _block(seed, label, n) {
  const id = tk(seed, label, n);
  let block = _blocks.get(id);
  if (!block) {
    const message = utf8Bytes(`${label}:${n}`);
    block = _hmacKey(seed).then(async (key) => new Uint8Array(await crypto.subtle.sign("HMAC", key, message)));
    _blocks.set(id, block);
  }
  return block;
}

// gm_check.py: stream
// The bytes of HMAC-SHA-256(seed, "<label>:<block>") for block 0, 1, 2…, read
// in order: Python's generator, as an async byte source.
class Stream {
  constructor(seed, label) {
    utf8Bytes(seed);
    utf8Bytes(label);
    this.seed = seed;
    this.label = label;
    this.blockNo = 0;
    this.bytes = new Uint8Array(0);
    this.pos = 0;
  }
  // The next `size` bytes.
  async take(size) {
    const out = [];
    while (out.length < size) {
      if (this.pos >= this.bytes.length) {
        this.bytes = await _block(this.seed, this.label, this.blockNo);
        this.blockNo += 1;
        this.pos = 0;
      }
      out.push(this.bytes[this.pos]);
      this.pos += 1;
    }
    return out;
  }
}
function stream(seed, label) {
  return new Stream(seed, label);
}

// gm_check.py: draw_below
// `n` is a number (a BigInt only for bounds beyond 2^53, from the command line);
// the result has the same type.
async function drawBelow(source, n) {
  const big = typeof n === "bigint";
  if (big ? n < 1n : n < 1) throw valueError(`N must be at least 1, got ${n}`);
  if (big ? n === 1n : n === 1) return big ? 0n : 0;
  if (!big && n <= 2 ** 48) {
    const bits = (n - 1).toString(2).length;
    const size = Math.floor((bits + 7) / 8);
    const modulus = 2 ** bits;
    for (;;) {
      let value = 0;
      for (const b of await source.take(size)) value = value * 256 + b;
      value %= modulus; // value & ((1 << bits) - 1), for a non-negative value
      if (value < n) return value;
    }
  }
  const bound = BigInt(n);
  const bits = (bound - 1n).toString(2).length;
  const size = Math.floor((bits + 7) / 8);
  const mask = (1n << BigInt(bits)) - 1n;
  for (;;) {
    let value = 0n;
    for (const b of await source.take(size)) value = (value << 8n) | BigInt(b);
    value &= mask;
    if (value < bound) return big ? value : Number(value);
  }
}

// gm_check.py: draws
async function draws(seed, label, bounds) {
  const source = stream(seed, label);
  const out = [];
  for (const n of bounds) out.push(await drawBelow(source, n));
  return out;
}

// gm_check.py: shuffle
// gm's `shuffle`: Fisher–Yates over the stream LABEL, for `i` from the last
// index down to 1, swapping item `i` with item `below(i + 1)`.
async function shuffle(seed, label, items) {
  const out = [...items];
  const source = stream(seed, label);
  for (let i = out.length - 1; i > 0; i--) {
    const j = await drawBelow(source, i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// --- reporting --------------------------------------------------------------------

// gm_check.py: Report
// Lines to print; whether anything differed or could not be checked.
class Report {
  // gm_check.py: __init__
  constructor() {
    this.lines = [];
    this.failed = false;
    this.unchecked = false;
    this.seen = new Set();
  }

  // gm_check.py: _add
  add(line) {
    if (!this.seen.has(line)) {
      // the same finding reached twice is said once
      this.seen.add(line);
      this.lines.push(line);
    }
  }

  // gm_check.py: ok
  ok(fr, en) {
    this.add(`OK : ${fr} / ${en}`);
  }

  // gm_check.py: bad
  bad(fr, en) {
    this.failed = true;
    this.add(`DIFFÉRENT : ${fr} / MISMATCH: ${en}`);
  }

  // gm_check.py: missing
  missing(fr, en) {
    this.unchecked = true;
    this.add(`NON VÉRIFIÉ : ${fr} / NOT CHECKED: ${en}`);
  }

  // gm_check.py: note
  note(fr, en) {
    this.add(`NOTE : ${fr} / ${en}`);
  }

  // gm_check.py: code
  get code() {
    if (this.failed) return EXIT_MISMATCH;
    return this.unchecked ? EXIT_UNCHECKED : EXIT_OK;
  }

  // gm_check.py: summary
  summary() {
    if (this.failed) {
      return (
        "BILAN : au moins une différence, voir DIFFÉRENT ci-dessus (code 1)" +
        " / SUMMARY: at least one mismatch, see MISMATCH above (exit 1)"
      );
    }
    if (this.unchecked) {
      return (
        "BILAN : rien de contredit, mais tout n'a pas pu être vérifié, voir NON VÉRIFIÉ" +
        " (code 3) / SUMMARY: nothing contradicted, but not everything could be" +
        " checked, see NOT CHECKED (exit 3)"
      );
    }
    return "BILAN : tout ce qui a été vérifié concorde (code 0) / SUMMARY: everything checked matches (exit 0)";
  }
}

// gm_check.py: Unreadable
// The input cannot be read at all (exit 2).
class Unreadable extends Error {
  constructor(message) {
    super(message);
    this.pyType = "Unreadable";
  }
}

// gm_check.py: hex_digits
function hexDigits(value) {
  return removePrefix(pyStrip(pyStrip(value), "`").toLowerCase(), PREFIX);
}

const _SEAL_DIGITS = /[0-9a-f]{8,64}/;

// gm_check.py: check_digest
// Compare a recomputed digest with the digits a post printed: all of them,
// and at least MIN_DIGITS; fewer (an older post) is not a proof.
function checkDigest(report, computed, printed, fr, en) {
  const want = hexDigits(printed);
  const full = hexDigits(computed);
  if (!fullmatch(_SEAL_DIGITS, want)) {
    report.bad(`${fr} : « ${printed} » n'est pas un sceau`, `${en}: ${pyRepr(printed)} is not a seal`);
    return false;
  }
  if (!full.startsWith(want)) {
    report.bad(
      `${fr} : sceau recalculé ${full.slice(0, want.length)} ≠ publié ${want}`,
      `${en}: recomputed seal ${full.slice(0, want.length)} ≠ published ${want}`,
    );
    return false;
  }
  if (want.length < MIN_DIGITS) {
    report.missing(
      `${fr} : sceau court (${4 * want.length} bits) : pas une preuve`,
      `${en}: short seal (${4 * want.length} bits): not a proof`,
    );
    return true;
  }
  report.ok(`${fr} : sceau ${want} retrouvé`, `${en}: seal matches`);
  return true;
}

// gm_check.py: same_digits
// Two printed digests agree on every digit both give.
function sameDigits(a, b) {
  a = hexDigits(a);
  b = hexDigits(b);
  const n = Math.min(a.length, b.length);
  return n > 0 && a.slice(0, n) === b.slice(0, n);
}

// gm_check.py: check_seed
async function checkSeed(report, seed, expected, fr = "", en = "") {
  const computed = await commitment(seed);
  const want = hexDigits(expected);
  const whereFr = fr ? fr + " : " : "";
  const whereEn = en ? en + ": " : "";
  if (!fullmatch(_SEAL_DIGITS, want)) {
    throw new Unreadable(`${pyRepr(expected)} is not a commitment (hex digits, 32 at least)`);
  }
  if (!removePrefix(computed, PREFIX).startsWith(want)) {
    report.bad(
      `${whereFr}SHA-256 de la graine « ${seed} » = ${computed}, sceau publié = ${expected}`,
      `${whereEn}the seed's SHA-256 is ${computed}, the published commitment is ${expected}`,
    );
    return false;
  }
  if (want.length < MIN_DIGITS) {
    report.missing(
      `${whereFr}sceau du hasard court (${4 * want.length} bits) : pas une preuve`,
      `${whereEn}short commitment (${4 * want.length} bits): not a proof`,
    );
    return true;
  }
  report.ok(`${whereFr}la graine correspond au sceau ${computed}`, `${whereEn}the seed matches its commitment`);
  return true;
}

// gm_check.py: check_seal
async function checkSeal(report, kind, payload, salt, expected, who) {
  return checkDigest(report, await seal(kind, payload, salt), expected, who, who);
}

// --- small readers (gm_check.py lines 1148–1306) ------------------------------------

// str.isdigit(): decimal digits, and the other digits Python counts
// (superscripts, circled digits…), which int() then refuses.
const _PY_DIGIT = /^[\p{Nd}\u{b2}-\u{b3}\u{b9}\u{1369}-\u{1371}\u{19da}\u{2070}\u{2074}-\u{2079}\u{2080}-\u{2089}\u{2460}-\u{2468}\u{2474}-\u{247c}\u{2488}-\u{2490}\u{24ea}\u{24f5}-\u{24fd}\u{24ff}\u{2776}-\u{277e}\u{2780}-\u{2788}\u{278a}-\u{2792}\u{10a40}-\u{10a43}\u{10e60}-\u{10e68}\u{11052}-\u{1105a}\u{1f100}-\u{1f10a}]+$/u;
function pyIsdigit(s) {
  return _PY_DIGIT.test(s);
}
// Python's len(): code points, not UTF-16 units.
function pyLen(s) {
  return [...s].length;
}
// pattern.match(text, pos): anchored at `pos`, lookarounds see the whole text.
const _sticky = new WeakMap();
function matchAt(re, text, pos) {
  let s = _sticky.get(re);
  if (!s) {
    s = new RegExp(re.source, re.flags.replace(/g/g, "") + (re.flags.includes("y") ? "" : "y"));
    _sticky.set(re, s);
  }
  s.lastIndex = pos;
  return s.exec(text);
}
// m.end() of a JavaScript match.
function matchEnd(m) {
  return m.index + m[0].length;
}

const _MONEY = pyRe(String.raw`([−-]?)(\d{1,3}(?: \d{3})*) \$`);

// gm_check.py: parse_money
function parseMoney(text) {
  const m = fullmatch(_MONEY, pyStrip(text));
  if (m === null) return null;
  const value = pyInt(m[2].replaceAll(" ", ""));
  return m[1] ? -value : value;
}

const _BILL = pyRe(String.raw`\d{1,3}(?: \d{3})*`);

// gm_check.py: parse_bills
function parseBills(text) {
  text = pyStrip(text);
  if (text === "aucun") return [];
  const out = [];
  for (const part of text.split(" · ")) {
    if (!fullmatch(_BILL, part)) return null;
    out.push(pyInt(part.replaceAll(" ", "")));
  }
  return out;
}

// gm_check.py: parse_names
// « fab, marco et lulu » → names (the known ones first).
function parseNames(text, known) {
  text = pyStrip(text);
  if (known.length) {
    const out = [];
    let pos = 0;
    const names = pySorted(known, pyLen, true);
    while (pos < text.length) {
      const name = names.find((n) => text.startsWith(n, pos));
      if (name === undefined) break;
      out.push(name);
      pos += name.length;
      if (pos === text.length) return out;
      const sep = [", ", " et "].find((s) => text.startsWith(s, pos));
      if (sep === undefined) break;
      pos += sep.length;
    }
  }
  const [head, sep, last] = pyRpartition(text, " et ");
  const parts = sep ? [...head.split(", "), last] : [text];
  return parts.every((p) => p) ? [...parts] : null;
}

const _entryPatterns = new Map();

// gm_check.py: parse_entries
// « NAME TAIL · NAME TAIL … » (TAIL a Python regex source with groups, or a
// RegExp built by pyRe), or null: [name, match] pairs, the match's groups
// being TAIL's (`group(m, 1)`), `matchEnd(m)` its end.
function parseEntries(text, tail, known) {
  const source = tail instanceof RegExp ? tail.source : tail;
  let compiled = _entryPatterns.get(source);
  if (!compiled) {
    // Python's `.` stops only at "\n"
    compiled = [pyRe(" " + source + "(?= · |$)"), pyRe("([^\\n]+?) " + source + "(?= · |$)")];
    _entryPatterns.set(source, compiled);
  }
  const [tailRe, generic] = compiled;
  const names = pySorted(known, pyLen, true);
  const out = [];
  let pos = 0;
  while (pos < text.length) {
    let got = null;
    for (const name of names) {
      if (text.startsWith(name, pos)) {
        const m = matchAt(tailRe, text, pos + name.length);
        if (m) {
          got = [name, m];
          break;
        }
      }
    }
    if (got === null) {
      const m = matchAt(generic, text, pos);
      if (m === null) return null;
      got = [m[1], matchAt(tailRe, text, pos + m[1].length)];
      if (got[1] === null) return null;
    }
    out.push(got);
    pos = matchEnd(got[1]);
    if (pos === text.length) return out;
    if (!text.startsWith(" · ", pos)) return null;
    pos += 3;
  }
  return out.length ? out : null;
}

// gm_check.py: split_pair
// `A sep B` where A and B are names; with known names, the split that
// gives two of them; else the only one.
function splitPair(text, sep, known) {
  const positions = [];
  for (let p = text.indexOf(sep); p >= 0 && sep; p = text.indexOf(sep, p + sep.length)) positions.push(p);
  const splits = positions.map((p) => [text.slice(0, p), text.slice(p + sep.length)]);
  if (known.length) {
    const good = splits.filter((s) => known.includes(s[0]) && known.includes(s[1]));
    if (good.length === 1) return good[0];
  }
  return splits.length === 1 ? splits[0] : null;
}

// gm_check.py: row_cells
// The cells of a table row however the forum wrote the table: cells
// (Markdown, [table], [code], HTML, tabs), or « a — b » items of a list.
function rowCells(line, count) {
  if (line.cells !== null && line.cells !== undefined) return line.cells.length === count ? line.cells : null;
  const parts = line.text.split(" — ").map((p) => pyStrip(p)); // BBCode tables as lists
  return parts.length === count && !line.text.includes(" : ") ? parts : null;
}

// gm_check.py: card_value
function cardValue(shown) {
  if (shown.startsWith("Dynamite")) return "dynamite";
  const words = pySplit(shown);
  if (!words.length) throw new PyError("IndexError", "list index out of range");
  return words[0];
}

// gm_check.py: card_color
function cardColor(shown) {
  return shown.endsWith("rouge") ? "red" : "green";
}

const _DRAW_CLAUSE = pyRe(String.raw`(\S+)(?:, tirage sans graine des joueurs|, graines : ([^\n]+))$`, "d");
// A word printed without a code span: Python's [\w'.-]
const _DRAW_WORD = `([${RE_W.slice(1, -1)}'.-]+(?: [${RE_W.slice(1, -1)}'.-]+)*)`;

// gm_check.py: parse_draw_clause
// « tirage LABEL, graines : fab `x` · … » (or « , tirage sans graine des
// joueurs »), from `start` (just after « tirage ») to `end` of `line`.
// Returns {label, words: [[name, word]…]} (and `ambiguous` for words read
// without code spans), or null.
function parseDrawClause(line, start, end, known) {
  const text = line.text.slice(start, end);
  const m = rematch(_DRAW_CLAUSE, text);
  if (m === null) return null;
  const label = m[1];
  if (m[2] === undefined) return { label, words: [] };
  const wordsStart = start + m.indices[2][0];
  const codes = line.codes.filter(([a, b]) => a >= wordsStart && b <= end).map(([a, b]) => [a, b]);
  const words = [];
  if (codes.length) {
    // Markdown / HTML: each word is a code span, each name before it
    let pos = wordsStart;
    for (const [a, b] of codes) {
      let name = line.text.slice(pos, a);
      if (words.length) {
        if (!name.startsWith(" · ")) return null;
        name = name.slice(3);
      }
      if (!name.endsWith(" ") || !pyStrip(name)) return null;
      words.push([name.slice(0, -1), line.text.slice(a, b)]);
      pos = b;
    }
    if (pyStrip(line.text.slice(pos, end))) return null;
    return { label, words };
  }
  const entries = parseEntries(m[2], _DRAW_WORD, known);
  if (entries === null) return null;
  const ambiguous = !known.length && entries.some((e) => e[1][1].includes(" "));
  return { label, words: entries.map(([n, e]) => [n, e[1]]), ambiguous };
}

// gm_check.py: spread_words
// Every reading of words printed without code spans: « Jean Paul x y »
// may be (« Jean », « Paul x y »), (« Jean Paul », « x y »)… (512 at most,
// in itertools.product's order).
function spreadWords(words) {
  const options = words.map(([name, word]) => {
    const text = `${name} ${word}`.split(" ");
    const out = [];
    for (let i = 1; i < text.length; i++) out.push([text.slice(0, i).join(" "), text.slice(i).join(" ")]);
    return out;
  });
  const out = [];
  if (options.some((o) => !o.length)) return out;
  const index = options.map(() => 0);
  while (out.length < 512) {
    out.push(options.map((o, k) => o[index[k]]));
    let k = options.length - 1;
    while (k >= 0 && index[k] === options[k].length - 1) index[k--] = 0;
    if (k < 0) break;
    index[k] += 1;
  }
  return out;
}

// --- describe, fmtBills, parseDice, parseGroups (gm_check.py lines 4080–4154) -------

// gm_check.py: describe
// A secret's key (["order", round, name], ["setup", name], ["colt-card",
// round, turn, name], ["card", manche, duel, name], ["end", manche, name])
// as [fr, en] words.
function describe(key) {
  const kind = key[0];
  const k = key.map(pyStr);
  if (kind === "order") return [`tour ${k[1]}, ${k[2]}`, `round ${k[1]}, ${k[2]}`];
  if (kind === "setup") return [`mise en place, ${k[1]}`, `setup, ${k[1]}`];
  if (kind === "colt-card") {
    return [
      `manche ${k[1]}, carte face cachée du tour ${k[2]}, ${k[3]}`,
      `round ${k[1]}, face-down card of turn ${k[2]}, ${k[3]}`,
    ];
  }
  if (kind === "card") return [`manche ${k[1]}, duel ${k[2]}, ${k[3]}`, `manche ${k[1]}, duel ${k[2]}, ${k[3]}`];
  return [`fin de la manche ${k[1]}, ${k[2]}`, `end of manche ${k[1]}, ${k[2]}`];
}

// f"{b:,}".replace(",", " ")
function _grouped(b) {
  const digits = String(b < 0 ? -b : b);
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i && (digits.length - i) % 3 === 0) out += " ";
    out += digits[i];
  }
  return (b < 0 ? "-" : "") + out;
}

// gm_check.py: fmt_bills
function fmtBills(bills) {
  return pySorted([...bills], undefined, true).map(_grouped).join(" · ") || "aucun";
}

const _DIE = pyRe(String.raw`(\d*)d(\d+|%)(?:k([hl])(\d*))?`);
const _DICE_TERM = pyRe(String.raw`([+-]?)([^+-]+)`);

// gm_check.py: parse_dice
// Terms of a canonical dice expression: [sign, count, sides, keep, keepCount]
// or [sign, "const", value]; null when it is not one.
function parseDice(expression) {
  const out = [];
  const found = finditer(_DICE_TERM, expression).map((m) => [m[1], m[2]]);
  if (found.map(([sign, token]) => sign + token).join("") !== expression || expression.startsWith("+")) return null;
  for (const [sign, token] of found) {
    const s = sign === "-" ? -1 : 1;
    if (pyIsdigit(token)) {
      out.push([s, "const", pyInt(token)]);
      continue;
    }
    const m = fullmatch(_DIE, token.toLowerCase());
    if (m === null) return null;
    const count = m[1] ? pyInt(m[1]) : 1;
    const sides = m[2] === "%" ? 100 : pyInt(m[2]);
    const keepCount = m[4] ? pyInt(m[4]) : m[3] ? 1 : 0;
    out.push([s, count, sides, group(m, 3), keepCount]);
  }
  return out.length ? out : null;
}

const _GROUP = pyRe(String.raw`(?:(?<first>- )|(?<sep> [+-] ))?(?:\[(?<dice>[^\]]*)\]|(?<const>\d+))`);
const _GROUP_DIE = pyRe(String.raw`(\()?(\d+)(\))?`);

// gm_check.py: parse_groups
// « [1, (1), 5, 4] - [4] + 2 » → [sign, values, kept] per term (kept null for a constant).
function parseGroups(text) {
  const out = [];
  let pos = 0;
  while (pos < text.length) {
    const m = matchAt(_GROUP, text, pos);
    if (m === null || (pos === 0 && group(m, "sep")) || (pos > 0 && !group(m, "sep"))) return null;
    const sign = group(m, "first") || pyStrip(group(m, "sep") || "") === "-" ? -1 : 1;
    if (group(m, "const") !== null) {
      out.push([sign, [pyInt(group(m, "const"))], null]);
    } else {
      const values = [];
      const kept = [];
      for (const part of group(m, "dice").split(", ")) {
        const d = fullmatch(_GROUP_DIE, part);
        if (d === null || Boolean(d[1]) !== Boolean(d[3])) return null;
        values.push(pyInt(d[2]));
        kept.push(!d[1]);
      }
      out.push([sign, values, kept]);
    }
    pos = matchEnd(m);
  }
  return out;
}
