// api.js — gm_check.py's entry points (lines 4155–end): joinParts,
// checkThread, checkPost and `run(argv, io)`, the command line as argparse
// reads it (the six subcommands, usage errors → code 2, `--help` → the same
// text on stdout), then `globalThis.gmCheck`, what the page and run.mjs call.

// gm_check.py: join_parts
// The parts of a chronicle cut to fit the forum (« Archive de « … » —
// partie 2 sur 3 »), given in any order, put back together as one text:
// a post too long for one part goes on in the next. Other texts stay.
function joinParts(texts, fmt) {
  const parts = new Map();
  const out = [];
  for (const [name, text] of texts) {
    let lines;
    try {
      lines = readLines(text, fmt)[1];
    } catch (err) {
      if (!(err instanceof Unreadable)) throw err;
      lines = [];
    }
    const m = lines.length ? fullmatch(_ARCHIVE_PART, lines[0].text) : null;
    if (m === null || parts.has(pyInt(m[1]))) out.push([name, text]);
    else parts.set(pyInt(m[1]), [name, text]);
  }
  if (parts.size) {
    const ordered = pySorted([...parts.keys()]).map((n) => parts.get(n));
    out.unshift([ordered.map(([n]) => n).join(" + "), ordered.map(([, t]) => t).join("\n\n")]);
  }
  return out;
}
// Python's `.` is any character but "\n" (JavaScript's also stops at "\r", U+2028, U+2029).
const _ARCHIVE_PART = pyRe(String.raw`Archive de « [^\n]+ » — partie (\d+) sur \d+`);

// gm_check.py: check_thread
// Check many posts at once (`texts`: [name, text] pairs).
async function checkThread(report, texts, { seed = null, seals = [], fmt = "auto" } = {}) {
  const sources = [];
  let start = 0;
  for (const [name, text] of joinParts(texts, fmt)) {
    const source = readSource(text, name, fmt, start);
    start += source.posts.length;
    sources.push(source);
  }
  await new Checker(report, sources, { whole: true, seed, seals }).run();
}

// gm_check.py: check_post
// Check one post; the others only serve as references.
async function checkPost(
  report,
  text,
  revealTexts = [],
  openingText = null,
  { context = [], seed = null, seals = [], fmt = "auto", name = "message" } = {},
) {
  const main = readSource(text, name, fmt);
  if (main.posts.length > 1) {
    report.bad(
      `${name} : ${main.posts.length} messages dans ce fichier, un seul attendu (« thread » en vérifie plusieurs)`,
      `${name}: ${main.posts.length} posts in this file, one expected (« thread » checks many)`,
    );
  }
  const sources = [main];
  let start = 1;
  const refs = revealTexts.map((t, i) => [`--reveal ${i + 1}`, t, "magot-reveal"]);
  if (openingText !== null && openingText !== undefined) refs.push(["--opening", openingText, "opening"]);
  for (const [n, t] of context) refs.push([n, t, null]);
  for (const [refName, refText, expected] of refs) {
    const source = readSource(refText, refName, fmt, start);
    start += source.posts.length;
    for (const post of source.posts) {
      if (expected && !post.kind.endsWith(expected)) {
        report.bad(
          `le message ${refName} n'est pas ${expected === "magot-reveal" ? "une révélation" : "une ouverture"}`,
          `the ${refName} post is not ${expected === "magot-reveal" ? "a reveal" : "an opening"}`,
        );
      }
    }
    sources.push(source);
  }
  const focus = new Set(main.posts.slice(0, 1).map((p) => p.index));
  await new Checker(report, sources, { focus, seed, seals }).run();
}

// gm_check.py: _read
// A file's text as Python's `Path.read_text` gives it: universal newlines
// ("\r\n" and "\r" become "\n"); standard input is read once, as is.
function reader(io) {
  let stdinRead = false;
  return (path) => {
    if (path === "-") {
      if (stdinRead) return "";
      stdinRead = true;
      return io.read("-");
    }
    return io.read(path).replace(/\r\n?/g, "\n");
  };
}

// --- argparse, as far as gm_check.py uses it --------------------------------------
//
// A faithful port of CPython 3.11's argparse parsing loop (classification
// of each argument as an option `O`, an argument `A` or `--`, the nargs
// patterns matched against that string, abbreviations, negative numbers),
// so that every command line gets the same outcome as gm_check.py: the
// same namespace, or `--help` (stdout, code 0), or a usage error (code 2).

// `--help`'s text per parser (argparse's, 80 columns), written by tools/checker/make_help.py.
const HELP = {
  "": "usage: gm_check [-h] {thread,post,seed,seal,label,draws} ...\n\ngm_check: check a game run with gm (Le Magot, Fistful of Gold, Colt Express), with the Python standard library only.\n\npositional arguments:\n  {thread,post,seed,seal,label,draws}\n    thread              check many posts, or a whole gm chronicle\n    post                check one post copied from the forum\n    seed                does the seed match the opening's commitment?\n    seal                the seal of {kind, payload, salt}\n    label               the label of a draw: PURPOSE and the players' words\n    draws               integers below N of the stream LABEL\n\noptions:\n  -h, --help            show this help message and exit\n\nexit codes / codes de sortie:\n  0  everything checked matched / tout ce qui a été vérifié concorde\n  1  a mismatch or a failure / une différence ou un échec (DIFFÉRENT / MISMATCH)\n  2  unreadable input or usage error / entrée illisible ou erreur d'usage\n  3  nothing contradicted, but something could not be checked: a post it\n     depends on is missing, the seed is not revealed yet, a short seal, a\n     seal not yet opened (NON VÉRIFIÉ / NOT CHECKED) — never 0 then\n",
  "thread": "usage: gm_check thread [-h] [--seed SEED] [--seal HEX] [--reply FILE]\n                       [--format {auto,markdown,bbcode,html,text}]\n                       FILE [FILE ...]\n\npositional arguments:\n  FILE                  files (- for standard input)\n\noptions:\n  -h, --help            show this help message and exit\n  --seed SEED           the seed, if no final post is given (checked against\n                        the opening)\n  --seal HEX            a seal from your private reply: it must be the one\n                        published\n  --reply FILE          a private reply gm sent you: each seal in it must be\n                        the one published\n  --format {auto,markdown,bbcode,html,text}\n                        how the posts were copied\n\nexit codes / codes de sortie:\n  0  everything checked matched / tout ce qui a été vérifié concorde\n  1  a mismatch or a failure / une différence ou un échec (DIFFÉRENT / MISMATCH)\n  2  unreadable input or usage error / entrée illisible ou erreur d'usage\n  3  nothing contradicted, but something could not be checked: a post it\n     depends on is missing, the seed is not revealed yet, a short seal, a\n     seal not yet opened (NON VÉRIFIÉ / NOT CHECKED) — never 0 then\n",
  "post": "usage: gm_check post [-h] [--reveal FILE] [--opening FILE] [--with FILE]\n                     [--seed SEED] [--seal HEX] [--reply FILE]\n                     [--format {auto,markdown,bbcode,html,text}]\n                     file\n\npositional arguments:\n  file                  a file, or - for standard input\n\noptions:\n  -h, --help            show this help message and exit\n  --reveal FILE\n  --opening FILE\n  --with FILE           any other post this one depends on\n  --seed SEED           the seed, if no final post is given (checked against\n                        the opening)\n  --seal HEX            a seal from your private reply: it must be the one\n                        published\n  --reply FILE          a private reply gm sent you: each seal in it must be\n                        the one published\n  --format {auto,markdown,bbcode,html,text}\n                        how the posts were copied\n\nexit codes / codes de sortie:\n  0  everything checked matched / tout ce qui a été vérifié concorde\n  1  a mismatch or a failure / une différence ou un échec (DIFFÉRENT / MISMATCH)\n  2  unreadable input or usage error / entrée illisible ou erreur d'usage\n  3  nothing contradicted, but something could not be checked: a post it\n     depends on is missing, the seed is not revealed yet, a short seal, a\n     seal not yet opened (NON VÉRIFIÉ / NOT CHECKED) — never 0 then\n",
  "seed": "usage: gm_check seed [-h] seed commitment\n\npositional arguments:\n  seed\n  commitment\n\noptions:\n  -h, --help  show this help message and exit\n\nexit codes / codes de sortie:\n  0  everything checked matched / tout ce qui a été vérifié concorde\n  1  a mismatch or a failure / une différence ou un échec (DIFFÉRENT / MISMATCH)\n  2  unreadable input or usage error / entrée illisible ou erreur d'usage\n  3  nothing contradicted, but something could not be checked: a post it\n     depends on is missing, the seed is not revealed yet, a short seal, a\n     seal not yet opened (NON VÉRIFIÉ / NOT CHECKED) — never 0 then\n",
  "seal": "usage: gm_check seal [-h] kind payload salt [expected]\n\npositional arguments:\n  kind\n  payload     the payload as JSON\n  salt\n  expected    the seal to compare with (32 hex digits at least)\n\noptions:\n  -h, --help  show this help message and exit\n\nexit codes / codes de sortie:\n  0  everything checked matched / tout ce qui a été vérifié concorde\n  1  a mismatch or a failure / une différence ou un échec (DIFFÉRENT / MISMATCH)\n  2  unreadable input or usage error / entrée illisible ou erreur d'usage\n  3  nothing contradicted, but something could not be checked: a post it\n     depends on is missing, the seed is not revealed yet, a short seal, a\n     seal not yet opened (NON VÉRIFIÉ / NOT CHECKED) — never 0 then\n",
  "label": "usage: gm_check label [-h] purpose [PLAYER WORD ...]\n\npositional arguments:\n  purpose      round-3/bills, roll/2…\n  PLAYER WORD  each player then their word, in seating order\n\noptions:\n  -h, --help   show this help message and exit\n",
  "draws": "usage: gm_check draws [-h] seed label n [count]\n\npositional arguments:\n  seed\n  label\n  n           a bound, or bounds separated by commas (40,39,38)\n  count\n\noptions:\n  -h, --help  show this help message and exit\n",
};

class ArgExit {
  constructor(code, stdout, stderr) {
    this.code = code;
    this.stdout = stdout;
    this.stderr = stderr;
  }
}
class ArgumentError {
  constructor(action, message) {
    this.action = action;
    this.message = message;
  }
  toString() {
    const name = _actionName(this.action);
    return name === null ? this.message : `argument ${name}: ${this.message}`;
  }
}
function _actionName(action) {
  if (action === null || action === undefined) return null;
  if (action.optionStrings.length) return action.optionStrings.join("/");
  if (action.metavar !== null && action.metavar !== undefined) return action.metavar;
  if (action.dest !== null) return action.dest;
  if (action.choices) return "{" + [...action.choices].join(",") + "}";
  return null;
}
function _textLines(text) {
  return pyRstrip(text, "\n").split("\n");
}

const _NEGATIVE_NUMBER = pyRe(String.raw`^-\d+$|^-\d*\.\d+$`);
const SUPPRESS = Symbol("SUPPRESS");

class ArgParser {
  constructor(prog, help) {
    this.prog = prog;
    this.help = help;
    this.actions = [];
    this.optionMap = new Map();
    this.addOption(["-h", "--help"], { kind: "help", dest: SUPPRESS, nargs: 0, defaultValue: SUPPRESS });
  }
  addOption(optionStrings, { kind = "store", dest, nargs = null, defaultValue = null, choices = null, metavar = null }) {
    const action = { optionStrings, kind, dest, nargs, defaultValue, choices, metavar, type: null, required: false };
    this.actions.push(action);
    for (const s of optionStrings) this.optionMap.set(s, action);
    return action;
  }
  addPositional(dest, { nargs = null, defaultValue = null, type = null, choices = null, metavar = null, kind = "store", parsers = null } = {}) {
    const required = nargs === null || nargs === "+" || nargs === "PARSER";
    const action = { optionStrings: [], kind, dest, nargs, defaultValue, choices, metavar, type, required, parsers };
    this.actions.push(action);
    return action;
  }
  usage() {
    return this.help.split("\n\n")[0];
  }
  error(message) {
    throw new ArgExit(2, [], [..._textLines(this.usage()), `${this.prog}: error: ${message}`]);
  }

  parseArgs(args) {
    const [namespace, extras] = this.parseKnownArgs(args);
    if (extras.length) this.error(`unrecognized arguments: ${extras.join(" ")}`);
    return namespace;
  }

  parseKnownArgs(args) {
    const namespace = {};
    for (const action of this.actions) {
      if (action.dest !== SUPPRESS && !(action.dest in namespace) && action.defaultValue !== SUPPRESS) {
        namespace[action.dest] = action.defaultValue;
      }
    }
    let extras;
    try {
      extras = this._parseKnownArgs([...args], namespace);
    } catch (err) {
      if (err instanceof ArgumentError) this.error(err.toString());
      throw err;
    }
    if (namespace._unrecognized) {
      extras.push(...namespace._unrecognized);
      delete namespace._unrecognized;
    }
    return [namespace, extras];
  }

  _parseOptional(arg) {
    if (!arg) return null;
    if (arg[0] !== "-") return null;
    if (this.optionMap.has(arg)) return [this.optionMap.get(arg), arg, null];
    if (arg.length === 1) return null;
    if (arg.includes("=")) {
      const [optionString, explicit] = pySplit(arg, "=", 1);
      if (this.optionMap.has(optionString)) return [this.optionMap.get(optionString), optionString, explicit];
    }
    const tuples = this._getOptionTuples(arg);
    if (tuples.length > 1) {
      const options = tuples.map((t) => t[1]).join(", ");
      this.error(`ambiguous option: ${arg} could match ${options}`);
    } else if (tuples.length === 1) {
      return tuples[0];
    }
    if (_NEGATIVE_NUMBER.test(arg)) return null; // no option of gm_check looks like a negative number
    if (arg.includes(" ")) return null;
    return [null, arg, null];
  }

  _getOptionTuples(optionString) {
    const result = [];
    if (optionString[1] === "-") {
      let prefix = optionString;
      let explicit = null;
      if (optionString.includes("=")) [prefix, explicit] = pySplit(optionString, "=", 1);
      for (const [s, action] of this.optionMap) if (s.startsWith(prefix)) result.push([action, s, explicit]);
    } else {
      const shortPrefix = optionString.slice(0, 2);
      const shortExplicit = optionString.slice(2);
      for (const [s, action] of this.optionMap) {
        if (s === shortPrefix) result.push([action, s, shortExplicit]);
        else if (s.startsWith(optionString)) result.push([action, s, null]);
      }
    }
    return result;
  }

  _nargsPattern(action) {
    const nargs = action.nargs;
    let p;
    if (nargs === null) p = "(-*A-*)";
    else if (nargs === "?") p = "(-*A?-*)";
    else if (nargs === "*") p = "(-*[A-]*)";
    else if (nargs === "+") p = "(-*A[A-]*)";
    else if (nargs === "PARSER") p = "(-*A[-AO]*)";
    else p = "(-*" + Array(nargs).fill("A").join("-*") + "-*)";
    if (action.optionStrings.length) p = p.replaceAll("-*", "").replaceAll("-", "");
    return p;
  }

  _matchArgument(action, pattern) {
    const m = new RegExp("^" + this._nargsPattern(action)).exec(pattern);
    if (m === null) {
      const messages = { null: "expected one argument", "?": "expected at most one argument", "+": "expected at least one argument" };
      const message = messages[action.nargs] ?? `expected ${action.nargs} argument${action.nargs === 1 ? "" : "s"}`;
      throw new ArgumentError(action, message);
    }
    return m[1].length;
  }

  _matchArgumentsPartial(actions, pattern) {
    for (let i = actions.length; i > 0; i--) {
      const joined = actions.slice(0, i).map((a) => this._nargsPattern(a)).join("");
      const m = new RegExp("^" + joined).exec(pattern);
      if (m !== null) return m.slice(1).map((g) => g.length);
    }
    return [];
  }

  _getValue(action, text) {
    if (action.type === "int") {
      try {
        return pyIntBig(text);
      } catch (err) {
        if (err instanceof PyError) throw new ArgumentError(action, `invalid int value: ${pyRepr(text)}`);
        throw err;
      }
    }
    return text;
  }

  _checkValue(action, value) {
    if (action.choices !== null && !action.choices.includes(value)) {
      const choices = action.choices.map((c) => pyRepr(c)).join(", ");
      throw new ArgumentError(action, `invalid choice: ${pyRepr(value)} (choose from ${choices})`);
    }
  }

  _getValues(action, strings) {
    if (action.nargs !== "PARSER") {
      const i = strings.indexOf("--");
      if (i >= 0) strings.splice(i, 1);
    }
    let value;
    if (!strings.length && action.nargs === "?") {
      value = action.defaultValue;
      if (typeof value === "string") {
        value = this._getValue(action, value);
        this._checkValue(action, value);
      }
    } else if (!strings.length && action.nargs === "*" && !action.optionStrings.length) {
      value = action.defaultValue !== null ? action.defaultValue : strings;
      this._checkValue(action, value);
    } else if (strings.length === 1 && (action.nargs === null || action.nargs === "?")) {
      value = this._getValue(action, strings[0]);
      this._checkValue(action, value);
    } else if (action.nargs === "PARSER") {
      value = strings.map((s) => this._getValue(action, s));
      this._checkValue(action, value[0]);
    } else {
      value = strings.map((s) => this._getValue(action, s));
      for (const v of value) this._checkValue(action, v);
    }
    return value;
  }

  _takeAction(namespace, action, strings, seen) {
    seen.add(action);
    const value = this._getValues(action, strings);
    if (action.kind === "help") {
      throw new ArgExit(0, _textLines(this.help), []);
    } else if (action.kind === "append") {
      namespace[action.dest] = [...(namespace[action.dest] ?? []), value];
    } else if (action.kind === "parsers") {
      const [name, ...rest] = value;
      namespace[action.dest] = name;
      const [sub, extras] = action.parsers.get(name).parseKnownArgs(rest);
      Object.assign(namespace, sub);
      if (extras.length) namespace._unrecognized = [...(namespace._unrecognized ?? []), ...extras];
    } else {
      namespace[action.dest] = value;
    }
  }

  _parseKnownArgs(args, namespace) {
    const optionIndices = new Map();
    let pattern = "";
    for (let i = 0; i < args.length; i++) {
      if (args[i] === "--") {
        pattern += "-" + "A".repeat(args.length - i - 1);
        break;
      }
      const tuple = this._parseOptional(args[i]);
      if (tuple === null) pattern += "A";
      else {
        optionIndices.set(i, tuple);
        pattern += "O";
      }
    }
    const seen = new Set();
    const extras = [];
    const positionals = this.actions.filter((a) => !a.optionStrings.length);

    const consumeOptional = (startIndex) => {
      let [action, optionString, explicit] = optionIndices.get(startIndex);
      const tuples = [];
      let stop;
      for (;;) {
        if (action === null) {
          extras.push(args[startIndex]);
          return startIndex + 1;
        }
        if (explicit !== null) {
          const count = this._matchArgument(action, "A");
          if (count === 0 && optionString[1] !== "-" && explicit !== "") {
            tuples.push([action, [], optionString]);
            optionString = optionString[0] + explicit[0];
            const next = explicit.slice(1) || null;
            if (this.optionMap.has(optionString)) {
              action = this.optionMap.get(optionString);
              explicit = next;
            } else {
              throw new ArgumentError(action, `ignored explicit argument ${pyRepr(explicit)}`);
            }
          } else if (count === 1) {
            stop = startIndex + 1;
            tuples.push([action, [explicit], optionString]);
            break;
          } else {
            throw new ArgumentError(action, `ignored explicit argument ${pyRepr(explicit)}`);
          }
        } else {
          const start = startIndex + 1;
          const count = this._matchArgument(action, pattern.slice(start));
          stop = start + count;
          tuples.push([action, args.slice(start, stop), optionString]);
          break;
        }
      }
      for (const [a, s] of tuples) this._takeAction(namespace, a, s, seen);
      return stop;
    };

    const consumePositionals = (startIndex) => {
      const counts = this._matchArgumentsPartial(positionals, pattern.slice(startIndex));
      for (let k = 0; k < counts.length; k++) {
        const strings = args.slice(startIndex, startIndex + counts[k]);
        startIndex += counts[k];
        this._takeAction(namespace, positionals[k], strings, seen);
      }
      positionals.splice(0, counts.length);
      return startIndex;
    };

    let startIndex = 0;
    const maxOptionIndex = optionIndices.size ? Math.max(...optionIndices.keys()) : -1;
    while (startIndex <= maxOptionIndex) {
      const nextOptionIndex = Math.min(...[...optionIndices.keys()].filter((i) => i >= startIndex));
      if (startIndex !== nextOptionIndex) {
        const end = consumePositionals(startIndex);
        if (end > startIndex) {
          startIndex = end;
          continue;
        }
        startIndex = end;
      }
      if (!optionIndices.has(startIndex)) {
        extras.push(...args.slice(startIndex, nextOptionIndex));
        startIndex = nextOptionIndex;
      }
      startIndex = consumeOptional(startIndex);
    }
    const stopIndex = consumePositionals(startIndex);
    extras.push(...args.slice(stopIndex));

    const required = [];
    for (const action of this.actions) {
      if (!seen.has(action) && action.required) required.push(_actionName(action));
    }
    if (required.length) this.error(`the following arguments are required: ${required.join(", ")}`);
    return extras;
  }
}

// int(text) for the command line: a BigInt beyond 2^53, as Python's ints are exact.
function pyIntBig(text) {
  const value = pyInt(text);
  if (Number.isSafeInteger(value)) return value;
  const m = /^([+-]?)(.*)$/u.exec(pyStrip(String(text)));
  let digits = "";
  for (const ch of m[2].replace(/_/g, "")) digits += String(_digitValue(ch));
  _intDigitsLimit(digits);
  return m[1] === "-" ? -BigInt(digits) : BigInt(digits);
}
// Python 3.11 refuses to convert an integer of more than 4300 digits (int(), json.loads).
function _intDigitsLimit(digits) {
  if (digits.length > 4300) {
    throw valueError(
      `Exceeds the limit (4300 digits) for integer string conversion: value has ${digits.length} digits; use sys.set_int_max_str_digits() to increase the limit`,
    );
  }
}

const _FORMATS = typeof FORMATS !== "undefined" ? [...FORMATS] : ["auto", "markdown", "bbcode", "html", "text"];
const COMMANDS = ["thread", "post", "seed", "seal", "label", "draws"];

// gm_check.py's parser: the same options, the same defaults.
function buildParser() {
  const parser = new ArgParser("gm_check", HELP[""]);
  const parsers = new Map(COMMANDS.map((c) => [c, new ArgParser(`gm_check ${c}`, HELP[c])]));
  parser.addPositional("command", { nargs: "PARSER", kind: "parsers", choices: COMMANDS, parsers, metavar: null });
  // gm_check.py: common
  const common = (p) => {
    p.addOption(["--seed"], { dest: "seed" });
    p.addOption(["--seal"], { kind: "append", dest: "seal", defaultValue: [], metavar: "HEX" });
    p.addOption(["--reply"], { kind: "append", dest: "reply", defaultValue: [], metavar: "FILE" });
    p.addOption(["--format"], { dest: "format", choices: _FORMATS, defaultValue: "auto" });
  };
  let p = parsers.get("thread");
  p.addPositional("files", { nargs: "+", metavar: "FILE" });
  common(p);
  p = parsers.get("post");
  p.addPositional("file");
  p.addOption(["--reveal"], { kind: "append", dest: "reveal", defaultValue: [], metavar: "FILE" });
  p.addOption(["--opening"], { dest: "opening", metavar: "FILE" });
  p.addOption(["--with"], { kind: "append", dest: "context", defaultValue: [], metavar: "FILE" });
  common(p);
  p = parsers.get("seed");
  p.addPositional("seed");
  p.addPositional("commitment");
  p = parsers.get("seal");
  p.addPositional("kind");
  p.addPositional("payload");
  p.addPositional("salt");
  p.addPositional("expected", { nargs: "?" });
  p = parsers.get("label");
  p.addPositional("purpose");
  p.addPositional("words", { nargs: "*", metavar: "PLAYER WORD" });
  p = parsers.get("draws");
  p.addPositional("seed");
  p.addPositional("label");
  p.addPositional("n");
  p.addPositional("count", { nargs: "?", type: "int", defaultValue: 1 });
  return parser;
}

// json.loads, as Python reads JSON: ints exact (a BigInt beyond 2^53),
// floats kept apart (PyFloat: they have no canonical form), NaN and
// Infinity accepted, objects as Maps (the last of two equal keys wins).
function pyJsonLoads(text) {
  let i = 0;
  const fail = (what) => {
    throw valueError(`${what}: line 1 column ${i + 1} (char ${i})`);
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const value = () => {
    const c = text[i];
    if (c === "{") {
      i++;
      const out = new Map();
      ws();
      if (text[i] === "}") {
        i++;
        return out;
      }
      for (;;) {
        if (text[i] !== '"') fail("Expecting property name enclosed in double quotes");
        const key = string();
        ws();
        if (text[i] !== ":") fail("Expecting ':' delimiter");
        i++;
        ws();
        out.set(key, value());
        ws();
        if (text[i] === "}") {
          i++;
          return out;
        }
        if (text[i] !== ",") fail("Expecting ',' delimiter");
        i++;
        ws();
      }
    }
    if (c === "[") {
      i++;
      const out = [];
      ws();
      if (text[i] === "]") {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === "]") {
          i++;
          return out;
        }
        if (text[i] !== ",") fail("Expecting ',' delimiter");
        i++;
        ws();
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [["null", null], ["true", true], ["false", false], ["NaN", new PyFloat("NaN")], ["Infinity", new PyFloat("Infinity")], ["-Infinity", new PyFloat("-Infinity")]]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const m = /^(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(text.slice(i));
    if (m === null) fail("Expecting value");
    i += m[0].length;
    if (m[2] !== undefined || m[3] !== undefined) return new PyFloat(m[0]);
    const n = Number(m[1]);
    if (Number.isSafeInteger(n)) return n;
    _intDigitsLimit(m[1].replace("-", ""));
    return BigInt(m[1]);
  };
  const string = () => {
    const begin = i;
    i++;
    let out = "";
    for (;;) {
      if (i >= text.length) {
        i = begin;
        fail("Unterminated string starting at");
      }
      const c = text[i];
      if (c === '"') {
        i++;
        return out;
      }
      if (c < " ") fail("Invalid control character at");
      if (c !== "\\") {
        out += c;
        i++;
        continue;
      }
      const e = text[i + 1];
      const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e in simple) {
        out += simple[e];
        i += 2;
      } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        let code = parseInt(text.slice(i + 2, i + 6), 16);
        i += 6;
        if (code >= 0xd800 && code <= 0xdbff && text.startsWith("\\u", i) && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          const low = parseInt(text.slice(i + 2, i + 6), 16);
          if (low >= 0xdc00 && low <= 0xdfff) {
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
            i += 6;
          }
        }
        out += String.fromCodePoint(code);
      } else {
        fail(e === "u" ? "Invalid \\uXXXX escape" : "Invalid \\escape");
      }
    }
  };
  if (text.startsWith("\ufeff")) throw valueError("Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)");
  ws();
  const result = value();
  ws();
  if (i !== text.length) fail("Extra data");
  return result;
}

// reply.js's reply_seals (--reply), when that file is there.
function _replySeals(name, text) {
  if (typeof replySeals === "undefined") throw new Error("--reply: reply.js is not part of this script");
  return replySeals(name, text);
}

// Python's `except (OSError, ValueError, TypeError, Unreadable)`.
function _expected(err) {
  return err instanceof Unreadable || (err && ["OSError", "ValueError", "TypeError", "Unreadable"].includes(err.pyType));
}

// gm_check.py: run
// `argv` as gm_check.py's (without the program); `io.read(path)` gives a
// file's text ("-": standard input). Returns what Python prints and exits with.
async function run(argv, io) {
  let printed = "";
  const print = (text) => {
    printed += String(text) + "\n";
  };
  // what was printed, cut into lines as Python's str.splitlines() cuts it
  const lines = () => pySplitlines(printed);
  let args;
  try {
    args = buildParser().parseArgs(argv);
  } catch (err) {
    if (err instanceof ArgExit) return { code: err.code, stdout: err.stdout, stderr: err.stderr };
    throw err;
  }
  const read = reader(io);
  const report = new Report();
  try {
    if (args.command === "seed") {
      await checkSeed(report, args.seed, args.commitment);
    } else if (args.command === "draws") {
      let bounds = pySplit(args.n, ",").map(pyIntBig);
      if (bounds.length === 1) {
        const count = Number(args.count);
        bounds = count > 0 ? Array(count).fill(bounds[0]) : [];
      }
      print(jsonDumps(await draws(args.seed, args.label, bounds)));
      return { code: 0, stdout: lines(), stderr: [] };
    } else if (args.command === "label") {
      if (args.words.length % 2) throw new Unreadable("give each player then their word: PLAYER WORD PLAYER WORD …");
      const pairs = [];
      for (let k = 0; k < args.words.length; k += 2) pairs.push([args.words[k], args.words[k + 1]]);
      print(await labelFor(args.purpose, pairs));
      return { code: 0, stdout: lines(), stderr: [] };
    } else if (args.command === "seal") {
      const payload = pyJsonLoads(args.payload);
      if (args.expected === null) {
        print(await seal(args.kind, payload, args.salt));
        return { code: 0, stdout: lines(), stderr: [] };
      }
      await checkSeal(report, args.kind, payload, args.salt, args.expected, args.kind);
    } else if (args.command === "post") {
      const replies = args.reply.flatMap((r) => _replySeals(r, read(r)));
      const opening = args.opening ? read(args.opening) : null;
      const text = read(args.file);
      const reveals = args.reveal.map(read);
      const context = args.context.map((c) => [c, read(c)]);
      await checkPost(report, text, reveals, opening, {
        context,
        seed: args.seed,
        seals: [...args.seal, ...replies],
        fmt: args.format,
        name: args.file,
      });
    } else {
      const replies = args.reply.flatMap((r) => _replySeals(r, read(r)));
      await checkThread(
        report,
        args.files.map((f) => [f, read(f)]),
        { seed: args.seed, seals: [...args.seal, ...replies], fmt: args.format },
      );
    }
  } catch (err) {
    if (_expected(err)) return { code: EXIT_UNREADABLE, stdout: [], stderr: [`ERREUR / ERROR: ${err.message}`] };
    throw err;
  }
  for (const line of report.lines) print(line);
  if (args.command === "post" || args.command === "thread") print(report.summary());
  return { code: report.code, stdout: lines(), stderr: [] };
}

// What the page and run.mjs call; the readers and the Checker when their files are there.
globalThis.gmCheck = {
  run,
  checkThread,
  checkPost,
  joinParts,
  Report,
  Unreadable,
  PyError,
  seal,
  commitment,
  mix,
  labelFor,
  stream,
  drawBelow,
  draws,
  shuffle,
  slug,
  normalize,
  canonicalJson,
  canonicalUtf8,
  hexDigits,
  checkDigest,
  sameDigits,
  checkSeed,
  checkSeal,
  pyJsonLoads,
  parseMoney,
  parseBills,
  parseNames,
  parseEntries,
  splitPair,
  rowCells,
  cardValue,
  cardColor,
  parseDrawClause,
  spreadWords,
  describe,
  fmtBills,
  parseDice,
  parseGroups,
  EXIT_OK,
  EXIT_MISMATCH,
  EXIT_UNREADABLE,
  EXIT_UNCHECKED,
  ...(typeof readLines !== "undefined" ? { readLines } : {}),
  ...(typeof readSource !== "undefined" ? { readSource } : {}),
  ...(typeof detectFormat !== "undefined" ? { detectFormat } : {}),
  ...(typeof FORMATS !== "undefined" ? { FORMATS } : {}),
  ...(typeof Line !== "undefined" ? { Line } : {}),
  ...(typeof Post !== "undefined" ? { Post } : {}),
  ...(typeof Source !== "undefined" ? { Source } : {}),
  ...(typeof Checker !== "undefined" ? { Checker } : {}),
  ...(typeof replySeals !== "undefined" ? { replySeals } : {}),
};
