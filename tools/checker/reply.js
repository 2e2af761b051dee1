// reply.js — gm_check.py's `--reply FILE`: the seals of a private reply gm
// sent a player (Le Magot's order, Fistful of Gold's choice, Colt Express's
// face-down card and instruction), each looked for where gm publishes it.
// api.js reads the files and passes the ReplySeal objects among the seals;
// Checker.checkGivenSeals (checker.js) sends each one to checkReplySeal,
// here, in the order they were given, as gm_check.py's one loop does.

// gm_check.py: ReplySeal
class ReplySeal {
  // A seal gm sent a player in a private reply, and what it seals.
  constructor(source, no, kind, whatFr, whatEn, digits) {
    this.source = source;
    this.no = no;
    this.kind = kind;
    this.whatFr = whatFr;
    this.whatEn = whatEn;
    this.digits = digits;
  }
}

const _REPLY_SEAL = String.raw` : ` + "`" + String.raw`?(?:sha256:)?([0-9a-fA-F]{8,64})(?!\w)`;
// The lines of gm's private replies that give a seal (Le Magot's order,
// Fistful of Gold's choice, Colt Express's face-down card and instruction), as
// a player copies them: with or without the backquotes.
const REPLY_SEALS = [
  ["order", pyRe(String.raw`Sceau de ton ordre` + _REPLY_SEAL)],
  ["choice", pyRe(String.raw`Sceau de ton choix` + _REPLY_SEAL)],
  ["card", pyRe(String.raw`Ta carte face cachée \(tour (\d+)\) est scellée` + _REPLY_SEAL)],
  ["instruction", pyRe(String.raw`Ta consigne pour ta carte n° (\d+) est scellée` + _REPLY_SEAL)],
];

// gm_check.py: reply_seals
function replySeals(name, text) {
  // The seals of a private reply, in its order; none is an error (exit 2).
  const out = [];
  for (const line of readLines(text)[1]) {
    for (const [kind, pattern] of REPLY_SEALS) {
      for (const m of finditer(pattern, line.text)) {
        let fr, en;
        if (kind === "order") {
          [fr, en] = ["ton ordre", "your order"];
        } else if (kind === "choice") {
          [fr, en] = ["ton choix", "your choice"];
        } else if (kind === "card") {
          [fr, en] = [`ta carte face cachée du tour ${m[1]}`, `your face-down card of turn ${m[1]}`];
        } else {
          [fr, en] = [`ta consigne pour ta carte n° ${m[1]}`, `your instruction for your card no. ${m[1]}`];
        }
        // m.lastindex: the last group, the digits
        out.push(new ReplySeal(name, line.no, kind, fr, en, m[m.length - 1].toLowerCase()));
      }
    }
  }
  if (!out.length) {
    throw new Unreadable(
      `${name} : aucun sceau dans cette réponse privée (gm écrit « Sceau de ton ordre : … »,` +
        " « Sceau de ton choix : … » ou « … est scellée : … ») / no seal in this private reply" +
        " (gm writes « Sceau de ton ordre : … », « Sceau de ton choix : … » or « … est scellée : … »)",
    );
  }
  return out;
}

Object.assign(Checker.prototype, {
  // gm_check.py: check_reply_seal
  async checkReplySeal(given) {
    // A seal of a private reply, found where gm publishes it: a Plan,
    // reveal, setup or end-of-manche post, or (a Colt instruction, never
    // published before) the final post's list of secrets.
    const [want, fr, en] = [given.digits, given.whatFr, given.whatEn];
    const src = `${given.source}:${given.no}`;
    let found = [];
    for (const table of [this.commitments, this.openings]) {
      for (const [k, items] of table) {
        for (const [post, line, digits] of items) {
          if (sameDigits(want, digits) && digits.length >= Math.min(want.length, MIN_DIGITS)) {
            const key = JSON.parse(k);
            found.push([[`pour ${describe(key)[0]}`, `for ${describe(key)[1]}`], post, line]);
          }
        }
      }
    }
    const final = this.by.get(tk("colt-final", []));
    if (!found.length && given.kind === "instruction" && final !== undefined) {
      found = [];
      for (const line of final.body) {
        if (!line.text.startsWith("Secrets de la partie (sceau, sel) : ")) continue;
        for (const m of finditer(/[0-9a-fA-F]{8,64}/u, line.text)) {
          const digits = m[0];
          if (sameDigits(want, digits) && digits.length >= Math.min(want.length, MIN_DIGITS)) {
            found.push([["parmi les secrets de la partie", "among the game's secrets"], final, line]);
          }
        }
      }
    }
    if (!found.length && given.kind === "instruction" && final === undefined) {
      this.r.missing(
        `${fr} (${src}) : sceau ${want} : une consigne n'est publiée qu'avec le message final, absent ici`,
        `${en} (${src}): seal ${want}: an instruction is published only with the final post, not given here`,
      );
      return;
    }
    if (!found.length) {
      this.r.bad(
        `${fr} (${src}) : sceau ${want} publié dans aucun des messages donnés : si ce sont ceux de ce tour, ce que le MJ a publié n'est pas ce que tu as envoyé`,
        `${en} (${src}): seal ${want} published in none of the posts given: if they are those of its round, what the MJ published is not what you sent`,
      );
      return;
    }
    const [[whatFr, whatEn], post, line] = found[0];
    if (want.length < MIN_DIGITS) {
      this.r.missing(
        `${fr} (${src}) : sceau ${want} court (${4 * want.length} bits) : pas une preuve`,
        `${en} (${src}): seal ${want} is short (${4 * want.length} bits): not a proof`,
      );
    } else {
      this.r.ok(
        `${fr} (${src}) : sceau ${want} publié ${whatFr} dans ${post.at(line)[0]}, identique`,
        `${en} (${src}): seal ${want} published ${whatEn} in ${post.at(line)[1]}, identical`,
      );
    }
  },
});
