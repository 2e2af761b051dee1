// Runs every case of primitives.json on the port, in one Node process.
//
//   node primitives_driver.mjs SCRIPT.js primitives.json
//
// SCRIPT.js is the assembled checker (tools/checker/assemble.py); prints one
// JSON array: per case {result} or {error: the Python exception's name}.
import fs from "node:fs";
import vm from "node:vm";

const [scriptPath, corpusPath] = process.argv.slice(2);
new vm.Script(fs.readFileSync(scriptPath, "utf8"), { filename: "gm-check.js" }).runInThisContext();
const g = globalThis.gmCheck;
const { cases } = JSON.parse(fs.readFileSync(corpusPath, "utf8"));

const codePoints = (s, end) => [...s.slice(0, end)].length;
const utf16 = (s, cp) => [...s].slice(0, cp).join("").length;
async function report(fill) {
  const r = new g.Report();
  const value = await fill(r);
  return { value, lines: r.lines, code: r.code };
}

const calls = {
  canonical_json: (t) => new TextDecoder().decode(g.canonicalUtf8(g.pyJsonLoads(t))),
  seal: (k, t, s) => g.seal(k, g.pyJsonLoads(t), s),
  commitment: (s) => g.commitment(s),
  mix: (w, d) => (d === undefined ? g.mix(w) : g.mix(w, d)),
  label_for: (p, w) => g.labelFor(p, w),
  draws: (s, l, b) => g.draws(s, l, b),
  shuffle: (s, l, i) => g.shuffle(s, l, i),
  slug: (n) => g.slug(n),
  hex_digits: (v) => g.hexDigits(v),
  same_digits: (a, b) => g.sameDigits(a, b),
  check_digest: (full, printed) => report((r) => g.checkDigest(r, full, printed, "le sceau", "the seal")),
  check_seed: (seed, expected, fr, en) => report((r) => g.checkSeed(r, seed, expected, fr, en)),
  check_seal: (k, t, s, e, who) => report((r) => g.checkSeal(r, k, g.pyJsonLoads(t), s, e, who)),
  parse_money: (t) => g.parseMoney(t),
  parse_bills: (t) => g.parseBills(t),
  parse_names: (t, k) => g.parseNames(t, k),
  parse_entries: (t, tail, k) => {
    const entries = g.parseEntries(t, tail, k);
    return entries === null ? null : entries.map(([n, m]) => [n, [...m].map((x) => x ?? null), codePoints(t, m.index + m[0].length)]);
  },
  split_pair: (t, s, k) => g.splitPair(t, s, k),
  row_cells: (t, cells, n) => g.rowCells({ no: 1, text: t, codes: [], cells }, n),
  card_value: (s) => g.cardValue(s),
  card_color: (s) => g.cardColor(s),
  parse_draw_clause: (t, codes, start, end, k) =>
    g.parseDrawClause({ no: 1, text: t, codes: codes.map(([a, b]) => [utf16(t, a), utf16(t, b)]), cells: null }, utf16(t, start), utf16(t, end), k),
  spread_words: (w) => g.spreadWords(w),
  describe: (k) => g.describe(k),
  fmt_bills: (b) => g.fmtBills(b),
  parse_dice: (e) => g.parseDice(e),
  parse_groups: (t) => g.parseGroups(t),
};

const out = [];
for (const c of cases) {
  try {
    if (!(c.fn in calls)) throw new Error(`no port call for ${c.fn}`);
    out.push({ result: (await calls[c.fn](...c.args)) ?? null });
  } catch (err) {
    out.push({ error: err && err.pyType ? err.pyType : `JS ${err && err.stack ? err.stack : err}` });
  }
}
process.stdout.write(JSON.stringify(out, (k, v) => (typeof v === "bigint" ? v.toString() : v === undefined ? null : v)));
