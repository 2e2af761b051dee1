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
async function _canonicalDigest(value) {
  const normal = normalize(value);
  _refuseSurrogates(normal);
  return sha256Hex(utf8Bytes(jsonDumps(normal, { sortKeys: true, compact: true })));
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
    key = crypto.subtle.importKey("raw", utf8Bytes(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
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
