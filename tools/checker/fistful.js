// fistful.js — Fistful of Gold's methods of the Checker (gm_check.py's
// cards_line … fistful_turn, parse_fistful_duel … check_fistful): the setup
// seals, each duel's cards sealed again from their salts, the end-of-manche
// choices, and the disclosure's every secret against the seals published
// before it.

// text[:n] as Python slices it: by code points, not UTF-16 units (names may hold emoji).
function fcHead(text, n) {
  return [...text].slice(0, n).join("");
}

// Python's == between two dicts of str values (Maps here): same keys, same values, any order.
function fistfulSameDict(a, b) {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (!b.has(k) || b.get(k) !== v) return false;
  return true;
}

// f"{d}" of a dict of str to str (a Map): « {'ana': '5', 'bob': 'dynamite'} ».
function fistfulDictRepr(d) {
  return "{" + [...d].map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ") + "}";
}

const FISTFUL_CARDS_LINE = pyRe(String.raw`(.+) joue (?:le|la) (${CARD}), (.+) (?:le|la) (${CARD})\.`, "s");
const FISTFUL_SETUP_SEALS = pyRe(
  String.raw`Sceaux des défausses : (.+) — ils seront ouverts à la fin de la partie\.`,
  "s",
);
const FISTFUL_FOOTER_TURN = pyRe(String.raw` · tour (\d+)`, "s");
const FISTFUL_OPENED = pyRe(String.raw`Sceaux ouverts : (.+)`, "s");
const FISTFUL_DISCARDS = pyRe(String.raw`Défausses, face cachée : (.+)\.`, "s");
const FISTFUL_END_SEALS = pyRe(String.raw`Sceaux des choix de fin de manche : (.+)`, "s");
const FISTFUL_D_SETUP = pyRe(String.raw`Mise en place(?: \(tour 1\))? : (.+)\.`, "s");
const FISTFUL_D_SETUP_PART = pyRe(String.raw`(.+) a défaussé (?:le|la) (${CARD}) et (?:le|la) (${CARD})`, "s");
const FISTFUL_D_MANCHE = pyRe(String.raw`Manche (\d+)`, "s");
const FISTFUL_D_OPENED = pyRe(String.raw`Sceaux ouverts \(([^)]*)\) : (.+)`, "s");
const FISTFUL_D_DUEL = pyRe(String.raw`duel (\d+)(?: \(tour (\d+)\))? : (.+)`, "s");
const FISTFUL_D_TAKEN = pyRe(String.raw`(.+) a repris (?:le|la) ${CARD} \(8 vert\)`, "s");
const FISTFUL_D_DISCARDS = pyRe(String.raw`défausses(?: \(tour (\d+)\))? : (.+)`, "s");
const FISTFUL_D_FINAL = pyRe(String.raw`ultime duel : (.+)`, "s");
const FISTFUL_CARD_RE = pyRe(CARD, "s");
const FISTFUL_OLD_TURN = pyRe(String.raw`tour (\d+)`, "s");
const FISTFUL_OLD_TURN_LATER = pyRe(String.raw`, tour (\d+) avant gm 0\.2$`, "s");
const FISTFUL_DUEL_PLACE = pyRe(String.raw`manche (\d+), duel (\d+)`, "s");
const FISTFUL_END_PLACE = pyRe(String.raw`fin de la manche (\d+)`, "s");

Object.assign(Checker.prototype, {
  // gm_check.py: cards_line
  async cardsLine(post, line) {
    const m = fullmatch(FISTFUL_CARDS_LINE, line.text);
    if (m === null) return null;
    const [a, b] = [m[1], m[3]];
    for (const name of [a, b]) await this.checkPlayer(post, line, name);
    if (a === b) await this.bad(post, line, `${a} deux fois`, `${a} twice`);
    const cards = new Map([
      [a, [cardValue(m[2]), cardColor(m[2])]],
      [b, [cardValue(m[4]), cardColor(m[4])]],
    ]);
    await this.checkColors(post, line, new Map([...cards].map(([n, c]) => [n, [c]])));
    return cards;
  },

  // gm_check.py: check_colors
  async checkColors(post, line, cards) {
    for (const [name, items] of cards) {
      const colors = new Set(items.map(([, c]) => c));
      const expected = this.colors.get(name) ?? null;
      if (colors.size > 1 || (expected && colors.size && !(colors.size === 1 && colors.has(expected)))) {
        await this.bad(
          post,
          line,
          `cartes de ${name} d'une autre couleur que son deck`,
          `${name}'s cards are not of their deck's colour`,
        );
      }
    }
  },

  // gm_check.py: parse_fistful_setup
  async parseFistfulSetup(post) {
    let found = false;
    for (const line of post.body) {
      const m = fullmatch(FISTFUL_SETUP_SEALS, line.text);
      if (m) {
        if (found) await this.bad(post, line, "ligne de sceaux en double", "duplicate line of seals");
        found = true;
        const entries = await this.sealedEntries(post, line, m[1]);
        post.data.seals = new Map(entries);
        for (const [name, digits] of entries) {
          await this.checkPlayer(post, line, name);
          await this.commit(["setup", name], post, line, digits);
        }
        if (this.players.length) {
          const have = pySorted(entries.map(([n]) => n));
          const want = pySorted(this.players);
          if (have.length !== want.length || have.some((n, i) => n !== want[i])) {
            await this.bad(post, line, "il faut un sceau de défausse par joueur", "one setup seal per player is needed");
          }
        }
        continue;
      }
      if (search(SECRETISH, line.text)) {
        await this.bad(
          post,
          line,
          `ligne inconnue qui ressemble à un secret : « ${fcHead(line.text, 60)} »`,
          "an unknown line that looks like a secret",
        );
      }
    }
    if (!found) await this.bad(post, null, "pas de ligne « Sceaux des défausses »", "no line of setup seals");
  },

  // gm_check.py: fistful_turn
  async fistfulTurn(post) {
    // The turn an older post (before gm 0.2) printed in its footer.
    if (post.footer === null || post.footer === undefined) return null;
    const m = search(FISTFUL_FOOTER_TURN, post.footer.text);
    return m ? pyInt(m[1]) : null;
  },

  // gm_check.py: parse_fistful_duel
  async parseFistfulDuel(post) {
    const [manche, duel] = [post.key[0], post.key[1]];
    let cards = null;
    let opened = [];
    let oline = null;
    for (const line of post.body) {
      const t = line.text;
      const got = await this.cardsLine(post, line);
      if (got !== null) {
        if (cards !== null) await this.bad(post, line, "deux lignes de cartes", "two card lines");
        cards = got;
        continue;
      }
      const m = fullmatch(FISTFUL_OPENED, t);
      if (m) {
        if (oline !== null) {
          await this.bad(post, line, "ligne « Sceaux ouverts » en double", "duplicate « Sceaux ouverts » line");
        }
        post.data.names = cards !== null ? [...cards.keys()] : [];
        opened = opened.concat(await this.openedEntries(post, line, m[1]));
        oline = line;
        continue;
      }
      if (search(SECRETISH, t)) {
        await this.bad(
          post,
          line,
          `ligne inconnue qui montre une carte ou un sceau : « ${fcHead(t, 60)} »`,
          "an unknown line that shows a card or a seal",
        );
      }
    }
    if (cards === null) {
      await this.bad(post, null, "pas de ligne « X joue le … » lisible", "no readable card line");
      return;
    }
    post.data.cards = cards;
    if (oline === null) {
      await this.bad(post, null, "cartes montrées sans « Sceaux ouverts »", "cards shown without « Sceaux ouverts »");
      return;
    }
    const byName = new Map(opened.map(([n, s, salt]) => [n, [s, salt]]));
    const turn = await this.fistfulTurn(post);
    for (const [name, [card]] of cards) {
      if (!byName.has(name)) {
        await this.bad(post, oline, `carte de ${name} sans son sceau ouvert`, `${name}'s card has no opened seal`);
        continue;
      }
      const [digits, salt] = byName.get(name);
      const payloads = [{ _v: 2, manche, duel, player: name, card }];
      if (turn !== null) payloads.unshift({ round: turn, player: name, card });
      await this.checkOpening(post, oline, ["card", manche, duel, name], FISTFUL_CARD, payloads, salt, digits);
    }
    for (const name of byName.keys()) {
      if (!cards.has(name)) {
        await this.bad(post, oline, `sceau ouvert de ${name} sans sa carte`, `${name}'s opened seal has no card`);
      }
    }
    if (await this.focused(post)) {
      this.r.note(
        `${post.name()[0]} : chaque joueur compare le sceau de sa carte à celui de sa réponse privée (--seal)`,
        `${post.name()[1]}: each player compares their card's seal with the one in their private reply (--seal)`,
      );
    }
  },

  // gm_check.py: parse_fistful_manche
  async parseFistfulManche(post) {
    const manche = post.key[0];
    let final = null;
    let counts = new Map();
    const committed = new Map();
    let opened = [];
    let oline = null;
    let cline = null;
    for (const line of post.body) {
      const t = line.text;
      const got = await this.cardsLine(post, line);
      if (got !== null) {
        if (final !== null) await this.bad(post, line, "deux lignes d'ultime duel", "two final-duel lines");
        final = got;
        continue;
      }
      let m = fullmatch(FISTFUL_DISCARDS, t);
      if (m) {
        const entries = parseEntries(m[1], String.raw`(\d+) cartes?`, await this.known(post));
        if (entries === null || entries === undefined) {
          await this.bad(post, line, "ligne des défausses illisible", "unreadable discards line");
        } else {
          counts = new Map(entries.map(([n, e]) => [n, pyInt(e[1])]));
          if (!("names" in post.data)) post.data.names = [...counts.keys()];
        }
        continue;
      }
      m = fullmatch(FISTFUL_END_SEALS, t);
      if (m) {
        if (cline !== null) await this.bad(post, line, "ligne de sceaux en double", "duplicate line of seals");
        cline = line;
        for (const [name, digits] of await this.sealedEntries(post, line, m[1])) {
          await this.checkPlayer(post, line, name);
          committed.set(name, digits);
          await this.commit(["end", manche, name], post, line, digits);
        }
        continue;
      }
      m = fullmatch(FISTFUL_OPENED, t);
      if (m) {
        if (oline !== null) {
          await this.bad(post, line, "ligne « Sceaux ouverts » en double", "duplicate « Sceaux ouverts » line");
        }
        opened = opened.concat(await this.openedEntries(post, line, m[1]));
        oline = line;
        continue;
      }
      if (search(SECRETISH, t) && !t.includes(" a repris ")) {
        await this.bad(
          post,
          line,
          `ligne inconnue qui montre une carte ou un sceau : « ${fcHead(t, 60)} »`,
          "an unknown line that shows a card or a seal",
        );
      }
    }
    Object.assign(post.data, { final, counts, committed, seals: committed });
    const turn = await this.fistfulTurn(post);
    const byName = new Map(opened.map(([n, s, salt]) => [n, [s, salt]]));
    for (const [name, [digits, salt]] of byName) {
      if (!committed.has(name)) {
        await this.bad(
          post,
          oline,
          `sceau ouvert de ${name} sans sceau de choix`,
          `${name}'s opened seal has no committed choice`,
        );
      }
      if (final === null || !final.has(name) || counts.get(name) !== 1) {
        await this.bad(
          post,
          oline,
          `sel de ${name} publié sans choix montré en entier (une défausse, montrée à l'ultime duel)`,
          `${name}'s salt is published but no choice is shown whole (one discard, shown in the final duel)`,
        );
        continue;
      }
      const card = final.get(name)[0];
      const choice = { discards: [card], final: null };
      const payloads = [{ _v: 2, manche, player: name, choice }];
      if (turn !== null) payloads.unshift({ round: turn, player: name, choice });
      await this.checkOpening(post, oline || post.heading, ["end", manche, name], FISTFUL_END, payloads, salt, digits);
    }
    if (final !== null) {
      for (const name of committed.keys()) {
        if (counts.get(name) === 1 && !byName.has(name)) {
          await this.bad(
            post,
            cline,
            `le choix de ${name} (une défausse, montrée à l'ultime duel) n'est pas ouvert`,
            `${name}'s choice (one discard, shown in the final duel) is not opened`,
          );
        }
      }
    }
  },

  // gm_check.py: parse_fistful_disclosure
  async parseFistfulDisclosure(post) {
    const known = await this.known(post);
    // "older" is [] in gm_check.py: a falsy placeholder the openings replace with a count
    const d = { setup: new Map(), manches: new Map(), opened: [], older: 0 };
    let manche = null;
    let section = true;
    const seen = new Counter();
    for (const line of post.body) {
      const t = line.text;
      if (t.startsWith("À la fin : ")) {
        section = false;
        continue;
      }
      if (!section) {
        if (search(SECRETISH, t) || t.startsWith("duel ") || t.startsWith("défausses") || t.startsWith("ultime duel")) {
          await this.bad(
            post,
            line,
            `ligne de secret hors de sa section : « ${fcHead(t, 60)} »`,
            "a secret line out of its section",
          );
        }
        continue;
      }
      const scope = tk(manche !== null ? manche.n : 0, t);
      seen.add(scope);
      if (seen.get(scope) > 1) {
        await this.bad(post, line, `ligne en double : « ${fcHead(t, 60)} »`, `duplicate line: ${pyRepr(fcHead(t, 60))}`);
        continue;
      }
      let m = fullmatch(FISTFUL_D_SETUP, t);
      if (m) {
        for (const part of pySplit(m[1], " ; ")) {
          const s = fullmatch(FISTFUL_D_SETUP_PART, part);
          if (s === null) {
            await this.bad(post, line, `mise en place illisible : « ${fcHead(part, 40)} »`, "unreadable setup");
            continue;
          }
          if (d.setup.has(s[1])) {
            await this.bad(post, line, `mise en place de ${s[1]} en double`, `${s[1]}'s setup twice`);
          }
          await this.checkPlayer(post, line, s[1]);
          await this.checkColors(
            post,
            line,
            new Map([
              [
                s[1],
                [
                  [cardValue(s[2]), cardColor(s[2])],
                  [cardValue(s[3]), cardColor(s[3])],
                ],
              ],
            ]),
          );
          d.setup.set(s[1], [[cardValue(s[2]), cardValue(s[3])], line]);
        }
        continue;
      }
      m = fullmatch(FISTFUL_D_MANCHE, t);
      if (m) {
        const n = pyInt(m[1]);
        if (d.manches.has(n)) await this.bad(post, line, `manche ${n} en double`, `manche ${n} twice`);
        manche = { n, duels: new Map(), discards: new Map(), final: null, line, turns: new Map() };
        d.manches.set(n, manche);
        continue;
      }
      m = fullmatch(FISTFUL_D_OPENED, t);
      if (m) {
        d.opened.push([m[1], await this.openedEntries(post, line, m[2]), line, manche]);
        continue;
      }
      if (manche === null) {
        await this.bad(
          post,
          line,
          `ligne hors de toute manche : « ${fcHead(t, 60)} »`,
          `a line outside any manche: ${pyRepr(fcHead(t, 60))}`,
        );
        continue;
      }
      m = fullmatch(FISTFUL_D_DUEL, t);
      if (m) {
        const entries = parseEntries(m[3], `(${CARD})`, known);
        if (entries === null || entries === undefined || entries.length !== 2) {
          await this.bad(post, line, "duel illisible", "unreadable duel");
          continue;
        }
        const n = pyInt(m[1]);
        if (manche.duels.has(n)) await this.bad(post, line, `duel ${n} en double`, `duel ${n} twice`);
        await this.noDuplicates(
          post,
          line,
          entries.map((e) => e[0]),
          "joueur",
          "player",
        );
        await this.checkColors(
          post,
          line,
          new Map(entries.map(([name, e]) => [name, [[cardValue(e[1]), cardColor(e[1])]]])),
        );
        manche.duels.set(n, [new Map(entries.map(([name, e]) => [name, cardValue(e[1])])), line]);
        if (group(m, 2)) manche.turns.set(pyInt(m[2]), ["card", n]);
        continue;
      }
      m = fullmatch(FISTFUL_D_TAKEN, t);
      if (m) continue;
      m = fullmatch(FISTFUL_D_DISCARDS, t);
      if (m) {
        const entries = parseEntries(m[2], String.raw`(${CARD}(?: et ${CARD})*)( \(au choix\))?`, known);
        if (entries === null || entries === undefined || manche.discards.size) {
          await this.bad(
            post,
            line,
            "ligne des défausses illisible ou en double",
            "unreadable or duplicate discards line",
          );
          continue;
        }
        await this.noDuplicates(
          post,
          line,
          entries.map((e) => e[0]),
          "joueur",
          "player",
        );
        for (const [name, e] of entries) {
          const shown = finditer(FISTFUL_CARD_RE, e[1]).map((c) => c[0]);
          await this.checkColors(post, line, new Map([[name, shown.map((c) => [cardValue(c), cardColor(c)])]]));
          manche.discards.set(name, [shown.map((c) => cardValue(c)), Boolean(group(e, 2)), line]);
        }
        if (group(m, 1)) manche.turns.set(pyInt(m[1]), ["end", 0]);
        continue;
      }
      m = fullmatch(FISTFUL_D_FINAL, t);
      if (m) {
        const entries = parseEntries(m[1], `(${CARD})`, known);
        if (entries === null || entries === undefined || manche.final !== null) {
          await this.bad(post, line, "ultime duel illisible ou en double", "unreadable or duplicate final duel");
          continue;
        }
        manche.final = [new Map(entries.map(([name, e]) => [name, cardValue(e[1])])), line];
        continue;
      }
      await this.bad(
        post,
        line,
        `ligne inconnue dans le dévoilement : « ${fcHead(t, 60)} »`,
        `unknown line in the disclosure: ${pyRepr(fcHead(t, 60))}`,
      );
    }
    Object.assign(post.data, d);
    await this.fistfulDisclosureOpenings(post, d);
  },

  // gm_check.py: fistful_disclosure_openings
  async fistfulDisclosureOpenings(post, d) {
    // Each secret the disclosure shows against its opened seal, and back.
    const secrets = new Map(); // tk(...key) → [key, payloads, kind, line]
    for (const [name, [cards, line]] of d.setup) {
      const key = ["setup", name];
      secrets.set(tk(...key), [
        key,
        [
          { _v: 2, player: name, cards },
          { round: 1, player: name, cards },
        ],
        FISTFUL_SETUP,
        line,
      ]);
    }
    const turns = new Map();
    for (const [n, manche] of d.manches) {
      const numbers = [...manche.duels.keys()];
      if (numbers.some((x, i) => x !== i + 1)) {
        await this.bad(
          post,
          manche.line,
          `manche ${n} : duels pas numérotés de 1 à ${manche.duels.size}`,
          `manche ${n}: duels not numbered from 1`,
        );
      }
      for (const [duel, [cards, line]] of manche.duels) {
        for (const [name, card] of cards) {
          const key = ["card", n, duel, name];
          secrets.set(tk(...key), [key, [{ _v: 2, manche: n, duel, player: name, card }], FISTFUL_CARD, line]);
        }
      }
      const finals = manche.final ? manche.final[0] : new Map();
      for (const [name, [cards, chosen, line]] of manche.discards) {
        if (chosen) {
          // The final-duel card is part of the choice only when the
          // player discards two and so chose which one to show.
          const discards = cards;
          const final = finals.has(name) ? [finals.get(name)] : [];
          const choice = { discards, final: final.length && discards.length > 1 ? final[0] : null };
          if (final.length && !discards.includes(final[0])) {
            await this.bad(
              post,
              line,
              `manche ${n} : la carte d'ultime duel de ${name} n'est pas une de ses défausses`,
              `manche ${n}: ${name}'s final-duel card is not one of their discards`,
            );
          }
          const key = ["end", n, name];
          secrets.set(tk(...key), [key, [{ _v: 2, manche: n, player: name, choice }], FISTFUL_END, line]);
        }
      }
      for (const [turn, [what, duel]] of manche.turns) turns.set(turn, [what, n, duel]);
    }
    if (d.manches.size) {
      const have = pySorted([...d.manches.keys()]);
      const top = Math.max(...have);
      if (have.length !== top || have.some((x, i) => x !== i + 1)) {
        await this.bad(post, null, "manches manquantes dans le dévoilement", "manches missing from the disclosure");
      }
    }
    const openedKeys = new Set();
    let older = 0;
    for (const [title, entries, line] of d.opened) {
      let keys = new Map();
      // « tour T » alone: a disclosure written before gm 0.2; « …, tour T
      // avant gm 0.2 »: a secret sealed then, in a later disclosure
      const oldTurn = fullmatch(FISTFUL_OLD_TURN, title) || search(FISTFUL_OLD_TURN_LATER, title);
      const place = title.replace(FISTFUL_OLD_TURN_LATER, "");
      let m;
      if (place === "mise en place" || (oldTurn && title === `tour ${oldTurn[1]}` && pyInt(oldTurn[1]) === 1)) {
        keys = new Map(entries.map(([name]) => [name, ["setup", name]]));
      } else if ((m = fullmatch(FISTFUL_DUEL_PLACE, place))) {
        keys = new Map(entries.map(([name]) => [name, ["card", pyInt(m[1]), pyInt(m[2]), name]]));
      } else if ((m = fullmatch(FISTFUL_END_PLACE, place))) {
        keys = new Map(entries.map(([name]) => [name, ["end", pyInt(m[1]), name]]));
      } else if (oldTurn && turns.has(pyInt(oldTurn[1]))) {
        const [what, n, duel] = turns.get(pyInt(oldTurn[1]));
        keys = new Map(entries.map(([name]) => [name, what === "card" ? ["card", n, duel, name] : ["end", n, name]]));
      } else if (title === "choix enregistrés avant gm 0.2" || title === "autres choix enregistrés avant gm 0.2") {
        older += entries.length;
        post.data.older = older;
        await this.missing(
          post,
          line,
          `${title} : ni leur duel ni leur tour ne sont imprimés, ils ne peuvent pas être scellés de nouveau`,
          `${title}: neither their duel nor their turn is printed, they cannot be sealed again`,
        );
        continue;
      } else {
        await this.bad(post, line, `« Sceaux ouverts (${title}) » : titre inconnu`, `unknown title ${pyRepr(title)}`);
        continue;
      }
      for (const [name, digits, salt] of entries) {
        const key = keys.get(name);
        await this.checkPlayer(post, line, name);
        if (openedKeys.has(tk(...key))) {
          await this.bad(post, line, `${describe(key)[0]} : ouvert deux fois`, `${describe(key)[1]}: opened twice`);
          continue;
        }
        openedKeys.add(tk(...key));
        if (!secrets.has(tk(...key))) {
          await this.bad(
            post,
            line,
            `${describe(key)[0]} : sceau ouvert sans le choix qu'il scelle`,
            `${describe(key)[1]}: an opened seal without the choice it seals`,
          );
          continue;
        }
        let [, payloads, kind] = secrets.get(tk(...key));
        const turn = oldTurn ? pyInt(oldTurn[1]) : null;
        if (turn !== null) {
          // a post written before gm 0.2: payloads by turn
          const first = { ...payloads[0] };
          for (const k of ["_v", "manche", "duel"]) delete first[k];
          payloads = [{ round: turn, ...first }, ...payloads];
        }
        await this.checkOpening(post, line, key, kind, payloads, salt, digits);
      }
    }
    const unopened = [...secrets.keys()].filter((k) => !openedKeys.has(k));
    if (older && unopened.length === older) return;
    if (older) {
      await this.bad(
        post,
        null,
        `${older} choix « avant gm 0.2 » pour ${unopened.length} choix montrés sans sceau`,
        `${older} choices « before gm 0.2 » for ${unopened.length} choices shown without a seal`,
      );
    }
    for (const k of unopened) {
      const [key, , , line] = secrets.get(k);
      await this.bad(
        post,
        line,
        `${describe(key)[0]} : montré sans son sceau ouvert`,
        `${describe(key)[1]}: shown without its opened seal`,
      );
    }
  },

  // gm_check.py: check_fistful
  async checkFistful() {
    const disclosure = this.by.get(tk("fistful-disclosure", []));
    if (disclosure === undefined || !(await this.focused(disclosure))) return;
    const setup = this.by.get(tk("fistful-setup", []));
    const d = disclosure.data;
    if (d.setup && d.setup.size && setup === undefined) {
      await this.missing(
        disclosure,
        null,
        "la mise en place manque : les défausses ne sont pas comparées aux sceaux publiés au début",
        "the setup post is missing: the setup discards are not compared with the seals published at the start",
      );
    }
    for (const [n, manche] of d.manches ?? new Map()) {
      for (const [duel, [cards, line]] of manche.duels) {
        const post = this.by.get(tk("fistful-duel", [n, duel]));
        if (post === undefined) {
          await this.missing(
            disclosure,
            line,
            `le message du duel ${duel} de la manche ${n} manque : ses cartes ne sont pas comparées à celles montrées alors`,
            `the post of manche ${n}, duel ${duel} is missing: its cards are not compared with those shown then`,
          );
          continue;
        }
        const shown = new Map([...(post.data.cards ?? new Map())].map(([name, [card]]) => [name, card]));
        if (!fistfulSameDict(shown, cards)) {
          await this.bad(
            disclosure,
            line,
            `manche ${n}, duel ${duel} : cartes ${fistfulDictRepr(cards)} ≠ ${fistfulDictRepr(shown)} montrées dans le duel`,
            `manche ${n}, duel ${duel}: cards ${fistfulDictRepr(cards)} ≠ ${fistfulDictRepr(shown)} shown in the duel post`,
          );
        }
      }
      if ([...manche.discards.values()].some(([, chosen]) => chosen) || manche.final) {
        const post = this.by.get(tk("fistful-manche", [n]));
        if (post === undefined) {
          await this.missing(
            disclosure,
            manche.line,
            `le compte de la manche ${n} manque : ses choix ne sont pas comparés aux sceaux publiés alors`,
            `the end of manche ${n} post is missing: its choices are not compared with the seals published then`,
          );
          continue;
        }
        const pd = post.data;
        if (manche.final && pd.final !== null && pd.final !== undefined) {
          const shown = new Map([...pd.final].map(([name, [card]]) => [name, card]));
          if (!fistfulSameDict(shown, manche.final[0])) {
            await this.bad(
              disclosure,
              manche.final[1],
              `manche ${n} : ultime duel ${fistfulDictRepr(manche.final[0])} ≠ ${fistfulDictRepr(shown)} montré alors`,
              `manche ${n}: final duel ${fistfulDictRepr(manche.final[0])} ≠ ${fistfulDictRepr(shown)} shown then`,
            );
          }
        }
        for (const [name, [cards, chosen, line]] of manche.discards) {
          const counted = pd.counts && pd.counts.has(name) ? pd.counts.get(name) : null;
          if (pd.counts && pd.counts.size && counted !== cards.length) {
            await this.bad(
              disclosure,
              line,
              `manche ${n} : ${name} défausse ${cards.length} cartes, le compte disait ${pyStr(counted)}`,
              `manche ${n}: ${name} discards ${cards.length} cards, the manche post said ${pyStr(counted)}`,
            );
          }
          if (chosen && !(pd.committed ?? new Map()).has(name)) {
            await this.bad(
              disclosure,
              line,
              `manche ${n} : choix de ${name} sans sceau publié à la fin de la manche`,
              `manche ${n}: ${name}'s choice has no seal published at the end of the manche`,
            );
          }
        }
      }
    }
  },
});
