// colt.js — Colt Express's methods of the Checker (gm_check.py's
// parse_colt_plan … check_colt): the Plan seals of face-down cards, their
// openings in the Action posts, every draw line's label, and with the seed
// every chance result drawn again (characters, cars, purses, decks, round
// cards, the choices and purses the fortune drew).

// itertools.combinations(items, size): the index tuples in lexicographic order.
function coltCombinations(items, size) {
  const out = [];
  const n = items.length;
  if (size > n) return out;
  const idx = [...Array(size).keys()];
  for (;;) {
    out.push(idx.map((i) => items[i]));
    let i = size - 1;
    while (i >= 0 && idx[i] === i + n - size) i--;
    if (i < 0) return out;
    idx[i]++;
    for (let j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
  }
}

const COLT_PLAN_SEAL = pyRe(String.raw`Sceau de la carte face cachée de (.+) \(tour (\d+)\) : ` + SEAL + String.raw`\.`, "s");
const COLT_DEFAULT_LINE = pyRe(String.raw`(\d+)\. .+ — « (.+?) » \(sans réponse : choix tiré au hasard\).*`, "s");
const COLT_STEP_LINE = pyRe(String.raw`(\d+)\. `, "s");
const COLT_CARD_OPENED = pyRe(String.raw`Carte face cachée de (.+) \(tour (\d+)\) : (.+), sel ([0-9a-fA-F]{8,128})\.`, "s");
const COLT_DRAW_LINE = pyRe(String.raw`(.+?) : tirage `, "s");
const COLT_CARS_LINE = pyRe(
  String.raw`Le train : la locomotive, puis \d+ wagons \(cartes ([\d, ]+), de la` +
    String.raw` locomotive vers la queue\)\..*`,
  "s",
);
const COLT_LOOT_SEAL = pyRe(String.raw`Sceau des valeurs : ` + SEAL + String.raw`\.`, "s");
const COLT_ROUND_HEADING = pyRe(String.raw`Manche \d+ : (.+)`, "s");
const COLT_DECKS_LINE = pyRe(String.raw`Sceaux des pioches mélangées : (.+)`, "s");
const COLT_ASK_LINE = pyRe(String.raw`Carte (\d+) sur \d+ : .+ — .+, à toi de choisir : (« .+ »)\.`, "s");
const COLT_ASK_CHOICE = pyRe(String.raw`« (.+?) »(?: · |$)`, "s");
const COLT_SECRET = pyRe(
  String.raw`(?:loot|deck|card|instruction|purse) .+? ([0-9a-fA-F]{8,64}) sel ([0-9a-fA-F]{8,128})(?: · |$)`,
  "s",
);
const COLT_PURSE_LINE = pyRe(
  String.raw`Manche (\d+), (?:carte (\d+)|Pickpocket) \((.+)\) : parmi ([\d, ]+) → (\d+) \$`,
  "s",
);

Object.assign(Checker.prototype, {
  // gm_check.py: parse_colt_plan
  async parseColtPlan(post) {
    await this.coltChoices(post);
    for (const line of post.body) {
      const m = fullmatch(COLT_PLAN_SEAL, line.text);
      if (m) await this.commit(["colt-card", post.key[0], pyInt(m[2]), m[1]], post, line, m[3]);
    }
  },

  // gm_check.py: parse_colt_action
  async parseColtAction(post) {
    const r = post.key[0];
    const steps = [];
    for (const line of post.body) {
      let m = fullmatch(COLT_DEFAULT_LINE, line.text);
      if (m) this.coltDefaults.push([post, line, r, pyInt(m[1]), m[2]]);
      m = rematch(COLT_STEP_LINE, line.text);
      if (m) steps.push(pyInt(m[1]));
    }
    const purposes = new Map();
    for (const n of steps) {
      purposes.set(`Carte ${n}, choix tiré au hasard`, `round-${r}/default/${n}`);
      purposes.set(`Carte ${n}, bourse tirée au hasard`, `round-${r}/purse/${n}`);
    }
    await this.coltDrawLines(post, purposes);
    await this.coltChoices(post);
    for (const line of post.body) {
      const m = fullmatch(COLT_CARD_OPENED, line.text);
      if (m === null) continue;
      const code = COLT_CARDS.get(m[3]);
      if (code === undefined) {
        await this.bad(post, line, `« ${m[3]} » n'est pas une carte Action`, `${pyRepr(m[3])} is not an action card`);
        continue;
      }
      const payload = { round: post.key[0], turn: pyInt(m[2]), player: m[1], card: code };
      const digits = hexDigits(await seal(COLT_CARD, payload, m[4]));
      await this.open(["colt-card", post.key[0], pyInt(m[2]), m[1]], post, line, digits);
    }
  },

  // gm_check.py: colt_draw_lines
  async coltDrawLines(post, purposes) {
    for (const line of post.body) {
      const m = rematch(COLT_DRAW_LINE, line.text);
      if (m === null) continue;
      const draw = parseDrawClause(line, m.index + m[0].length, line.text.length, await this.known(post));
      const purpose = purposes.has(m[1]) ? purposes.get(m[1]) : null;
      if (draw === null || draw === undefined || purpose === null) {
        await this.bad(
          post,
          line,
          `ligne de tirage illisible ou inconnue : « ${fcHead(line.text, 60)} »`,
          `unreadable or unknown draw line: ${pyRepr(fcHead(line.text, 60))}`,
        );
        continue;
      }
      if (this.coltDraws.has(purpose)) {
        await this.bad(post, line, `tirage ${purpose} en double`, `duplicate draw ${purpose}`);
        continue;
      }
      this.coltDraws.set(purpose, [post, line, draw]);
      if (await this.focused(post)) await this.checkLabel(post, line, draw, purpose);
    }
  },

  // gm_check.py: colt_name
  async coltName(player) {
    const players = this.players.length ? this.players : [player];
    const name = slug(player);
    if (name && players.filter((p) => slug(p) === name).length === 1) return name;
    return players.includes(player) ? `seat-${players.indexOf(player) + 1}` : name;
  },

  // gm_check.py: parse_colt_train
  async parseColtTrain(post) {
    const d = post.data;
    d.characters = new Map();
    const who = COLT_CHARACTERS.join("|");
    const charLine = pyRe(String.raw`(.+) joue (` + who + String.raw`) : .+\.`, "s");
    for (const line of post.body) {
      let m = fullmatch(charLine, line.text);
      if (m) d.characters.set(m[1], m[2]);
      m = fullmatch(COLT_CARS_LINE, line.text);
      if (m) d.cars = pySplit(m[1], ", ").map((c) => pyInt(c));
      m = search(COLT_LOOT_SEAL, line.text);
      if (m) d.loot_seal = [line, m[1].toLowerCase()];
    }
    await this.coltDrawLines(
      post,
      new Map([
        ["Personnages distribués par le hasard", "setup/characters"],
        ["Wagons tirés au hasard", "setup/cars"],
        ["Bourses des wagons tirées au hasard", "setup/purses"],
      ]),
    );
  },

  // gm_check.py: parse_colt_round
  async parseColtRound(post) {
    const r = post.key[0];
    let m = fullmatch(COLT_ROUND_HEADING, post.heading.text);
    post.data.card = m ? m[1] : null;
    post.data.decks = new Map();
    for (const line of post.body) {
      m = fullmatch(COLT_DECKS_LINE, line.text);
      if (m) {
        post.data.decks = new Map(await this.sealedEntries(post, line, m[1]));
        post.data.decks_line = line;
      }
    }
    const names = post.data.decks.size ? [...post.data.decks.keys()] : this.players;
    const purposes = new Map([["Carte de la manche", `round-${r}/card`]]);
    for (const p of names) purposes.set(`Pioche de ${p}`, `round-${r}/deck/${await this.coltName(p)}`);
    await this.coltDrawLines(post, purposes);
  },

  // gm_check.py: colt_choices
  async coltChoices(post) {
    for (const line of post.body) {
      const m = fullmatch(COLT_ASK_LINE, line.text);
      if (m) {
        const choices = finditer(COLT_ASK_CHOICE, m[2]).map((c) => c[1]);
        this.coltAsked.set(tk(post.key[0], pyInt(m[1])), choices);
      }
    }
  },

  // gm_check.py: parse_colt_event
  async parseColtEvent(post) {
    const r = post.key[0];
    const purposes = new Map();
    for (const p of this.players) {
      const name = await this.coltName(p);
      purposes.set(`Pickpocket, réponse de ${p} tirée au hasard`, `round-${r}/default/pickpocket-${name}`);
      purposes.set(`Pickpocket, bourse de ${p} tirée au hasard`, `round-${r}/pickpocket/${name}`);
    }
    await this.coltDrawLines(post, purposes);
  },

  // gm_check.py: parse_colt_final
  async parseColtFinal(post) {
    const salts = new Map();
    for (const line of post.body) {
      if (!line.text.startsWith("Secrets de la partie (sceau, sel) : ")) continue;
      for (const m of finditer(COLT_SECRET, line.text)) salts.set(m[1].toLowerCase(), m[2]);
    }
    post.data.salts = salts;
    const drawn = [];
    for (const line of post.body) {
      const m = fullmatch(COLT_PURSE_LINE, line.text);
      if (m) {
        const offered = pySplit(m[4], ", ").map((v) => pyInt(v));
        drawn.push([line, pyInt(m[1]), group(m, 2) || "", m[3], offered, pyInt(m[5])]);
      }
    }
    post.data.purses = drawn;
  },

  // gm_check.py: check_colt_purses
  async checkColtPurses(final) {
    const seed = this.seed;
    const listed = new Set();
    for (const [line, r, step, player, offered, value] of final.data.purses ?? []) {
      const purpose = step ? `round-${r}/purse/${step}` : `round-${r}/pickpocket/${await this.coltName(player)}`;
      listed.add(purpose);
      const found = this.coltDraws.get(purpose);
      if (found === undefined) {
        await this.bad(
          final,
          line,
          `bourse tirée ${purpose} sans ligne de tirage dans le fil`,
          `purse draw ${purpose} without a draw line in the thread`,
        );
        continue;
      }
      if (seed === null || seed === undefined) continue;
      const label = found[2].label;
      const again = offered[(await draws(seed, label, [offered.length]))[0]];
      await this.redrawn(
        final,
        line,
        label,
        `${again} $`,
        `${value} $`,
        [`bourse parmi ${offered.map(String).join(", ")} :`, "purse"],
        "tire",
        "retirée",
      );
    }
    for (const [purpose, [post, line]] of this.coltDraws) {
      if ((purpose.includes("/purse/") || purpose.includes("/pickpocket/")) && !listed.has(purpose)) {
        await this.bad(
          post,
          line,
          `la fin de partie ne dit pas quelle bourse le tirage ${purpose} a donnée`,
          `the final post does not say which purse the draw ${purpose} gave`,
        );
      }
    }
  },

  // gm_check.py: check_colt
  async checkColt() {
    const train = this.by.get(tk("colt-train", []));
    const final = this.by.get(tk("colt-final", []));
    const salts = final !== undefined ? (final.data.salts ?? new Map()) : new Map();
    const drawnLines = this.coltDraws;
    if (drawnLines.size && (this.seed === null || this.seed === undefined)) {
      for (const [post, line] of drawnLines.values()) {
        if (await this.focused(post)) {
          await this.missing(
            post,
            line,
            "graine pas encore révélée : tirage non refait (il faut la fin de partie)",
            "seed not revealed yet: draw not made again (the final post is needed)",
          );
        }
      }
      return;
    }
    const seed = this.seed;
    if (seed === null || seed === undefined) return;

    const drawn = async (purpose) => {
      const found = drawnLines.get(purpose);
      if (found === undefined || !(await this.focused(found[0]))) return null;
      return [found[0], found[1], found[2].label];
    };
    const saltOf = async (post, line, digits) => {
      let salt = null;
      for (const [k, v] of salts) {
        if (sameDigits(k, digits)) {
          salt = v;
          break;
        }
      }
      if (salt === null) {
        await this.missing(
          post,
          line,
          `sceau ${digits} : sel pas encore dévoilé (il faut la fin de partie)`,
          `seal ${digits}: salt not disclosed yet (the final post is needed)`,
        );
      }
      return salt;
    };
    const sealed = async (kind, payload, salt) => hexDigits(await seal(kind, payload, salt)).slice(0, MIN_DIGITS);

    if (train !== undefined) {
      const d = train.data;
      const chars = d.characters ?? new Map();
      const cars = d.cars ?? [];
      const players = this.players.length ? this.players : [...chars.keys()];
      const n = players.length;
      const charOf = (p) => (chars.has(p) ? chars.get(p) : null);
      let got = await drawn("setup/characters");
      if (got !== null) {
        const [post, line, label] = got;
        const shown = players.map((p) => `${p} ${pyStr(charOf(p))}`).join(", ");
        let dealt = null;
        const dealtFor = new Map(); // shuffle(seed, label, left) depends on `left` only
        for (let size = n; size > 0; size--) {
          // the largest set of players the deal explains
          for (const free of coltCombinations(players, size)) {
            const taken = new Set(players.filter((p) => !free.includes(p)).map(charOf));
            const left = COLT_CHARACTERS.filter((c) => !taken.has(c));
            const key = left.join("\n");
            if (!dealtFor.has(key)) dealtFor.set(key, await shuffle(seed, label, left));
            const again = dealtFor.get(key).slice(0, size);
            const mine = free.map(charOf);
            if (mine.length === again.length && mine.every((c, i) => c === again[i])) {
              dealt = free;
              break;
            }
          }
          if (dealt) break;
        }
        await this.redrawn(
          post,
          line,
          label,
          dealt ? shown : "une autre distribution",
          shown,
          ["personnages", "characters"],
          "donne",
          "redistribués",
        );
      }
      got = await drawn("setup/cars");
      if (got !== null) {
        const [post, line, label] = got;
        const again = (await shuffle(seed, label, [1, 2, 3, 4, 5, 6])).slice(0, n);
        await this.redrawn(post, line, label, again.map(String).join(", "), cars.map(String).join(", "), [
          "wagons",
          "cars",
        ]);
      }
      got = await drawn("setup/purses");
      if (got !== null && "loot_seal" in d) {
        const [post, line, label] = got;
        const stock = [...COLT_PURSE_STOCK];
        for (let i = 0; i < n; i++) {
          const at = stock.indexOf(250);
          if (at < 0) throw valueError("list.remove(x): x not in list");
          stock.splice(at, 1);
        }
        const shuffled = await shuffle(seed, label, stock);
        let start = 0;
        const purses = [];
        for (const car of cars) {
          const count = COLT_PURSES_PER_CAR.get(car) ?? 0;
          purses.push(pySorted(shuffled.slice(start, start + count)));
          start += count;
        }
        const payload = { holder: "gm", purses };
        const digits = d.loot_seal[1];
        const salt = await saltOf(post, line, digits);
        if (salt !== null) {
          await this.redrawn(
            post,
            line,
            label,
            `le sceau ${await sealed("colt.loot-placed", payload, salt)}`,
            `le sceau ${digits.slice(0, MIN_DIGITS)}`,
            ["bourses des wagons, scellées sous", "purses of the cars, sealed as"],
            "donne",
            "retirées",
          );
        }
      }
    }
    const used = [];
    for (let r = 1; r < 6; r++) {
      const opening = this.by.get(tk("colt-round", [r]));
      if (opening === undefined) break;
      const card = opening.data.card ?? null;
      const options = r === 5 ? [...COLT_STATIONS] : COLT_ROUND_CARDS.filter((c) => !used.includes(c));
      let got = await drawn(`round-${r}/card`);
      if (got !== null) {
        const [post, line, label] = got;
        const again = options.length ? options[(await draws(seed, label, [options.length]))[0]] : "?";
        await this.redrawn(post, line, label, again, pyStr(card), ["carte de manche", "round card"], "donne", "retirée");
      }
      if (card) used.push(card);
      for (const [player, digits] of opening.data.decks ?? new Map()) {
        const purpose = `round-${r}/deck/${await this.coltName(player)}`;
        if (drawnLines.has(`round-${r}/card`) && !drawnLines.has(purpose)) {
          if (await this.focused(opening)) {
            // the fortune drew the round: every deck too
            await this.bad(
              opening,
              opening.data.decks_line ?? null,
              `pioche de ${player} scellée sans sa ligne de tirage`,
              `${player}'s deck sealed without its draw line`,
            );
          }
          continue;
        }
        got = await drawn(purpose);
        if (got === null || !salts.size) continue;
        const [post, line, label] = got;
        const salt = await saltOf(post, line, digits);
        if (salt === null) continue;
        const shown = `le sceau ${digits.slice(0, MIN_DIGITS)}`;
        let found = null;
        for (let balles = 0; balles < 50; balles++) {
          // the deck holds one Balle per bullet received
          const deck = await shuffle(seed, label, [...COLT_DECK, ...Array(balles).fill("balle")]);
          const payload = { cards: deck, player, round: r };
          if (sameDigits(await sealed("colt.deck-dealt", payload, salt), digits)) {
            found = balles;
            break;
          }
        }
        await this.redrawn(
          post,
          line,
          label,
          found !== null ? shown : "une pioche d'un autre sceau (0 à 49 Balle)",
          shown,
          [`pioche de ${player} (${pyStr(found)} Balle), scellée sous`, `${player}'s deck`],
          "donne",
          "retirée",
        );
      }
    }
    for (const [post, line, r, step, choice] of this.coltDefaults) {
      const got = await drawn(`round-${r}/default/${step}`);
      if (got === null) {
        if (await this.focused(post)) {
          await this.bad(
            post,
            line,
            `carte ${step} : choix tiré au hasard sans sa ligne de tirage`,
            `card ${step}: a choice drawn by the fortune without its draw line`,
          );
        }
        continue;
      }
      const [, dline, label] = got;
      const choices = this.coltAsked.get(tk(r, step));
      if (!choices || !choices.length) {
        await this.missing(
          post,
          dline,
          `carte ${step} : les choix possibles ne sont pas dans le fil (le message qui les listait manque)`,
          `card ${step}: the legal choices are not in the thread (the post that listed them is missing)`,
        );
        continue;
      }
      const again = choices[(await draws(seed, label, [choices.length]))[0]];
      await this.redrawn(post, dline, label, `« ${again} »`, `« ${choice} »`, ["choix", "choice"], "donne", "retiré");
    }
    if (final !== undefined && (await this.focused(final))) await this.checkColtPurses(final);
  },
});
