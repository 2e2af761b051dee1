// magot.js — Le Magot's checks: the methods of gm_check.py's `class Checker`
// that read Le Magot's posts (the round's draw, the reveal, the results, the
// final ranking, the disclosure) and hold them together (check_magot). The
// class itself, its attributes and the checks shared by every game are in
// checker.js; this file only adds methods to its prototype.
//
// Python dicts keyed by a player's name (aims, seals, shots…) are Maps here:
// a name such as « 42 » would come first in a plain object, and the report
// lines must come in Python's order (insertion order).
//
// post.data entries written here (Python's keys, as checker.js keeps them):
//   magot-round:   round, pot, carried, drawn (Array<number> | null), manual,
//                  old_label, old_words, draw (parseDrawClause's object | null),
//                  draw_line (Line), left ([count, amount | null])
//   magot-reveal:  round, missing (Array), aims (Map a → b), seals (Map a →
//                  digits, read by checkObsolete), seal_lines (Map a → Line)
//   magot-results: round, folded (Array), shots (Map a → [b, option, Line]),
//                  disabled, held (Map a → [b, Line]), opened (Map a →
//                  [digits, salt, Line])
//   magot-disclosure: rounds (Map n → {round, rows: Map a → [b, option,
//                  fate, Line], opened: Map a → [digits, salt, Line], header,
//                  line, missing?})

// t[:n] as Python slices a str: by code point, not by UTF-16 unit.
function magotHead(t, n) {
  return [...t].slice(0, n).join("");
}

// sum() of a list of ints.
function magotSum(items) {
  return items.reduce((a, b) => a + b, 0);
}

// `if x in items: items.remove(x)`: the first x, if any.
function magotRemove(items, x) {
  const i = items.indexOf(x);
  if (i >= 0) items.splice(i, 1);
}

// {k[0]: p for (kind, k), p in self.by.items() if kind == KIND}: the posts
// of one kind by their round, in self.by's order.
function magotRounds(checker, want) {
  const out = new Map();
  for (const [k, p] of checker.by) {
    const [kind, key] = JSON.parse(k);
    if (kind === want) out.set(key[0], p);
  }
  return out;
}

Object.assign(Checker.prototype, {
  // gm_check.py: parse_magot_round
  async parseMagotRound(post) {
    const d = post.data;
    d.round = post.key[0];
    let section = true;
    const seen = new Counter();
    for (const line of post.body) {
      const t = line.text;
      if (!section) {
        if (t.startsWith("tirage ") || t.startsWith("nouveaux billets") || t.startsWith("Graines des joueurs")) {
          await this.bad(post, line, "ligne de tirage hors de sa place", "a draw line out of its place");
        }
        continue;
      }
      let m = fullmatch(pyRe(String.raw`Sur la table : (.+)`), t);
      if (m) {
        seen.add("pot");
        d.pot = parseMoney(group(m, 1));
        continue;
      }
      m = fullmatch(pyRe(String.raw`reste du tour (\d+) : (.+)`), t);
      if (m) {
        seen.add("carried");
        d.carried = parseBills(group(m, 2));
        continue;
      }
      m = fullmatch(
        pyRe(String.raw`nouveaux billets : (.+?)( \(tirés à la main par le MJ\)| \(tirage n° \d+, (draw/\S+)\))?`),
        t,
      );
      if (m) {
        seen.add("drawn");
        d.drawn = parseBills(group(m, 1));
        d.manual = Boolean(group(m, 2) && group(m, 2).includes("main"));
        if (group(m, 3)) d.old_label = group(m, 3);
        continue;
      }
      if (t.startsWith("tirage ")) {
        seen.add("draw");
        d.draw = parseDrawClause(line, "tirage ".length, t.length, await this.known(post));
        d.draw_line = line;
        if (d.draw === null || d.draw === undefined) await this.bad(post, line, "ligne de tirage illisible", "unreadable draw line");
        continue;
      }
      m = fullmatch(pyRe(String.raw`Graines des joueurs mêlées au tirage : (.+)`), t);
      if (m) {
        seen.add("old_words");
        d.old_words = group(m, 1);
        continue;
      }
      m = fullmatch(pyRe(String.raw`Il reste (\d+) billets? dans le magot \((.+)\)\.`), t);
      if (m) {
        d.left = [pyInt(group(m, 1)), parseMoney(group(m, 2))];
        section = false;
        continue;
      }
      if (t === "Le magot est vide : c'est la dernière mise.") {
        d.left = [0, 0];
        section = false;
        continue;
      }
      await this.bad(
        post,
        line,
        `ligne inconnue dans le tirage : « ${magotHead(t, 60)} »`,
        `unknown line in the draw: ${pyRepr(magotHead(t, 60))}`,
      );
    }
    for (const [what, count] of seen) {
      if (count > 1) await this.bad(post, null, `ligne « ${what} » en double`, `duplicate ${what} line`);
    }
    if (d.drawn === undefined || d.drawn === null) {
      await this.bad(
        post,
        null,
        "pas de ligne « nouveaux billets » lisible",
        "no readable « nouveaux billets » line",
      );
    } else if (!d.manual && !("draw" in d) && !("old_label" in d)) {
      await this.bad(
        post,
        null,
        "billets tirés par la fortune sans ligne « tirage »",
        "bills drawn by the fortune without a draw line",
      );
    }
    if ("old_label" in d && (await this.focused(post))) {
      await this.missing(
        post,
        null,
        `tirage d'avant gm 0.2 (${d.old_label}) : son étiquette n'est pas recalculée des graines`,
        `a draw from before gm 0.2 (${d.old_label}): its label is not recomputed from the words`,
      );
    }
    if (d.manual && "draw" in d) {
      await this.bad(post, d.draw_line, "tirage à la main avec une ligne de tirage", "a manual draw with a draw line");
    }
    if (d.pot !== undefined && d.pot !== null && d.drawn !== undefined && d.drawn !== null) {
      const total = magotSum(d.carried || []) + magotSum(d.drawn);
      if (total !== d.pot) {
        await this.bad(
          post,
          null,
          `sur la table ${d.pot} $ ≠ report + nouveaux billets ${total} $`,
          `the pot ${d.pot} ≠ carried + new bills ${total}`,
        );
      }
    }
    if ((await this.focused(post)) && d.draw !== null && typeof d.draw === "object" && !Array.isArray(d.draw)) {
      await this.checkLabel(post, d.draw_line, d.draw, `round-${post.key[0]}/bills`);
    }
  },

  // gm_check.py: parse_magot_reveal
  async parseMagotReveal(post) {
    await this.preNames(post, 0, 2);
    const d = post.data;
    const r = (d.round = post.key[0]);
    const aims = new Map();
    const seals = new Map();
    let [section, header, nobody] = [true, false, false];
    for (const line of post.body) {
      const t = line.text;
      if (!section) {
        if (search(SECRETISH, t) || rowCells(line, 2)) {
          await this.bad(
            post,
            line,
            `ligne d'ordre hors de sa section : « ${magotHead(t, 60)} »`,
            "an order line out of its section",
          );
        }
        continue;
      }
      if (t.startsWith("Sur la table : ")) {
        section = false;
        continue;
      }
      if (t === "Personne ne braque personne. Étrange silence dans l'entrepôt.") {
        nobody = true;
        continue;
      }
      let m = fullmatch(
        pyRe(
          String.raw`Sans ordre : (.+) — (?:(?:ils|elles) ne braquent personne|ne braque personne` +
            String.raw`|personne dans leur viseur) ce tour-ci\.`,
        ),
        t,
      );
      if (m) {
        d.missing = parseNames(group(m, 1), await this.known(post)) || [];
        continue;
      }
      m = fullmatch(pyRe(String.raw`Sceaux des ordres : (.+)`), t);
      if (m) {
        if (seals.size) {
          await this.bad(post, line, "ligne « Sceaux des ordres » en double", "duplicate line of seals");
        }
        for (const [name, digits] of await this.sealedEntries(post, line, group(m, 1))) {
          await this.checkPlayer(post, line, name);
          seals.set(name, digits);
          await this.commit(["order", r, name], post, line, digits);
          if (!("seal_lines" in d)) d.seal_lines = new Map();
          d.seal_lines.set(name, line);
        }
        continue;
      }
      const cells = rowCells(line, 2);
      if (cells !== null && cells.length === 2 && cells[0] === "qui" && cells[1] === "braque") {
        if (header) await this.bad(post, line, "en-tête de tableau en double", "duplicate table header");
        header = true;
        continue;
      }
      if (cells !== null && header) {
        const [a, b] = cells;
        await this.checkPlayer(post, line, a);
        await this.checkPlayer(post, line, b);
        if (aims.has(a)) await this.bad(post, line, `${a} braque deux fois`, `${a} aims twice`);
        aims.set(a, b);
        continue;
      }
      await this.bad(
        post,
        line,
        `ligne inconnue dans la révélation : « ${magotHead(t, 60)} »`,
        `unknown line in the reveal: ${pyRepr(magotHead(t, 60))}`,
      );
    }
    if (nobody && aims.size) {
      await this.bad(post, null, "« personne ne braque » et des visées", "« nobody aims » and aims");
    }
    for (const a of aims.keys()) {
      if (!seals.has(a)) {
        await this.bad(post, null, `${a} braque sans sceau d'ordre`, `${a} aims without an order seal`);
      }
    }
    for (const a of seals.keys()) {
      if (!aims.has(a)) {
        await this.bad(
          post,
          null,
          `sceau de ${a} sans visée dans le tableau`,
          `a seal for ${a} without an aim in the table`,
        );
      }
    }
    d.aims = aims;
    d.seals = seals;
    if ((await this.focused(post)) && seals.size && (await this.focused(post))) {
      this.r.note(
        `${post.name()[0]} : ${seals.size} sceaux d'ordres ; chaque joueur compare le sien à sa réponse privée`,
        `${post.name()[1]}: ${seals.size} order seals; each player compares theirs with their private reply`,
      );
    }
  },

  // gm_check.py: parse_magot_results
  async parseMagotResults(post) {
    await this.preNames(post, 0, 4);
    const d = post.data;
    const r = (d.round = post.key[0]);
    const known = await this.known(post);
    let folded = [];
    const shots = new Map(); // a → [b, option, line]
    const disabled = new Map(); // a → [b, line]
    const held = new Map(); // a → [b, line]
    const opened = []; // [name, digits, salt, line]
    let section = true;
    let quiet = false;
    const linesSeen = new Counter();
    for (const line of post.body) {
      const t = line.text;
      if (section && (rematch(pyRe(String.raw`(?:Blessée?s?|Blessures) : `), t) || t === "Personne n'est blessé.")) {
        section = false;
        continue;
      }
      if (!section) {
        if (search(SECRETISH, t)) {
          await this.bad(
            post,
            line,
            `ligne d'ordre hors de sa section : « ${magotHead(t, 60)} »`,
            "an order line out of its section",
          );
        }
        continue;
      }
      linesSeen.add(t);
      if (linesSeen.get(t) > 1) {
        await this.bad(
          post,
          line,
          `ligne en double : « ${magotHead(t, 60)} »`,
          `duplicate line: ${pyRepr(magotHead(t, 60))}`,
        );
        continue;
      }
      let m = fullmatch(
        pyRe(
          String.raw`(?:Couchée?s?|Se couche(?:nt)?) : (.+) — arme baissée, un point de honte` +
            String.raw`(?: chacune?| par tête)?, et l'ordre reste secret\.`,
        ),
        t,
      );
      if (m) {
        if (folded.length) await this.bad(post, line, "ligne « Couché » en double", "duplicate fold line");
        folded = parseNames(group(m, 1), known) || [];
        for (const name of folded) await this.checkPlayer(post, line, name);
        continue;
      }
      m = fullmatch(pyRe(String.raw`(BANG BANG BANG|BANG|CLIC CLIC CLIC) — (.+) : (touché !|raté\.|du bluff !)`), t);
      if (m) {
        const pair = splitPair(group(m, 2), " sur ", known);
        if (pair === null) {
          await this.bad(post, line, "tir illisible (qui sur qui ?)", "unreadable shot (who on whom?)");
          continue;
        }
        const [a, b] = pair;
        if ((group(m, 1) === "CLIC CLIC CLIC") !== (group(m, 3) === "du bluff !")) {
          await this.bad(
            post,
            line,
            "un CLIC CLIC CLIC est du bluff, un BANG touche ou rate",
            "a click is a bluff, a bang hits or misses",
          );
        }
        await this.shooter(post, line, a, b, shots, disabled, held);
        shots.set(a, [b, OPTION_OF.get(group(m, 1)), line]);
        continue;
      }
      m = fullmatch(pyRe(String.raw`(.+), (?:sonnée?|groggy), ne tire pas sur (.+)\.`), t);
      if (m) {
        await this.shooter(post, line, group(m, 1), group(m, 2), shots, disabled, held);
        disabled.set(group(m, 1), [group(m, 2), line]);
        continue;
      }
      m = fullmatch(pyRe(String.raw`(.+) braquait (.+), qui (?:s'est couchée?|a baissé son arme) : pas de tir\.`), t);
      if (m) {
        await this.shooter(post, line, group(m, 1), group(m, 2), shots, disabled, held);
        held.set(group(m, 1), [group(m, 2), line]);
        continue;
      }
      if (t === "Pas un coup de feu.") {
        quiet = true;
        continue;
      }
      m = fullmatch(pyRe(String.raw`Sceaux ouverts : (.+)`), t);
      if (m) {
        if (opened.length) {
          await this.bad(post, line, "ligne « Sceaux ouverts » en double", "duplicate « Sceaux ouverts » line");
        }
        for (const [n, s, salt] of await this.openedEntries(post, line, group(m, 1))) opened.push([n, s, salt, line]);
        continue;
      }
      await this.bad(
        post,
        line,
        `ligne inconnue parmi les tirs : « ${magotHead(t, 60)} »`,
        `unknown line among the shots: ${pyRepr(magotHead(t, 60))}`,
      );
    }
    if (quiet && (shots.size || disabled.size || held.size)) {
      await this.bad(post, null, "« pas un coup de feu » et des tirs", "« not a shot » and shots");
    }
    const byName = new Map();
    for (const [n, s, salt, line] of opened) byName.set(n, [s, salt, line]);
    for (const [name, [, , line]] of byName) {
      await this.checkPlayer(post, line, name);
      if (!shots.has(name)) {
        await this.bad(
          post,
          line,
          `sceau ouvert de ${name} sans sa ligne de tir`,
          `${name}'s opened seal has no shot line`,
        );
      }
    }
    for (const [a, [b, option, line]] of shots) {
      if (!byName.has(a)) {
        await this.bad(post, line, `tir de ${a} sans son sceau ouvert`, `${a}'s shot has no opened seal`);
        continue;
      }
      const [digits, salt, oline] = byName.get(a);
      const payload = { round: r, player: a, target: b, option };
      await this.checkOpening(post, oline, ["order", r, a], ORDER_KIND, [payload], salt, digits);
    }
    // the rules, as the posts show them
    const triples = new Set([...shots.values()].filter(([, o]) => o === "triple").map(([b]) => b));
    for (const [a, [b, option, line]] of shots) {
      if (option !== "triple" && triples.has(a)) {
        await this.bad(
          post,
          line,
          `${a}, touché par un BANG BANG BANG, ne peut pas tirer`,
          `${a}, hit by a triple, cannot shoot`,
        );
      }
      if (folded.includes(a) || folded.includes(b)) {
        await this.bad(post, line, `tir entre ${a} et ${b}, dont un s'est couché`, "a shot involving a player who folded");
      }
    }
    for (const [a, [, line]] of disabled) {
      if (!triples.has(a)) {
        await this.bad(
          post,
          line,
          `${a} sonné sans BANG BANG BANG sur lui`,
          `${a} disabled without a triple on them`,
        );
      }
    }
    for (const [a, [b, line]] of held) {
      if (!folded.includes(b)) {
        await this.bad(
          post,
          line,
          `${a} retenu par ${b}, qui ne s'est pas couché`,
          `${a} held by ${b}, who did not fold`,
        );
      }
    }
    Object.assign(d, { folded, shots, disabled, held, opened: byName });
  },

  // gm_check.py: parse_magot_final
  async parseMagotFinal(post) {
    await this.preNames(post, 1, 5);
  },

  // gm_check.py: parse_magot_disclosure
  async parseMagotDisclosure(post) {
    let known = await this.known(post);
    if (!known.length) {
      known = [];
      for (const li of post.body) {
        const c = rowCells(li, 4);
        if (c && c[0] !== "qui") known.push(c[0]);
      }
    }
    const rounds = new Map(); // n → {round, rows, opened, header, line, missing?}
    let current = null;
    for (const line of post.body) {
      const t = line.text;
      let m = fullmatch(pyRe(String.raw`Tour (\d+)`), t);
      if (m) {
        const n = pyInt(group(m, 1));
        if (rounds.has(n)) await this.bad(post, line, `tour ${n} en double`, `round ${n} twice`);
        current = { round: n, rows: new Map(), opened: new Map(), header: false, line };
        rounds.set(n, current);
        continue;
      }
      if (current === null) {
        await this.bad(
          post,
          line,
          `ligne hors de tout tour : « ${magotHead(t, 60)} »`,
          `a line outside any round: ${pyRepr(magotHead(t, 60))}`,
        );
        continue;
      }
      const cells = rowCells(line, 4);
      if (
        cells !== null &&
        cells.length === 4 &&
        cells[0] === "qui" &&
        cells[1] === "braquait" &&
        cells[2] === "avec" &&
        cells[3] === "sort"
      ) {
        if (current.header) await this.bad(post, line, "en-tête de tableau en double", "duplicate table header");
        current.header = true;
        continue;
      }
      if (cells !== null && current.header && OPTION_OF.has(cells[2]) && FATE_OF.has(cells[3])) {
        const [a, b] = [cells[0], cells[1]];
        await this.checkPlayer(post, line, a);
        await this.checkPlayer(post, line, b);
        if (current.rows.has(a)) {
          await this.bad(
            post,
            line,
            `tour ${current.round} : deux lignes pour l'ordre de ${a}`,
            `round ${current.round}: two rows for ${a}'s order`,
          );
        }
        current.rows.set(a, [b, OPTION_OF.get(cells[2]), FATE_OF.get(cells[3]), line]);
        continue;
      }
      m = fullmatch(pyRe(String.raw`Sans ordre : (.+)\.`), t);
      if (m) {
        current.missing = parseNames(group(m, 1), known) || [];
        continue;
      }
      m = fullmatch(pyRe(String.raw`Sceaux ouverts : (.+)`), t);
      if (m) {
        if (current.opened.size) {
          await this.bad(post, line, "ligne « Sceaux ouverts » en double", "duplicate « Sceaux ouverts » line");
        }
        for (const [n, digits, salt] of await this.openedEntries(post, line, group(m, 1))) {
          if (current.opened.has(n)) {
            await this.bad(post, line, `sceau ouvert en double pour ${n}`, `duplicate opened seal for ${n}`);
          }
          current.opened.set(n, [digits, salt, line]);
        }
        continue;
      }
      await this.bad(
        post,
        line,
        `ligne inconnue dans le dévoilement : « ${magotHead(t, 60)} »`,
        `unknown line in the disclosure: ${pyRepr(magotHead(t, 60))}`,
      );
    }
    for (const [n, block] of rounds) {
      for (const [a, [, , line]] of block.opened) {
        await this.checkPlayer(post, line, a);
        if (!block.rows.has(a)) {
          await this.bad(
            post,
            line,
            `tour ${n} : sceau ouvert de ${a} sans sa ligne`,
            `round ${n}: ${a}'s opened seal has no row`,
          );
        }
      }
      for (const [a, [b, option, , line]] of block.rows) {
        if (!block.opened.has(a)) {
          await this.bad(
            post,
            line,
            `tour ${n} : ordre de ${a} sans son sceau ouvert`,
            `round ${n}: ${a}'s order has no opened seal`,
          );
          continue;
        }
        const [digits, salt, oline] = block.opened.get(a);
        const payload = { round: n, player: a, target: b, option };
        await this.checkOpening(post, oline, ["order", n, a], ORDER_KIND, [payload], salt, digits);
      }
    }
    for (const block of rounds.values()) await this.fatesHoldTogether(post, block);
    if (rounds.size) {
      const top = Math.max(...rounds.keys());
      const have = pySorted([...rounds.keys()]);
      const want = Array.from({ length: top }, (_, i) => i + 1);
      if (have.length !== want.length || have.some((n, i) => n !== want[i])) {
        const gone = want.filter((n) => !rounds.has(n));
        await this.bad(
          post,
          null,
          `tours manquants dans le dévoilement : ${pyRepr(gone)}`,
          "rounds missing from the disclosure",
        );
      }
    }
    post.data.rounds = rounds;
  },

  // gm_check.py: fates_hold_together
  async fatesHoldTogether(post, block) {
    const [n, rows] = [block.round, block.rows];
    const triples = new Set();
    for (const [b, option, fate] of rows.values()) if (option === "triple" && fate === "fired") triples.add(b);
    const folded = new Set();
    for (const [a, [, , fate]] of rows) if (fate === "lowered") folded.add(a);
    const missing = new Set(block.missing || []);
    for (const a of missing) folded.add(a);
    for (const [a, [b, option, fate, line]] of rows) {
      if (fate === "fired" && option !== "triple" && triples.has(a)) {
        await this.bad(
          post,
          line,
          `tour ${n} : ${a}, touché par un BANG BANG BANG, ne peut pas tirer`,
          `round ${n}: ${a}, hit by a triple, cannot shoot`,
        );
      }
      if (fate === "disabled" && (!triples.has(a) || option === "triple")) {
        await this.bad(
          post,
          line,
          `tour ${n} : ${a} sonné sans BANG BANG BANG sur lui`,
          `round ${n}: ${a} disabled without a triple on them`,
        );
      }
      if (fate === "held" && !folded.has(b)) {
        await this.bad(
          post,
          line,
          `tour ${n} : ${a} retenu par ${b}, qui ne s'est pas couché`,
          `round ${n}: ${a} held by ${b}, who did not fold`,
        );
      }
      if ((fate === "fired" || fate === "disabled") && folded.has(b) && !missing.has(b)) {
        await this.bad(
          post,
          line,
          `tour ${n} : ${a} tire sur ${b}, qui s'est couché`,
          `round ${n}: ${a} shoots at ${b}, who folded`,
        );
      }
    }
  },

  // gm_check.py: check_magot
  async checkMagot() {
    const opening = this.by.get(tk("magot-opening", [])) ?? null;
    const reveals = magotRounds(this, "magot-reveal");
    const results = magotRounds(this, "magot-results");
    const rounds = magotRounds(this, "magot-round");
    for (const [r, post] of results) {
      if (!(await this.focused(post))) continue;
      const reveal = reveals.get(r);
      if (reveal === undefined) {
        await this.missing(
          post,
          null,
          "la révélation de ce tour manque : les sceaux ouverts ne sont pas comparés à ceux publiés avant les résultats, ni les ordres comptés",
          "this round's reveal is missing: the opened seals are not compared with those published before the results, nor the orders counted",
        );
        continue;
      }
      await this.resultsAgainstReveal(post, reveal);
    }
    const disclosure = this.by.get(tk("magot-disclosure", [])) ?? null;
    if (disclosure !== null && (await this.focused(disclosure))) {
      for (const [n, block] of disclosure.data.rounds ?? new Map()) {
        const reveal = reveals.get(n);
        if (reveal === undefined) {
          await this.missing(
            disclosure,
            block.line,
            `tour ${n} : la révélation manque, ses ordres ne sont pas comparés aux sceaux publiés avant les résultats`,
            `round ${n}: the reveal is missing, its orders are not compared with the seals published before the results`,
          );
          continue;
        }
        const [aims, seals] = [reveal.data.aims ?? new Map(), reveal.data.seals ?? new Map()];
        for (const a of seals.keys()) {
          if (!block.rows.has(a)) {
            await this.bad(
              disclosure,
              block.line,
              `tour ${n} : l'ordre de ${a}, scellé à la révélation, manque`,
              `round ${n}: ${a}'s order, sealed at the reveal, is missing`,
            );
          }
        }
        for (const [a, [b, , , line]] of block.rows) {
          if (!seals.has(a)) {
            await this.bad(
              disclosure,
              line,
              `tour ${n} : ordre de ${a} absent de la révélation`,
              `round ${n}: ${a}'s order is not in the reveal`,
            );
          } else if ((aims.get(a) ?? null) !== b) {
            await this.bad(
              disclosure,
              line,
              `tour ${n} : ${a} braquait ${pyStr(aims.get(a))} à la révélation, pas ${b}`,
              `round ${n}: ${a} aimed at ${pyStr(aims.get(a))} at the reveal, not ${b}`,
            );
          }
        }
        const result = results.get(n);
        if (result !== undefined) await this.fatesAgainstResults(disclosure, block, result);
      }
    }
    // the draws: the deck is the opening's loot, minus the bills of earlier rounds
    let deck = opening !== null ? [...(opening.data.deck ?? [])] : null;
    const perRound = opening !== null ? opening.data.per_round ?? 5 : 5;
    const last = rounds.size ? Math.max(...rounds.keys()) : 0;
    for (let r = 1; r <= last; r++) {
      const post = rounds.get(r);
      if (post === undefined) {
        deck = null;
        continue;
      }
      const drawn = post.data.drawn ?? null;
      const focus = await this.focused(post);
      if (deck === null || drawn === null) {
        if (focus) {
          const why = [
            opening === null
              ? ["l'ouverture manque (le magot de départ)", "the opening (the starting loot) is missing"]
              : ["la mise d'un tour précédent manque", "an earlier round's draw post is missing"],
          ];
          if ((this.seed === null || this.seed === undefined) && !post.data.manual) {
            why.push([
              "la graine n'est pas encore révélée (la fin de partie manque)",
              "the seed is not revealed yet (the final post is missing)",
            ]);
          }
          await this.missing(
            post,
            null,
            "billets non retirés du magot : " + why.map((w) => w[0]).join(" ; "),
            "bills not drawn again: " + why.map((w) => w[1]).join("; "),
          );
        }
        deck = null;
        continue;
      }
      const count = Math.min(perRound, deck.length);
      let rest;
      if (post.data.manual) {
        if (focus) {
          const have = new Counter(deck);
          const extra = [...new Counter(drawn)].some(([bill, k]) => k > have.get(bill));
          if (extra || drawn.length !== count) {
            await this.bad(
              post,
              null,
              `billets tirés à la main ${pyRepr(drawn)} : pas ${count} billets du magot restant`,
              `bills drawn by hand ${pyRepr(drawn)}: not ${count} bills of the remaining loot`,
            );
          } else {
            await this.ok(
              post,
              "billets tirés à la main, bien pris dans le magot restant",
              "bills drawn by hand, taken from the remaining loot",
            );
            this.r.note(
              `${post.name()[0]} : billets choisis par le MJ (tirés à la main), pas par le hasard`,
              `${post.name()[1]}: bills chosen by the MJ (drawn by hand), not by chance`,
            );
          }
        }
        rest = [...deck];
        for (const bill of drawn) magotRemove(rest, bill);
      } else {
        const draw = post.data.draw || {};
        const label = draw.label || post.data.old_label;
        rest = [...deck];
        if (this.seed === null || this.seed === undefined) {
          if (focus) {
            await this.missing(
              post,
              null,
              "graine pas encore révélée : billets non retirés (il faut la fin de partie)",
              "seed not revealed yet: bills not drawn again (the final post is needed)",
            );
          }
          for (const bill of drawn) magotRemove(rest, bill);
        } else if (label) {
          const source = stream(this.seed, label);
          const got = [];
          for (let i = 0; i < count; i++) got.push(rest.splice(await drawBelow(source, rest.length), 1)[0]);
          if (focus) {
            await this.redrawn(post, null, label, fmtBills(got), fmtBills(drawn), ["billets", "bills"], "tire");
          }
          rest = pySorted(rest, (x) => x, true);
          const a = pySorted(got, (x) => x, true);
          const b = pySorted(drawn, (x) => x, true);
          if (a.length !== b.length || a.some((x, i) => x !== b[i])) {
            rest = [...deck];
            for (const bill of drawn) magotRemove(rest, bill);
          }
        } else {
          for (const bill of drawn) magotRemove(rest, bill);
        }
      }
      const left = post.data.left ?? null;
      if (focus && left !== null && (left[0] !== rest.length || left[1] !== magotSum(rest))) {
        await this.bad(
          post,
          null,
          `il reste ${left[0]} billets (${pyStr(left[1])} $) d'après le message, ${rest.length} (${magotSum(rest)} $) d'après le magot`,
          `the post says ${left[0]} bills (${pyStr(left[1])} $) are left, the loot says ${rest.length} (${magotSum(rest)} $)`,
        );
      }
      deck = pySorted(rest, (x) => x, true);
    }
    await this.wordsNeverVanish(
      pySorted([...rounds.entries()], (e) => e[0]),
      "round",
    );
    if (opening !== null && (await this.focused(opening)) && opening.data.commitment) {
      const digits = opening.data.commitment;
      if (digits.length < MIN_DIGITS) {
        await this.missing(
          opening,
          opening.data.commitment_line,
          "sceau du hasard court : pas une preuve",
          "short commitment: not a proof",
        );
      }
    }
  },

  // gm_check.py: results_against_reveal
  async resultsAgainstReveal(post, reveal) {
    const [aims, seals] = [reveal.data.aims ?? new Map(), reveal.data.seals ?? new Map()];
    const d = post.data;
    const [folded, shots, disabled, held, opened] = [d.folded, d.shots, d.disabled, d.held, d.opened];
    const accounted = new Map();
    for (const [a, [b, , line]] of shots) accounted.set(a, ["shot", b, line]);
    for (const [a, [b, line]] of disabled) accounted.set(a, ["disabled", b, line]);
    for (const [a, [b, line]] of held) accounted.set(a, ["held", b, line]);
    for (const [a, [, b, line]] of accounted) {
      if (!seals.has(a)) {
        await this.bad(post, line, `${a} n'a pas de sceau d'ordre à la révélation`, `${a} has no order seal in the reveal`);
      } else if ((aims.get(a) ?? null) !== b) {
        await this.bad(
          post,
          line,
          `${a} braquait ${pyStr(aims.get(a))} à la révélation, pas ${b}`,
          `${a} aimed at ${pyStr(aims.get(a))} at the reveal, not ${b}`,
        );
      }
    }
    for (const a of seals.keys()) {
      if (accounted.has(a) || folded.includes(a)) continue;
      await this.bad(
        post,
        null,
        `l'ordre scellé de ${a} (révélation) n'est ni tiré, ni baissé, ni retenu, ni sonné dans les résultats`,
        `${a}'s sealed order (reveal) is neither shot, lowered, held nor disabled in the results`,
      );
    }
    for (const a of folded) {
      if (accounted.has(a)) {
        await this.bad(post, null, `${a} s'est couché mais son ordre a une ligne`, `${a} folded yet their order has a line`);
      }
    }
    const unopened = [...seals.keys()].filter((a) => !opened.has(a));
    if (unopened.length) {
      this.r.note(
        `${post.name()[0]} : ordres restés secrets (baissés, retenus, sonnés) : ${unopened.join(", ")} — ouverts au dévoilement`,
        `${post.name()[1]}: orders kept secret (lowered, held, disabled): ${unopened.join(", ")} — opened by the disclosure`,
      );
    }
  },

  // gm_check.py: fates_against_results
  async fatesAgainstResults(disclosure, block, result) {
    const n = block.round;
    const d = result.data;
    for (const [a, [b, option, fate, line]] of block.rows) {
      let ok;
      if (fate === "fired") {
        const shot = d.shots.get(a);
        ok = shot !== undefined && shot[0] === b && shot[1] === option;
      } else if (fate === "lowered") {
        ok = d.folded.includes(a);
      } else if (fate === "held") {
        ok = d.held.has(a);
      } else {
        ok = d.disabled.has(a);
      }
      if (!ok) {
        await this.bad(
          disclosure,
          line,
          `tour ${n} : le sort de l'ordre de ${a} ne correspond pas aux résultats`,
          `round ${n}: the fate of ${a}'s order does not match the results`,
        );
      }
      const opened = d.opened.get(a);
      if (opened && block.opened.has(a) && block.opened.get(a)[1] !== opened[1]) {
        await this.bad(
          disclosure,
          line,
          `tour ${n} : le sel de ${a} diffère de celui des résultats`,
          `round ${n}: ${a}'s salt differs from the results'`,
        );
      }
    }
  },
});
