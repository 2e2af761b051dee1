// checker.js — the common part of gm_check.py's `class Checker`: the driver
// (`run`), reporting with a place, openings, roster, seed, secrets (seals
// committed and opened), given seals, labels, dice rolls and the posts a
// thread must have. The game-specific methods (Le Magot, Fistful of Gold,
// Colt Express) are added to `Checker.prototype` by magot.js, fistful.js and
// colt.js; `run()` calls them by their camelCase names.
//
// Checker attributes (Python name → JS name: JS type). Every dict is a Map,
// every set a Set; a tuple key is the string `tk(...parts)` (py.js), and a
// tuple recovered from it with `JSON.parse(k)`.
//
//   r            → r:            Report
//   sources      → sources:      Array<Source>
//   whole        → whole:        boolean
//   seed_arg     → seedArg:      string | null
//   seals_arg    → sealsArg:     Array<string>
//   posts        → posts:        Array<Post>
//   focus        → focus:        Set<number>            (post.index)
//   by           → by:           Map<tk(kind, key), Post>  key = post.key as
//                                 read (an Array of ints, [] for none):
//                                 this.by.get(tk("magot-round", [2])),
//                                 this.by.get(tk("magot-opening", []));
//                                 iterate: for (const [k, p] of this.by) {
//                                 const [kind, key] = JSON.parse(k); … }
//                                 (a roll's post.key is rewritten by parseRoll
//                                 after it was filed: use the parsed key)
//   players      → players:      Array<string>
//   seats        → seats:        Map<string, number>
//   colors       → colors:       Map<string, string>   ("red" | "green")
//   seed         → seed:         string | null
//   seed_checked → seedChecked:  boolean
//   commitments  → commitments:  Map<tk(...key), Array<[Post, Line, string]>>
//   openings     → openings:     Map<tk(...key), Array<[Post, Line, string]>>
//                                 key = the Python tuple as an Array, e.g.
//                                 await this.commit(["order", 2, "Ana"], post, line, digits)
//                                 files it under tk("order", 2, "Ana");
//                                 describe(JSON.parse(k)) gives its words
//   colt_draws   → coltDraws:    Map<string, [Post, Line, object]>  (purpose → draw)
//   colt_asked   → coltAsked:    Map<tk(round, step), Array<string>>
//   colt_defaults→ coltDefaults: Array<[Post, Line, number, number, string]>
//
// Post.data (a plain object, PORTING.md rule 4) entries this file writes or
// reads: data.commitment (string), data.commitment_line (Line),
// data.players (Array<string>), data.deck (Array<number>), data.per_round
// (number), data.seed (string), data.seed_line (Line), data.rounds (number),
// data.names (Array<string>, preNames), data.draw ({label, words: Array<[name,
// word]>, ambiguous?, old?}), data.draw_line (Line), data.terms, data.groups,
// data.total (rolls). data.seals (name → digits, written by magot.js and
// fistful.js) is read by checkObsolete as a Map or a plain object.
// Python's snake_case keys inside post.data are kept as they are.

// gm_check.py: Checker
class Checker {
  // gm_check.py: __init__
  constructor(report, sources, { focus = null, whole = false, seed = null, seals = [] } = {}) {
    this.r = report;
    this.sources = sources;
    this.whole = whole;
    this.seedArg = seed;
    this.sealsArg = [...seals];
    this.posts = sources.flatMap((s) => s.posts);
    this.focus = focus !== null && focus !== undefined ? focus : new Set(this.posts.map((p) => p.index));
    this.by = new Map();
    this.players = [];
    // Every name a seat had (the opening's, then the changes at the
    // table's), to the seat's place in the seating order.
    this.seats = new Map();
    this.colors = new Map();
    this.seed = null;
    this.seedChecked = false;
    this.commitments = new Map();
    this.openings = new Map();
    // Colt Express: each draw line read, by the purpose of its stream.
    this.coltDraws = new Map();
    // Colt Express: (round, step) → the legal choices listed when the card waited.
    this.coltAsked = new Map();
    // Colt Express: each choice drawn by the fortune: round, step, choice.
    this.coltDefaults = [];
  }
}
