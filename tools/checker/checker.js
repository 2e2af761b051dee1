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
//
// Module constants of this part: OPTION_OF, OPTION_NAME, FATE_OF (Map<string,
// string>: OPTION_OF.get("BANG"), FATE_OF.has(cell)), DEAD_AT, SECRETISH
// (RegExp, built with pyRe: search(SECRETISH, text)).


// --- the checks -----------------------------------------------------------------------

// gm_check.py: OPTION_OF
const OPTION_OF = new Map([
  ["BANG BANG BANG", "triple"],
  ["BANG", "bang"],
  ["CLIC CLIC CLIC", "click"],
]);
// gm_check.py: OPTION_NAME
const OPTION_NAME = new Map([...OPTION_OF].map(([k, v]) => [v, k]));
// gm_check.py: FATE_OF
const FATE_OF = new Map([
  ["tiré", "fired"],
  ["arme baissée", "lowered"],
  ["cible couchée", "held"],
  // a stunned shooter agrees with their gender, or is « groggy » without one
  ["sonné", "disabled"],
  ["sonnée", "disabled"],
  ["groggy", "disabled"],
]);
// « mort au tour 3 », « morte … », « hors-jeu … » in the final ranking
// gm_check.py: DEAD_AT
const DEAD_AT = pyRe(String.raw` \((?:morte?|hors-jeu) au tour \d+\)$`);
// gm_check.py: SECRETISH
const SECRETISH = pyRe(
  String.raw`\(sel |Sceaux? |^(?:BANG|CLIC)\b|, (?:sonnée?|groggy), | braquait | joue (?:le|la) ` +
    String.raw`|^(?:Couchée?s?|Se couche(?:nt)?) : `,
);

// Python's truth value of what post.data and the chronicle hold (an empty
// list, dict or string is false; JavaScript finds [] and {} true).
function checkerTruthy(value) {
  if (value === null || value === undefined || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value) || typeof value === "string") return value.length > 0;
  if (value instanceof Map || value instanceof Set) return value.size > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}
// `key in d` / `d.get(key)` for a dict that another file may keep as a Map
// or as a plain object.
function checkerHas(table, key) {
  if (table instanceof Map || table instanceof Set) return table.has(key);
  return table !== null && table !== undefined && Object.prototype.hasOwnProperty.call(table, key);
}
function checkerGet(table, key, fallback = null) {
  if (table instanceof Map) return table.has(key) ? table.get(key) : fallback;
  return checkerHas(table, key) ? table[key] : fallback;
}
// s[:n] on code points, as Python slices a str.
function checkerHead(s, n) {
  return [...s].slice(0, n).join("");
}
// Python's == on two Line objects (a dataclass: every field).
function checkerSameLine(a, b) {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.no === b.no && a.text === b.text && JSON.stringify(a.codes) === JSON.stringify(b.codes) && JSON.stringify(a.cells ?? null) === JSON.stringify(b.cells ?? null);
}

// re.fullmatch(pattern, …) compiles once, as Python's re caches its patterns.
const CHECKER_RE_CACHE = new Map();
function checkerRe(source, flags = "") {
  const key = flags + "/" + source;
  if (!CHECKER_RE_CACHE.has(key)) CHECKER_RE_CACHE.set(key, pyRe(source, flags));
  return CHECKER_RE_CACHE.get(key);
}

// gm_check.py: Checker
class Checker {
  // Every check a set of posts allows. `focus`: the posts whose own content
  // is checked (`post`); the others serve as references. With `whole`
  // (`thread`), secrets never opened and posts missing from the thread
  // count as not checked.

  // gm_check.py: __init__
  constructor(report, sources, { focus = null, whole = false, seed = null, seals = [] } = {}) {
    this.r = report;
    this.sources = sources;
    this.whole = whole;
    this.seedArg = seed === undefined ? null : seed;
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

  // reporting with a place
  // gm_check.py: bad
  async bad(post, line, fr, en) {
    const [wf, we] = post.at(line ?? null);
    this.r.bad(`${wf} : ${fr}`, `${we}: ${en}`);
  }

  // gm_check.py: missing
  async missing(post, line, fr, en) {
    const [wf, we] = post.at(line ?? null);
    this.r.missing(`${wf} : ${fr}`, `${we}: ${en}`);
  }

  // gm_check.py: ok
  async ok(post, fr, en) {
    const [wf, we] = post.name();
    this.r.ok(`${wf} : ${fr}`, `${we}: ${en}`);
  }

  // gm_check.py: focused
  async focused(post) {
    return this.focus.has(post.index);
  }

  // ------------------------------------------------------------------ driver
  // gm_check.py: run
  async run() {
    for (const source of this.sources) {
      for (const [no, fr, en] of source.problems) {
        this.r.bad(
          `${source.name}:${no} (hors message / outside a post) : ${fr}`,
          `${source.name}:${no}: ${en}`,
        );
      }
      await this.outsideLines(source);
    }
    const posts = this.posts.filter((p) => !p.obsolete);
    for (const post of this.posts) {
      for (const [no, fr, en] of post.problems) {
        const [wf, we] = post.name();
        this.r.bad(`${wf} (${post.source}:${no}) : ${fr}`, `${we} (${post.source}:${no}): ${en}`);
      }
      if (post.obsolete) {
        await this.missing(
          post,
          null,
          "marqué obsolète (annulé par le MJ) : non vérifié, le suivant compte",
          "marked obsolete (undone by the MJ): not checked, the next one counts",
        );
      }
    }
    for (const post of posts) {
      if (post.kind === "remind") {
        continue; // reminders are many, alike in title, and prove nothing
      }
      const key = tk(post.kind, post.key);
      const other = this.by.get(key);
      if (other === undefined) {
        this.by.set(key, post);
      } else if (other.signature() !== post.signature()) {
        await this.bad(
          post,
          post.heading,
          `deux messages différents pour ${post.name()[0]} (${other.source})`,
          `two different posts for ${post.name()[1]} (${other.source})`,
        );
      }
    }
    const games = new Set(posts.filter((p) => p.game).map((p) => p.game));
    if (games.size > 1) {
      this.r.bad(
        "des messages de deux jeux différents dans le même fil",
        "posts of two different games in one thread",
      );
    }
    if (!posts.length) {
      throw new Unreadable("no post of gm recognised (a title such as « Tour 2 — ça tire »)");
    }
    if (this.whole) {
      const kinds = new Counter(
        posts.map((p) => {
          const k = pyPartition(p.kind, "-")[2] || p.kind;
          return checkerGet(KIND_FR, k, p.kind);
        }),
      );
      this.r.note(
        `${posts.length} messages reconnus : ` + [...kinds].map(([k, n]) => `${k} ×${n}`).join(", "),
        `${posts.length} posts recognised`,
      );
    }
    await this.readOpenings();
    await this.readRoster(posts);
    await this.readSeed();
    for (const post of pySorted(posts, (p) => p.index)) {
      const name = "parse" + post.kind.split(/[-_]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
      const handler = Object.prototype.hasOwnProperty.call(Checker.prototype, name) ? this[name] : undefined;
      if (typeof handler === "function") {
        await handler.call(this, post);
      }
      await this.checkFooter(post);
    }
    await this.checkMagot();
    await this.checkFistful();
    await this.checkColt();
    await this.checkRolls();
    await this.checkSecrets();
    await this.checkGivenSeals();
    await this.checkObsolete();
    for (const post of posts) {
      if (
        (await this.focused(post)) &&
        !this.whole &&
        ["-opening", "-rules", "remind", "roster"].some((end) => post.kind.endsWith(end))
      ) {
        const later = post.kind.endsWith("-opening");
        this.r.note(
          `${post.name()[0]} : ce message n'énonce aucun secret` +
            (later ? " ; son sceau du hasard se vérifie avec la fin de partie" : ""),
          `${post.name()[1]}: this post states no secret` +
            (later ? "; its commitment is checked with the final post" : ""),
        );
      }
    }
    if (this.whole) {
      await this.checkComplete();
    }
  }

  // gm_check.py: check_obsolete
  async checkObsolete() {
    // A post the MJ undid (the chronicle marks it) was read by the players:
    // the seals it published and the one that replaced it differ when an
    // order changed after it.
    for (const post of this.posts) {
      const current = this.by.get(tk(post.kind, post.key));
      if (!post.obsolete || current === undefined || current === post) {
        continue;
      }
      const before = new Map();
      for (const line of post.body) {
        const found = fullmatch(
          checkerRe(String.raw`Sceaux (?:des ordres|des défausses|des choix de fin de manche) : (.+?)(?: — .*)?`),
          line.text,
        );
        if (!found) continue;
        for (const [name, m] of parseEntries(group(found, 1), SEAL, await this.known(post)) || []) {
          before.set(name, group(m, 1).toLowerCase());
        }
      }
      const now = checkerGet(current.data, "seals", new Map());
      for (const [name, digits] of before) {
        if (checkerHas(now, name) && !sameDigits(digits, checkerGet(now, name))) {
          const was = checkerGet(now, name);
          await this.missing(
            current,
            null,
            `le sceau de ${name} (${digits}) publié dans le message annulé a changé (${was}) : son secret a changé après publication`,
            `${name}'s seal (${digits}) published in the undone post changed (${was}): their secret changed after it was published`,
          );
        }
      }
    }
  }

  // gm_check.py: outside_lines
  async outsideLines(source) {
    const secretish = source.outside.filter((li) => search(SECRETISH, li.text) || fullmatch(FOOTER, li.text));
    for (const line of secretish) {
      this.r.bad(
        `${source.name}:${line.no} : ligne hors de tout message reconnu qui ressemble à un secret : « ${checkerHead(line.text, 60)} »`,
        `${source.name}:${line.no}: a line outside any recognised post that looks like a secret`,
      );
    }
    const rest = source.outside.length - secretish.length;
    if (rest) {
      this.r.note(
        `${source.name} : ${rest} ligne(s) hors des messages de gm, ignorées`,
        `${source.name}: ${rest} line(s) outside gm's posts, ignored`,
      );
    }
  }

  // gm_check.py: check_footer
  async checkFooter(post) {
    if (post.footer === null || post.footer === undefined) {
      if (post.kind !== "roll") {
        this.r.note(`${post.at()[0]} : pas de ligne « Empreinte du registre »`, `${post.at()[1]}: no fingerprint line`);
      }
      return;
    }
    const m = fullmatch(FOOTER, post.footer.text);
    const hex = group(m, "hex");
    if (hex.length < MIN_DIGITS && (await this.focused(post))) {
      this.r.note(
        `${post.at(post.footer)[0]} : empreinte du registre courte (${4 * hex.length} bits), d'une version antérieure de gm`,
        `${post.at(post.footer)[1]}: a short ledger fingerprint (${4 * hex.length} bits), from an older gm`,
      );
    }
    const where = (group(m, "where") || "").split(" · ")[0];
    const key = post.key;
    const has = key.length > 0;
    const expectedOf = {
      "magot-round": () => (has ? `tour ${key[0]}` : ""),
      "magot-reveal": () => (has ? `tour ${key[0]}` : ""),
      "magot-results": () => (has ? `tour ${key[0]}` : ""),
      "fistful-setup": () => "mise en place",
      "fistful-duel": () => (key.length === 2 ? `manche ${key[0]}, duel ${key[1]}` : ""),
      "fistful-manche": () => (has ? `fin de la manche ${key[0]}` : ""),
      "colt-round": () => (has ? `tour ${key[0]}` : ""),
      "colt-plan": () => (key.length === 2 ? `manche ${key[0]}, tour ${key[1]}` : ""),
      "colt-action": () => (key.length === 2 ? `manche ${key[0]}, carte ${key[1]}` : ""),
      "colt-event": () => (has ? `tour ${key[0]}` : ""),
    };
    const expected = Object.prototype.hasOwnProperty.call(expectedOf, post.kind) ? expectedOf[post.kind]() : null;
    if (
      expected === null ||
      where === expected ||
      (fullmatch(checkerRe(String.raw`tour \d+`), where) && post.game === "fistful")
    ) {
      return;
    }
    await this.bad(
      post,
      post.footer,
      `le pied dit « ${where} », le titre « ${expected} »`,
      `the footer says ${pyRepr(where)}, the title ${pyRepr(expected)}`,
    );
  }

  // ----------------------------------------------------------- openings and seed
  // gm_check.py: read_openings
  async readOpenings() {
    for (const kind of ["magot-opening", "fistful-opening", "colt-opening"]) {
      const post = this.by.get(tk(kind, []));
      if (post === undefined) {
        continue;
      }
      const data = post.data;
      for (const line of post.body) {
        const t = line.text;
        let m = fullmatch(checkerRe(String.raw`Sceau du hasard : (?:sha256:)?([0-9a-fA-F]+) — .*`), t);
        if (m) {
          if ("commitment" in data) {
            await this.bad(post, line, "deux sceaux du hasard", "two commitments");
          }
          data.commitment = group(m, 1).toLowerCase();
          data.commitment_line = line;
        }
        m = fullmatch(checkerRe(String.raw`Joueurs \(dans l'ordre\) : (.+)`), t);
        if (m) {
          data.players = group(m, 1).split(" · ");
        }
        m = fullmatch(checkerRe(String.raw`Bandits : (.+)`), t);
        if (m && kind === "colt-opening") {
          data.players = parseNames(group(m, 1), []) || [];
        }
        m = fullmatch(checkerRe(String.raw`Duellistes : (.+)`), t);
        if (m) {
          const entries = parseEntries(group(m, 1), String.raw`\(deck (rouge|vert)\)`, []);
          if (checkerTruthy(entries)) {
            data.players = entries.map(([n]) => n);
            this.colors = new Map(entries.map(([n, e]) => [n, group(e, 1) === "rouge" ? "red" : "green"]));
          }
        }
        m = fullmatch(checkerRe(String.raw`Le magot : ([\p{Nd}  ]+) \$ en (\d+) billets \((.+)\)\.`), t);
        if (m) {
          let deck = [];
          for (const part of group(m, 3).split(", ")) {
            const item = fullmatch(checkerRe(String.raw`(\d+) × ([\p{Nd} ]+) \$`), part);
            if (item === null) {
              deck = [];
              break;
            }
            const value = pyInt(group(item, 2).split(" ").join(""));
            for (let i = 0; i < pyInt(group(item, 1)); i++) deck.push(value);
          }
          if (
            deck.length &&
            deck.length === pyInt(group(m, 2)) &&
            deck.reduce((a, b) => a + b, 0) === pyInt(group(m, 1).split(" ").join(""))
          ) {
            data.deck = pySorted(deck, (x) => x, true);
          } else {
            await this.bad(post, line, "le magot annoncé ne tombe pas juste", "the announced loot does not add up");
          }
        }
        m = rematch(checkerRe(String.raw`Règles en bref — chaque tour, (\d+) billets rejoignent la mise`), t);
        if (m) {
          data.per_round = pyInt(group(m, 1));
        }
      }
      if (!("commitment" in data)) {
        await this.bad(post, null, "pas de sceau du hasard", "no commitment");
      }
      this.players = "players" in data ? data.players : [];
      if (new Set(this.players).size !== this.players.length) {
        await this.bad(post, null, "un joueur apparaît deux fois", "a player is listed twice");
      }
    }
  }

  // gm_check.py: read_roster
  async readRoster(posts) {
    // Changes at the table (« X prend la place de Y », « Y s'appelle
    // désormais X »): the newcomer sits in the seat, so their name is a
    // player's, in that seat's place in the seating order.
    this.seats = new Map(this.players.map((name, i) => [name, i]));
    const changes = pySorted(
      posts.filter((p) => p.kind === "roster"),
      (p) => p.key,
    );
    for (const post of changes) {
      for (const line of post.body) {
        const m = fullmatch(
          checkerRe(
            String.raw`(?:\*\*)?(?<new>.+?)(?:\*\*)? prend la place de (?<old>.+?) : .*` +
              String.raw`|(?<old2>.+?) s'appelle désormais (?:\*\*)?(?<new2>.+?)(?:\*\*)?\.`,
          ),
          line.text,
        );
        if (m === null) {
          continue;
        }
        const old = group(m, "old") || group(m, "old2");
        const nw = group(m, "new") || group(m, "new2");
        if (this.players.length && !this.seats.has(old)) {
          await this.checkPlayer(post, line, old);
          continue;
        }
        this.seats.set(nw, this.seats.has(old) ? this.seats.get(old) : this.seats.size);
      }
    }
  }

  // gm_check.py: read_seed
  async readSeed() {
    const final =
      this.by.get(tk("magot-final", [])) || this.by.get(tk("fistful-final", [])) || this.by.get(tk("colt-final", [])) || null;
    const opening =
      this.by.get(tk("magot-opening", [])) ||
      this.by.get(tk("fistful-opening", [])) ||
      this.by.get(tk("colt-opening", [])) ||
      null;
    let printed = null;
    if (final !== null) {
      const lines = final.body.filter((li) => li.text.startsWith("Graine du hasard"));
      if (lines.length !== 1) {
        await this.bad(
          final,
          null,
          `${lines.length} lignes « Graine du hasard » (une attendue)`,
          `${lines.length} seed lines (one expected)`,
        );
      }
      for (const line of lines.slice(0, 1)) {
        const m = fullmatch(
          checkerRe(String.raw`Graine du hasard : (.+?) — son empreinte SHA-256 est le sceau publié au début de la partie.*`),
          line.text,
        );
        if (m === null) {
          await this.bad(final, line, "ligne de la graine illisible", "unreadable seed line");
        } else {
          printed = group(m, 1);
          final.data.seed = printed;
          final.data.seed_line = line;
        }
      }
      const after = final.body.find((li) => li.text.startsWith("Après "));
      const rounds = after === undefined ? null : rematch(checkerRe(String.raw`Après (\d+) tours?, `), after.text);
      if (rounds) {
        final.data.rounds = pyInt(group(rounds, 1));
      }
    }
    const want = opening !== null ? checkerGet(opening.data, "commitment") : null;
    const chronicle = this.sources.map((s) => s.chronicle).filter((c) => checkerTruthy(c));
    for (const c of chronicle) {
      const cc = checkerGet(c, "commitment");
      if (want && cc && cc !== want) {
        this.r.bad(
          "la chronique donne un autre sceau du hasard que l'ouverture",
          "the chronicle gives another commitment than the opening",
        );
      }
      const cs = checkerGet(c, "seed");
      if (printed && cs && cs !== printed) {
        this.r.bad(
          "la chronique donne une autre graine que la fin de partie",
          "the chronicle gives another seed than the final post",
        );
      }
    }
    const candidates = printed !== null && final !== null ? [[printed, final, checkerGet(final.data, "seed_line")]] : [];
    if (this.seedArg !== null) {
      candidates.push([this.seedArg, null, null]);
    }
    for (const [seed, post, line] of candidates) {
      const focus =
        post === null || (await this.focused(post)) || (opening !== null && (await this.focused(opening)));
      if (want === null || want === undefined) {
        if (focus && post !== null) {
          await this.missing(
            post,
            line,
            "graine non comparée au sceau du hasard (l'ouverture manque)",
            "seed not compared with the commitment (the opening is missing)",
          );
        } else if (focus) {
          this.r.missing(
            "graine donnée (--seed) non comparée au sceau du hasard : l'ouverture manque",
            "the --seed was not compared with the commitment: the opening is missing",
          );
        }
        this.seed = this.seed || seed;
        continue;
      }
      const report = focus ? this.r : new Report();
      const place = post !== null ? post.at(line) : ["--seed", "--seed"];
      if (removePrefix(await commitment(seed), PREFIX).startsWith(want)) {
        await checkSeed(report, seed, want, ...place);
        this.seed = seed;
        this.seedChecked = want.length >= MIN_DIGITS;
      } else if (
        seed.includes("\\") &&
        removePrefix(await commitment(seed.replace(/\\(.)/gu, "$1")), PREFIX).startsWith(want)
      ) {
        const fixed = seed.replace(/\\(.)/gu, "$1");
        report.missing(
          `${place[0]} : la graine est imprimée échappée (« ${seed} ») : c'est « ${fixed} », sans les barres obliques, qui correspond au sceau ; le message ne donne pas les octets exacts à vérifier`,
          `${place[1]}: the seed is printed escaped (${pyRepr(seed)}): ${pyRepr(fixed)}, without the backslashes, matches the commitment; the post does not print the exact bytes`,
        );
        this.seed = fixed;
      } else {
        await checkSeed(report, seed, want, ...place);
      }
    }
  }

  // ------------------------------------------------------------------ secrets
  // gm_check.py: commit
  async commit(key, post, line, digits) {
    const k = tk(...key);
    if (!this.commitments.has(k)) this.commitments.set(k, []);
    this.commitments.get(k).push([post, line, digits.toLowerCase()]);
  }

  // gm_check.py: open
  async open(key, post, line, digits) {
    const k = tk(...key);
    if (!this.openings.has(k)) this.openings.set(k, []);
    this.openings.get(k).push([post, line, digits.toLowerCase()]);
  }

  // gm_check.py: opened_entries
  async openedEntries(post, line, text) {
    const entries = parseEntries(text, SEAL + String.raw` \(sel ([0-9a-fA-F]{8,128})\)`, await this.known(post));
    if (entries === null) {
      await this.bad(post, line, "ligne « Sceaux ouverts » illisible", "unreadable « Sceaux ouverts » line");
      return [];
    }
    const out = entries.map(([name, m]) => [name, group(m, 1).toLowerCase(), group(m, 2)]);
    await this.noDuplicates(
      post,
      line,
      out.map(([n]) => n),
      "sceau ouvert",
      "opened seal",
    );
    return out;
  }

  // gm_check.py: sealed_entries
  async sealedEntries(post, line, text) {
    const entries = parseEntries(text, SEAL, await this.known(post));
    if (entries === null) {
      await this.bad(post, line, "ligne de sceaux illisible", "unreadable line of seals");
      return [];
    }
    const out = entries.map(([name, m]) => [name, group(m, 1).toLowerCase()]);
    await this.noDuplicates(
      post,
      line,
      out.map(([n]) => n),
      "sceau",
      "seal",
    );
    return out;
  }

  // gm_check.py: no_duplicates
  async noDuplicates(post, line, names, fr, en) {
    for (const [name, count] of new Counter(names)) {
      if (count > 1) {
        await this.bad(post, line, `${fr} en double pour ${pyStr(name)}`, `duplicate ${en} for ${pyStr(name)}`);
      }
    }
  }

  // gm_check.py: known
  async known(post) {
    if (this.players.length) {
      return this.players;
    }
    return checkerGet(post.data, "names", []);
  }

  // gm_check.py: check_player
  async checkPlayer(post, line, name) {
    if (this.players.length && !this.players.includes(name) && !this.seats.has(name)) {
      await this.bad(
        post,
        line,
        `« ${name} » n'est pas un joueur de l'ouverture`,
        `${pyRepr(name)} is not a player of the opening`,
      );
    }
  }

  // gm_check.py: check_secrets
  async checkSecrets() {
    // Openings against the commitments published before them; commitments
    // never opened (`thread`); seals too short to prove anything.
    for (const [k, opens] of this.openings) {
      const key = JSON.parse(k);
      const commits = this.commitments.get(k) || [];
      for (const [post, line, digits] of opens) {
        for (const [cpost, cline, cdigits] of [...commits, ...opens]) {
          if (cpost === post && cline === line) {
            continue;
          }
          if (!((await this.focused(post)) || (await this.focused(cpost)))) {
            continue;
          }
          if (!sameDigits(digits, cdigits)) {
            await this.bad(
              post,
              line,
              `${describe(key)[0]} : sceau ${digits} ≠ ${cdigits} publié dans ${cpost.at(cline)[0]}`,
              `${describe(key)[1]}: seal ${digits} ≠ ${cdigits} published in ${cpost.at(cline)[1]}`,
            );
          } else if (
            cpost !== post &&
            commits.some(([p, l, d]) => p === cpost && checkerSameLine(l, cline) && d === cdigits) &&
            (await this.focused(post))
          ) {
            this.r.ok(
              `${describe(key)[0]} : sceau ouvert dans ${post.name()[0]} = sceau publié avant dans ${cpost.name()[0]}`,
              `${describe(key)[1]}: seal opened in ${post.name()[1]} = seal published before in ${cpost.name()[1]}`,
            );
          }
        }
      }
    }
    await this.disclosureOpensEverything();
    if (!this.whole) {
      return;
    }
    for (const [k, commits] of this.commitments) {
      if (this.openings.has(k)) {
        continue;
      }
      const key = JSON.parse(k);
      const [post, line, digits] = commits[0];
      await this.missing(
        post,
        line,
        `${describe(key)[0]} : sceau ${digits} jamais ouvert dans les messages donnés (le dévoilement manque ?)`,
        `${describe(key)[1]}: seal ${digits} never opened in the posts given (is the disclosure missing?)`,
      );
    }
  }

  // gm_check.py: disclosure_opens_everything
  async disclosureOpensEverything() {
    // The disclosure opens every secret in force: each seal another post
    // published (a reveal, the setup, an end of manche) and each secret
    // another post opened (a shot, a duel's card).
    for (const game of ["magot", "fistful"]) {
      const disclosure = this.by.get(tk(`${game}-disclosure`, []));
      if (disclosure === undefined || !(await this.focused(disclosure))) {
        continue;
      }
      const there = new Set();
      for (const [k, items] of this.openings) {
        if (items.some(([p]) => p === disclosure)) there.add(k);
      }
      const before = [];
      for (const table of [this.commitments, this.openings]) {
        for (const [k, items] of table) {
          if (!there.has(k) && items.some(([p]) => p !== disclosure)) before.push([k, items[0]]);
        }
      }
      const seen = new Set();
      for (const [k, [post, line, digits]] of before) {
        if (seen.has(k) || post === disclosure) {
          continue;
        }
        seen.add(k);
        const key = JSON.parse(k);
        const fr = `${describe(key)[0]} : sceau ${digits} publié dans ${post.at(line)[0]}, mais absent du dévoilement`;
        const en = `${describe(key)[1]}: seal ${digits} published in ${post.at(line)[1]}, but missing from the disclosure`;
        if (checkerTruthy(checkerGet(disclosure.data, "older"))) {
          await this.missing(
            disclosure,
            null,
            fr + " (peut-être parmi les choix d'avant gm 0.2)",
            en + " (maybe among the choices before gm 0.2)",
          );
        } else {
          await this.bad(disclosure, null, fr, en);
        }
      }
    }
  }

  // gm_check.py: check_given_seals
  async checkGivenSeals() {
    for (const given of this.sealsArg) {
      if (typeof ReplySeal !== "undefined" && given instanceof ReplySeal) {
        // read from a private reply (--reply): reply.js
        await this.checkReplySeal(given);
        continue;
      }
      const want = hexDigits(given);
      if (!fullmatch(/[0-9a-f]{8,64}/u, want)) {
        throw new Unreadable(`--seal ${pyRepr(given)}: not a seal (hex digits)`);
      }
      const found = [];
      for (const table of [this.commitments, this.openings]) {
        for (const [k, items] of table) {
          for (const [post, line, digits] of items) {
            if (sameDigits(want, digits) && digits.length >= Math.min(want.length, MIN_DIGITS)) {
              found.push([JSON.parse(k), post, line]);
            }
          }
        }
      }
      if (!found.length) {
        this.r.bad(
          `ton sceau ${want} n'apparaît dans aucun des messages donnés : si ce sont ceux du tour de ton ordre, l'ordre publié n'est pas le tien`,
          `your seal ${want} appears in none of the posts given: if they are those of your order's round, the order published is not yours`,
        );
        continue;
      }
      const [key, post, line] = found[0];
      if (want.length < MIN_DIGITS) {
        this.r.missing(
          `ton sceau ${want} est court (${4 * want.length} bits) : pas une preuve`,
          `your seal ${want} is short: not a proof`,
        );
      } else {
        this.r.ok(
          `ton sceau ${want} est celui publié pour ${describe(key)[0]} dans ${post.at(line)[0]}`,
          `your seal ${want} is the one published for ${describe(key)[1]} in ${post.at(line)[1]}`,
        );
      }
    }
  }

  // ---------------------------------------------------------------- Le Magot
  // gm_check.py: pre_names
  async preNames(post, column, count) {
    const names = [];
    for (const line of post.body) {
      const cells = rowCells(line, count);
      if (cells && !["qui", "joueur", "rang"].includes(cells[0])) {
        names.push(cells[column].replace(new RegExp(DEAD_AT.source, "gu"), ""));
      }
    }
    if (!("names" in post.data)) post.data.names = names;
  }

  // gm_check.py: check_label
  async checkLabel(post, line, draw, purpose) {
    const label = draw.label;
    const words = draw.words;
    const [base, plus, digits] = pyPartition(label, "+");
    if (base !== purpose) {
      await this.bad(
        post,
        line,
        `le tirage lit le flux ${base}, celui de ce message est ${purpose}`,
        `the draw reads the stream ${base}, this post's is ${purpose}`,
      );
      return;
    }
    for (const [name] of words) {
      await this.checkPlayer(post, line, name);
    }
    await this.noDuplicates(
      post,
      line,
      words.map(([n]) => n),
      "graine",
      "word",
    );
    if (this.players.length && words.length) {
      const order = words.map(([n]) => n);
      const seated = pySorted(order, (n) => (this.seats.has(n) ? this.seats.get(n) : this.seats.size));
      if (order.some((n, i) => n !== seated[i])) {
        await this.bad(post, line, "graines pas dans l'ordre des joueurs", "words not in seating order");
      }
    }
    if (!words.length) {
      if (plus) {
        await this.bad(
          post,
          line,
          `étiquette ${label} avec un mélange, mais aucune graine listée`,
          `label ${label} has a mix, but no word is listed`,
        );
      } else {
        await this.ok(post, `étiquette ${label} (sans graine des joueurs)`, `label ${label} (no players' words)`);
      }
      return;
    }
    const size = [...digits].length; // len(): code points, whatever the label holds
    if (size !== MIX_DIGITS) {
      await this.bad(
        post,
        line,
        `le mélange des graines a ${size} chiffres hexadécimaux, ${MIX_DIGITS} attendus`,
        `the words' mix has ${size} hex digits, ${MIX_DIGITS} expected`,
      );
      return;
    }
    const readings = checkerTruthy(checkerGet(draw, "ambiguous")) ? spreadWords(words) : [words];
    const good = [];
    for (const w of readings) {
      if ((await labelFor(purpose, w)) === label) good.push(w);
    }
    if (good.length) {
      const shown = good[0].map(([n, w]) => `${n} « ${w} »`).join(" · ");
      await this.ok(post, `étiquette ${label} recalculée des graines ${shown}`, `label ${label} recomputed from the words`);
      draw.words = good[0];
    } else {
      const again = await labelFor(purpose, words);
      await this.bad(
        post,
        line,
        `étiquette recalculée ${again} ≠ publiée ${label}`,
        `recomputed label ${again} ≠ published ${label}`,
      );
    }
  }

  // gm_check.py: shooter
  async shooter(post, line, a, b, ...tables) {
    await this.checkPlayer(post, line, a);
    await this.checkPlayer(post, line, b);
    if (a === b) {
      await this.bad(post, line, `${a} se vise lui-même`, `${a} aims at themself`);
    }
    if (tables.some((t) => checkerHas(t, a))) {
      await this.bad(post, line, `deux lignes pour l'ordre de ${a}`, `two lines for ${a}'s order`);
    }
  }

  // gm_check.py: Checker.as_seats
  asSeats(value) {
    // `value` (a secret as a post shows it) with each player's name of now
    // replaced by their seat: the name the seat had at the opening, which gm
    // seals (logs of protocol 3); older logs sealed the name of the moment,
    // so both forms are tried.
    if (typeof value === "string") {
      const place = this.seats.get(value);
      return place !== undefined && place < this.players.length ? this.players[place] : value;
    }
    if (Array.isArray(value)) {
      return value.map((v) => this.asSeats(v));
    }
    if (value instanceof Map) {
      return new Map([...value].map(([k, v]) => [this.asSeats(k), this.asSeats(v)]));
    }
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.asSeats(k), this.asSeats(v)]));
    }
    return value;
  }

  // gm_check.py: check_opening
  async checkOpening(post, line, key, kind, payloads, salt, digits) {
    // Seal an opened secret again and compare with the seal printed next
    // to its salt. `payloads`: the forms the secret may have been sealed in,
    // the post's own first (a Fistful post before gm 0.2 sealed
    // `{"round": turn, …}`, later ones `{"_v": 2, …}`); each says the same
    // choice, so whichever matches proves it.
    await this.open(key, post, line, digits);
    if (!(await this.focused(post))) {
      return;
    }
    const who = describe(key)[0] + ` (${post.name()[0]})`;
    const forms = payloads.map((p) => JSON.stringify(p));
    const seated = [];
    for (const p of payloads.map((p) => this.asSeats(p))) {
      const form = JSON.stringify(p);
      if (!forms.includes(form)) {
        forms.push(form);
        seated.push(p);
      }
    }
    payloads = [...payloads, ...seated];
    for (const payload of payloads) {
      if (hexDigits(await seal(kind, payload, salt)).startsWith(digits)) {
        const old = kind !== ORDER_KIND && !checkerHas(payload, "_v");
        await checkSeal(this.r, kind, payload, salt, digits, who + (old ? " [avant gm 0.2 / before gm 0.2]" : ""));
        return;
      }
    }
    await checkSeal(this.r, kind, payloads[0], salt, digits, who);
  }

  // gm_check.py: redrawn
  async redrawn(post, line, label, got, shown, what, verb = "donne", done = "retirés") {
    // Report a chance result drawn again from the seed (stream `label`,
    // giving `got`) against what the post shows: a difference names both;
    // a match is a proof only with a seed checked against the commitment.
    // Every game's re-derivation (bills, dice, Colt's train and decks) ends here.
    if (got !== shown) {
      await this.bad(
        post,
        line,
        `avec la graine, le flux ${label} ${verb} ${got} ; le message montre ${shown}`,
        `with the seed, the stream ${label} gives ${got}; the post shows ${shown}`,
      );
    } else if (!this.seedChecked) {
      await this.missing(
        post,
        line,
        `${what[0]} ${done} du flux ${label}, mais avec une graine non comparée au sceau`,
        `${what[1]} drawn again from ${label}, but with a seed not checked against the commitment`,
      );
    } else {
      await this.ok(
        post,
        `${what[0]} ${got} ${done} de la graine, flux ${label}`,
        `${what[1]} ${got} drawn again from the seed, stream ${label}`,
      );
    }
  }

  // gm_check.py: words_never_vanish
  async wordsNeverVanish(drawsInOrder, what) {
    const seen = new Map();
    for (const [, post] of drawsInOrder) {
      const draw = checkerGet(post.data, "draw");
      if (draw === null || typeof draw !== "object" || Array.isArray(draw)) {
        continue;
      }
      const names = new Set(draw.words.map(([n]) => n));
      for (const [name, earlier] of seen) {
        if (!names.has(name) && (await this.focused(post))) {
          await this.bad(
            post,
            checkerGet(post.data, "draw_line"),
            `la graine de ${name}, mêlée à ${earlier.name()[0]}, a disparu de ce tirage`,
            `${name}'s word, mixed into ${earlier.name()[1]}, is missing from this draw`,
          );
        }
      }
      for (const name of names) {
        if (!seen.has(name)) seen.set(name, post);
      }
    }
  }

  // ----------------------------------------------------------------- dice
  // gm_check.py: parse_roll
  async parseRoll(post) {
    const line = post.heading;
    let m = fullmatch(
      checkerRe(
        String.raw`🎲 (?<expr>\S+)(?: pour « (?<reason>.*) »)? : (?<terms>.+?) = (?<total>-?\d+) — tirage (?<draw>.+) ; vérifiable avec la graine du hasard`,
        "d",
      ),
      line.text,
    );
    const old = fullmatch(
      checkerRe(
        String.raw`🎲 (?<expr>\S+)(?: pour « (?<reason>.*) »)? : (?<terms>.+?) = (?<total>-?\d+) — tirage n° \d+ \((?<label>draw/\S+), vérifiable avec la graine\)`,
      ),
      line.text,
    );
    if (m === null && old === null) {
      await this.bad(post, line, "ligne de jet illisible", "unreadable roll line");
      return;
    }
    m = m || old;
    if (group(m, "reason") && search(checkerRe(String.raw`» : .+ = -?\d+ — tirage `), group(m, "reason"))) {
      await this.bad(
        post,
        line,
        "raison du jet ambiguë : elle contient elle-même un résultat de jet",
        "ambiguous roll reason: it holds a roll result itself",
      );
      return;
    }
    const d = post.data;
    if (old !== null && m === old) {
      d.draw = { label: group(old, "label"), words: [], old: true };
    } else {
      const [start, end] = m.indices.groups.draw;
      d.draw = parseDrawClause(line, start, end, await this.known(post));
      if (d.draw === null || d.draw === undefined) {
        d.draw = null;
        await this.bad(post, line, "tirage illisible", "unreadable draw");
        return;
      }
    }
    d.draw_line = line;
    const terms = parseDice(group(m, "expr"));
    const groups = parseGroups(group(m, "terms"));
    if (terms === null || groups === null || terms.length !== groups.length) {
      await this.bad(
        post,
        line,
        `dés illisibles : « ${group(m, "expr")} » et « ${group(m, "terms")} »`,
        "unreadable dice",
      );
      return;
    }
    d.terms = terms;
    d.groups = groups;
    d.total = pyInt(group(m, "total"));
    const label = d.draw.label;
    const base = pyPartition(label, "+")[0];
    post.key = fullmatch(checkerRe(String.raw`(?:roll|draw)/\d+`), base) ? [pyInt(pyPartition(base, "/")[2])] : [0];
    let total = 0;
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t];
      const [sign, values, kept] = groups[t];
      if (term[0] !== sign) {
        await this.bad(post, line, "signe d'un terme différent de l'expression", "a term's sign differs from the expression");
      }
      if (term[1] === "const") {
        if (!(values.length === 1 && values[0] === term[2])) {
          await this.bad(post, line, `constante ${pyRepr(values)} ≠ ${term[2]}`, "constant differs from the expression");
        }
        total += sign * term[2];
        continue;
      }
      const [, count, sides, keep, keepCount] = term;
      if (values.length !== count || !values.every((v) => 1 <= v && v <= sides) || kept === null || kept === undefined) {
        await this.bad(post, line, `dés ${pyRepr(values)} : pas ${count}d${sides}`, `dice ${pyRepr(values)} do not fit ${count}d${sides}`);
        continue;
      }
      let want = new Array(count).fill(true);
      if (keep) {
        const order = pySorted(
          [...Array(count).keys()],
          (i) => values[i],
          keep === "h",
        );
        want = new Array(count).fill(false);
        for (const i of order.slice(0, keepCount)) {
          want[i] = true;
        }
      }
      if (kept.length !== want.length || kept.some((k, i) => k !== want[i])) {
        await this.bad(post, line, "dés gardés/écartés mal marqués", "kept and dropped dice marked wrongly");
      }
      total += sign * values.filter((v, i) => want[i]).reduce((a, b) => a + b, 0);
    }
    if (total !== d.total) {
      await this.bad(post, line, `total ${d.total} ≠ somme des dés ${total}`, `total ${d.total} ≠ sum of the dice ${total}`);
    }
  }

  // gm_check.py: check_rolls
  async checkRolls() {
    const found = [];
    for (const p of this.by.values()) {
      if (p.kind === "roll" && checkerHas(p.data, "terms")) found.push([p.key[0], p]);
    }
    // sorted((n, post)): two rolls on one number compare their posts, which
    // Python cannot order
    const rolls = pySorted(found, (x) => x[0]);
    for (let i = 1; i < rolls.length; i++) {
      if (rolls[i][0] === rolls[i - 1][0]) {
        throw new PyError("TypeError", "'<' not supported between instances of 'Post' and 'Post'");
      }
    }
    const numbers = new Counter(rolls.map(([n]) => n));
    for (const [n, post] of rolls) {
      const d = post.data;
      if (numbers.get(n) > 1 && (await this.focused(post))) {
        await this.bad(post, post.heading, `deux jets lisent le même flux roll/${n}`, `two rolls read the same stream roll/${n}`);
      }
      if (checkerTruthy(checkerGet(d.draw, "old"))) {
        if (await this.focused(post)) {
          await this.missing(
            post,
            post.heading,
            `ancien format de tirage (${d.draw.label}) : étiquette non recalculée`,
            "old draw format: label not recomputed",
          );
        }
      } else if (await this.focused(post)) {
        await this.checkLabel(post, post.heading, d.draw, `roll/${n}`);
      }
      if (!(await this.focused(post))) {
        continue;
      }
      if (this.seed === null) {
        await this.missing(
          post,
          post.heading,
          "graine pas encore révélée : dés non retirés (il faut la fin de partie)",
          "seed not revealed yet: dice not rolled again (the final post is needed)",
        );
        continue;
      }
      const source = stream(this.seed, d.draw.label);
      const expected = [];
      for (const t of d.terms) {
        if (t[1] !== "const") {
          const values = [];
          for (let i = 0; i < t[1]; i++) values.push((await drawBelow(source, t[2])) + 1);
          expected.push(values);
        } else {
          expected.push([t[2]]);
        }
      }
      const shown = d.groups.map(([, values]) => values);
      await this.redrawn(post, post.heading, d.draw.label, pyRepr(expected), pyRepr(shown), ["dés", "dice"]);
    }
    await this.wordsNeverVanish(rolls, "roll");
    if (this.whole && rolls.length) {
      const have = new Set(rolls.map(([n]) => n));
      const top = Math.max(...have);
      for (let n = 1; n < top; n++) {
        if (!have.has(n)) {
          this.r.missing(
            `le jet roll/${n} manque au fil (un jet fait mais pas publié ?)`,
            `roll roll/${n} is missing from the thread (rolled but not posted?)`,
          );
        }
      }
    }
  }

  // gm_check.py: check_complete
  async checkComplete() {
    // `thread`: the posts a game must have, up to where it is.
    const posts = this.posts.filter((p) => !p.obsolete);
    const withGame = posts.find((p) => p.game);
    const game = withGame ? withGame.game : "";
    const have = new Set(posts.map((p) => tk(p.kind, p.key)));
    const missing = [];
    if (game === "magot") {
      const final = this.by.get(tk("magot-final", [])) || null;
      const played = posts
        .filter((p) => ["magot-round", "magot-reveal", "magot-results"].includes(p.kind))
        .map((p) => p.key[0]);
      const top = Math.max(final ? checkerGet(final.data, "rounds", 0) : 0, ...played);
      for (let r = 1; r <= top; r++) {
        const done = r < top || final !== null;
        if (!have.has(tk("magot-round", [r]))) {
          missing.push(`Tour ${r} — la mise`);
        }
        if (!have.has(tk("magot-reveal", [r])) && (done || have.has(tk("magot-results", [r])))) {
          missing.push(`Tour ${r} — les armes sont levées`);
        }
        if (!have.has(tk("magot-results", [r])) && done) {
          missing.push(`Tour ${r} — ça tire`);
        }
      }
    }
    if (game) {
      if (!have.has(tk(`${game}-opening`, []))) {
        missing.push("l'ouverture / the opening");
      }
      if (game === "fistful") {
        if (!have.has(tk("fistful-setup", []))) {
          missing.push("Mise en place");
        }
        const duels = posts.filter((p) => p.kind === "fistful-duel").map((p) => p.key);
        for (const m of pySorted([...new Set(duels.map((k) => k[0]))])) {
          const numbers = new Set(duels.filter((k) => k[0] === m).map((k) => k[1]));
          const top = Math.max(...numbers);
          for (let n = 1; n < top; n++) {
            if (!numbers.has(n)) missing.push(`Manche ${m} — duel ${n}`);
          }
        }
      }
      if (!have.has(tk(`${game}-final`, []))) {
        this.r.missing(
          "la fin de partie manque (ou la partie n'est pas finie) : graine non révélée, tirages non refaits",
          "the final post is missing (or the game is not over): the seed is not revealed, no draw redone",
        );
      } else if (!have.has(tk(`${game}-disclosure`, [])) && game !== "colt") {
        missing.push("le dévoilement / the disclosure"); // Colt's final post discloses
      }
    }
    for (const name of missing) {
      this.r.missing(`message absent du fil : ${name}`, `post missing from the thread: ${name}`);
    }
  }
}
