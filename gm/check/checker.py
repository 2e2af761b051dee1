"""Re-deciding a game from its thread: the checker's steps, and the report of each post.

1. **Reading** (``gm.check.thread``): the posts, found by their proof blocks.
2. **The chain** (``gm.check.chain``): the posts in order, the log their
   proofs publish, every hash recomputed from the first event, every
   opening sealed to its body.
3. **The replay** (``gm.service.replaying``, the walk ``gm verify`` runs):
   the known records folded with the game's own ``evolve``, every command
   whose inputs are known decided again with its ``decide``, every draw
   re-derived once the seed is revealed (the final post opens it); then
   each post rendered again from the replayed log by gm's own templates
   (``gm.service.posts.render_public``) and compared with the pasted text
   line by line (``gm.check.compare``), and its text's digest held to the
   ``gm.post-published`` record a later post's proof carries.
4. **What chance proves**: a draw made with no player's word, or with a
   word the MJ typed, is said (``ATTENTION``), never counted as fair; a
   secret whose seal a post published and that is replaced or voided
   afterwards is a failure; so is a dice roll no post shows.

Nothing here knows a game: the game's rules, views and templates decide.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gm import games
from gm.check import chain as chains
from gm.check.chain import GAME, Chain, post_key, short
from gm.check.compare import compare
from gm.check.reading import Unreadable
from gm.check.report import BAD, MISSING, NOTE, OK, WARN, Report
from gm.check.thread import Pasted, Thread, read_thread
from gm.core import proof as proofs
from gm.core.campaign import (
    CampaignCreated,
    ChanceDrawn,
    CommandDecided,
    DefaultApplied,
    DiceRolled,
    EntropyAdded,
    FortuneSealed,
)
from gm.core.canonical import digest
from gm.core.protocol import GM, PostRef
from gm.errors import ChainIntegrityError, GMError
from gm.service.loading import Campaign, codec_for, decode, voided_by
from gm.service.posts import ROLL
from gm.service.replaying import Finding, Replay

SLUG = "fil"
"""The name the checker's campaign goes by (no template prints a slug)."""

Render = Callable[[Campaign, PostRef, proofs.Proof], str]
"""gm's canonical Markdown of a post, from the campaign as it stood when it was made."""


def render(campaign: Campaign, ref: PostRef, proof: proofs.Proof) -> str:
    """The post as gm publishes it: ``gm.service.posts.render_public``, then
    the proof block it carries (``gm.service.proving.section``), which the
    chain checks on its own."""
    from gm.service import proving
    from gm.service.posts import render_public

    return render_public(campaign, ref, campaign.head, None) + proving.section(
        campaign, proof, None
    )


@dataclass
class Outcome:
    """What the check of a thread found: the report, and facts the caller may use."""

    report: Report
    chain: Chain | None = None
    replay: Replay | None = None
    fresh: dict[int, str] = field(default_factory=dict)
    """gm's render of each post it could render, by number."""


def check_thread(
    texts: Sequence[tuple[str, str]], *, fmt: str = "auto", renderer: Render | None = None
) -> Outcome:
    """Check the posts of ``texts`` ((name, text) pairs); ``renderer``: ``render``.

    :raises Unreadable: nothing in the input is a post of gm.
    """
    report = Report()
    thread = read_thread(texts, fmt)
    if not thread.posts:
        names = ", ".join(thread.empty)
        raise Unreadable(
            f"{names} : aucun message de gm (aucun bloc « {proofs.HEADER} ») ; collez les"
            " messages entiers, leur preuve comprise"
        )
    _read_problems(thread, report)
    chain = chains.build(thread.posts, report)
    outcome = Outcome(report, chain)
    if chain is None:
        return outcome
    _Replayed(outcome, thread, chain, renderer or render).run()
    return outcome


def _read_problems(thread: Thread, report: Report) -> None:
    # the report goes by post number, whatever order the posts were pasted in
    for post in sorted(thread.posts, key=lambda p: p.proof.number if p.proof else 0):
        if post.proof is None:
            key = post_key(post)
            report.section(key, f"Un message illisible — {post.where()}")
            report.add(key, BAD, f"sa preuve ne se lit pas ({post.error}) : {post.where()}")
            continue
        report.section(post_key(post), chains.title(post))
        for no, what in post.problems:
            report.add(post_key(post), BAD, f"ligne {post.source}:{no} : {what}")
    if thread.problems:
        report.section(GAME, "La partie")
        for name, (no, what) in thread.problems:
            report.add(GAME, BAD, f"ligne {name}:{no} (hors des messages) : {what}")


class _Replayed:
    """The steps after the chain: replay, render, compare, and the game's facts."""

    def __init__(self, outcome: Outcome, thread: Thread, chain: Chain, renderer: Render) -> None:
        self.outcome, self.thread, self.chain, self.renderer = outcome, thread, chain, renderer
        self.report = outcome.report
        self.game_id = ""
        self.records = chain.records
        self.last = chain.posts[-1]

    def game(self, level: str, text: str) -> None:
        self.report.section(GAME, "La partie")
        self.report.add(GAME, level, text)

    def run(self) -> None:
        records = self.records
        if not records or records[0].kind != CampaignCreated.kind or not records[0].known:
            self.game(
                MISSING,
                "sans le premier message, ni les règles ni les joueurs ne sont connus : rien ne"
                " peut être rejoué",
            )
            return
        self.game_id = str(records[0].payload.get("game", ""))
        try:
            games.load(self.game_id)
        except GMError:
            self.game(
                MISSING,
                f"le jeu « {self.game_id} » n'est pas un jeu de ce gm : installez le gm de la"
                " partie pour la rejouer",
            )
            return
        replay = Replay(SLUG, self.game_id, records, self._checkpoints())
        self.outcome.replay = replay
        try:
            replay.run()
        except ChainIntegrityError as err:
            self.game(BAD, f"le registre ne se rejoue pas : {err.message}")
        for post in self.chain.posts:
            self._post(post, replay)
        self._game(replay)

    def _checkpoints(self) -> set[int]:
        return {p.proof.at_seq for p in self.chain.posts if p.proof is not None}

    # --- one post -------------------------------------------------------------

    def _post(self, post: Pasted, replay: Replay) -> None:
        proof = post.proof
        assert proof is not None
        key = post_key(post)
        add = self.report.add
        first = proof.records[0].seq if proof.records else proof.at_seq + 1
        if proof.at_seq in self.chain.hashes:
            span = (
                f"de l'événement {first} à {proof.at_seq}"
                if proof.records
                else f"jusqu'à l'événement {proof.at_seq}"
            )
            add(
                key,
                OK,
                f"chaîne recalculée depuis le premier événement, {span} (tête"
                f" {short(self.chain.hashes[proof.at_seq])})",
            )
        opened = [o.seq for o in proof.opened if self.chain.opened_by.get(o.seq) == proof.number]
        if opened:
            add(
                key,
                OK,
                f"{len(opened)} événement(s) scellé(s) ouvert(s), chacun conforme au sceau que"
                f" la chaîne tient ({_seqs(opened)})",
            )
        self._findings(post, replay, first)
        campaign = replay.campaigns.get(proof.at_seq)
        if campaign is None:
            add(
                key, MISSING, f"son texte ne peut pas être comparé : {self._why_not(proof, replay)}"
            )
            return
        ref = PostRef(proof.kind, proof.at)
        try:
            markdown = self.renderer(campaign, ref, proof)
        except (GMError, KeyError, TypeError, ValueError) as err:
            add(key, BAD, f"gm ne sait pas le rendre à partir du registre ({err})")
            return
        self.outcome.fresh[proof.number] = markdown
        self._compare(post, markdown, campaign)
        self._proof(post, markdown, campaign)
        self._digest(post, markdown, replay)

    def _why_not(self, proof: proofs.Proof, replay: Replay) -> str:
        gap = self.chain.gap
        if gap is not None and gap <= proof.at_seq:
            return f"l'événement {gap} manque (aucun message du fil ne le publie)"
        stalled = replay.stalled
        if stalled is not None and stalled.seq <= proof.at_seq:
            return (
                f"l'événement {stalled.seq} ({stalled.kind}, de {stalled.audience}) est encore"
                " scellé : aucun message du fil ne l'ouvre (un message suivant le dévoilera)"
            )
        return "le registre ne se rejoue pas jusque-là (voir « La partie »)"

    def _findings(self, post: Pasted, replay: Replay, first: int) -> None:
        """The commands decided again and what waits, in this post's records."""
        proof = post.proof
        assert proof is not None
        key = post_key(post)
        inside = range(first, proof.at_seq + 1)
        decided = [d for d in replay.decided if d.seq in inside]
        if decided:
            names = ", ".join(f"{d.command} ({d.actor})" for d in decided[:8])
            more = f" et {len(decided) - 8} autres" if len(decided) > 8 else ""
            self.report.add(
                key,
                OK,
                f"{len(decided)} commande(s) redécidée(s) par les règles du jeu, mêmes"
                f" événements que le registre : {names}{more}",
            )
            drawn = [p for d in decided for p in d.purposes]
            if drawn:
                self.report.add(
                    key,
                    OK,
                    f"tirage(s) refait(s) à partir de la graine révélée : {', '.join(drawn)}",
                )
        for finding in replay.problems:
            if finding.seq in inside:
                self.report.add(key, BAD, _problem(finding))
        for finding in replay.pending:
            if finding.seq in inside:
                self.report.add(key, MISSING, self._pending(finding))

    def _pending(self, finding: Finding) -> str:
        data = finding.data
        if finding.code == "seed-unknown":
            return (
                f"la commande {data['command']} de l'événement {finding.seq} tire au sort"
                f" ({data['purpose']}) : elle sera redécidée quand la graine sera révélée (le"
                " message final l'ouvre)"
            )
        if finding.code == "sealed-command":
            return (
                f"la commande de l'événement {finding.seq} ({data['audience']}) est encore"
                " scellée : elle sera redécidée quand un message l'ouvrira"
            )
        if finding.code == "sealed-result":
            return (
                f"{data['count']} événement(s) décidé(s) par la commande {data['command']} de"
                f" l'événement {finding.seq} sont encore scellés : comparés par leur nature"
                " seulement, jusqu'à ce qu'un message les ouvre"
            )
        if finding.code == "sealed-seed":
            return "la graine est encore scellée : elle est révélée par le message final"
        return finding.text

    def _compare(self, post: Pasted, markdown: str, campaign: Campaign) -> None:
        key = post_key(post)
        result = compare(post.lines, markdown, post.fmt, campaign.meta.settings)
        if result.outside:
            self.report.add(
                key,
                NOTE,
                f"{len(result.outside)} ligne(s) avant son début ne sont d'aucun message de gm"
                f" ({post.where(result.outside[0])}…) : elles ne sont pas vérifiées",
            )
        for diff in result.differences[:12]:
            if diff.shown is None:
                where = post.where(diff.before) if diff.before is not None else post.where()
                self.report.add(
                    key,
                    BAD,
                    f"une ligne manque avant {where} : gm écrirait « {diff.fresh} »",
                )
            elif diff.fresh is None:
                self.report.add(
                    key,
                    BAD,
                    f"ligne {post.where(diff.shown)} : « {diff.shown.text} » — gm n'écrit pas"
                    " cette ligne",
                )
            else:
                self.report.add(
                    key,
                    BAD,
                    f"ligne {post.where(diff.shown)} : le fil montre « {diff.shown.text} », gm"
                    f" écrirait « {diff.fresh} »",
                )
        if len(result.differences) > 12:
            self.report.add(
                key, BAD, f"et {len(result.differences) - 12} autre(s) ligne(s) différente(s)"
            )
        if not result.differences:
            self.report.add(
                key,
                OK,
                f"texte rendu de nouveau par gm à partir du registre rejoué : ses"
                f" {result.compared} lignes sont celles du fil (format {result.preset})",
            )

    def _proof(self, post: Pasted, markdown: str, campaign: Campaign) -> None:
        """The block the post carries is the one gm makes from the log."""
        proof = post.proof
        assert proof is not None
        found = proofs.find(markdown)
        if not found:
            return
        try:
            fresh = proofs.decode(found[-1][1])
        except proofs.ProofError:
            return
        if fresh != proof:
            self.report.add(
                post_key(post),
                BAD,
                "sa preuve n'est pas celle que gm tire du registre rejoué (événements ou"
                " ouvertures différents)",
            )

    def _digest(self, post: Pasted, markdown: str, replay: Replay) -> None:
        proof = post.proof
        assert proof is not None
        key = post_key(post)
        record = replay.committed.get(proof.number)
        if record is None:
            self.report.add(
                key,
                NOTE,
                "l'empreinte de son texte est engagée dans la preuve du message suivant, absent"
                " du fil",
            )
            return
        promised = record.payload
        where = f"événement {record.seq}, publié par le message n° {self.chain.owner.get(record.seq, '?')}"
        if promised.get("post") != proof.kind or tuple(promised.get("at", ())) != proof.at:
            self.report.add(
                key,
                BAD,
                f"le registre l'engage comme {promised.get('post')}"
                f" {'.'.join(map(str, promised.get('at', ())))} ({where}), pas comme"
                f" {proof.kind} {'.'.join(map(str, proof.at))}",
            )
        elif promised.get("digest") != digest(markdown):
            self.report.add(
                key,
                BAD,
                f"le texte que gm rend n'est pas celui que le registre a engagé ({where}) : le"
                " message publié n'est pas celui que le registre a enregistré",
            )
        elif record.seq <= proof.at_seq:
            self.report.add(key, BAD, f"engagé ({where}) avant le registre qu'il montre")
        else:
            self.report.add(key, OK, f"son texte est celui que le registre a engagé ({where})")

    # --- the whole game ----------------------------------------------------------

    def _game(self, replay: Replay) -> None:
        for finding in replay.problems:
            if finding.seq not in self.chain.owner:
                self.game(BAD, _problem(finding))
        self._seed()
        self._fairness()
        self._by_mj(replay)
        self._rolls()
        self._secrets(replay)
        for name, line in self.thread.outside:
            self.game(
                NOTE,
                f"{name}:{line.no} et la suite : des lignes après le dernier message ; elles ne"
                " sont pas vérifiées",
            )
            break
        if replay.stalled is not None:
            record = replay.stalled
            self.game(
                MISSING,
                f"la partie n'est rejouée que jusqu'à l'événement {record.seq - 1} :"
                f" l'événement {record.seq} ({record.kind}, de {record.audience}) est encore"
                " scellé dans ce fil",
            )

    def _seed(self) -> None:
        sealed = [r for r in self.records if r.kind == FortuneSealed.kind]
        if not sealed:
            return
        record = sealed[0]
        if record.known:
            opener = self.chain.opened_by.get(record.seq)
            replay = self.outcome.replay
            if replay is not None and not any(f.code == "seed" for f in replay.problems):
                self.game(
                    OK,
                    f"la graine révélée (message n° {opener}) correspond au sceau du hasard de"
                    f" l'ouverture : « {record.payload.get('seed')} »",
                )
        else:
            self.game(
                MISSING,
                "la graine n'est pas encore révélée (le message final le fait) : les tirages ne"
                " peuvent pas encore être refaits",
            )

    def _fairness(self) -> None:
        typed: dict[str, bool] = {}
        voided = voided_by(self.records)
        for record in self.records:
            if not record.known or record.seq in voided:
                continue
            if record.kind == EntropyAdded.kind:
                typed[record.payload["player"]] = bool(record.payload.get("typed"))
            elif record.kind == ChanceDrawn.kind:
                words = record.payload["words"]
                purposes = ", ".join(record.payload["purposes"])
                by_mj = [p for p, _ in words if typed.get(p)]
                if not words:
                    self.game(
                        WARN,
                        f"tirage {purposes} (événement {record.seq}) fait sans aucune graine"
                        " des joueurs : il est refait, mais rien ne prouve que le MJ n'a pas"
                        " choisi sa graine pour lui",
                    )
                elif len(by_mj) == len(words):
                    self.game(
                        WARN,
                        f"tirage {purposes} (événement {record.seq}) : chaque graine mêlée a"
                        f" été saisie par le MJ ({', '.join(by_mj)}) : rien ne prouve qu'elle"
                        " vient des joueurs",
                    )
                elif by_mj:
                    self.game(
                        NOTE,
                        f"tirage {purposes} (événement {record.seq}) : graine(s) saisie(s) par"
                        f" le MJ pour {', '.join(by_mj)} ; les autres viennent des joueurs",
                    )

    def _by_mj(self, replay: Replay) -> None:
        """Choices the MJ entered for a player (``gm fold marco``), not sent by
        them: said, once the post that opens the command shows it (a default
        the rules chose, ``gm.default-applied``, is the rules' own)."""
        if not replay.campaigns:
            return
        meta = replay.campaigns[max(replay.campaigns)].meta
        voided = voided_by(self.records)
        for i, record in enumerate(self.records):
            if (
                record.kind != CommandDecided.kind
                or not record.known
                or record.seq in voided
                or record.payload.get("actor") != GM
            ):
                continue
            player = record.payload.get("args", {}).get("player")
            if not isinstance(player, str) or player not in meta.seats:
                continue
            following = itertools.takewhile(
                lambda r: r.kind != CommandDecided.kind, self.records[i + 1 :]
            )
            if any(r.kind == DefaultApplied.kind for r in following):
                continue
            name = meta.name(player)
            self.game(
                NOTE,
                f"le choix de {name} de l'événement {record.seq} ({record.payload.get('command')})"
                f" a été saisi par le MJ, pas envoyé par {name} : rien dans le fil ne prouve que"
                f" {name} l'a demandé",
            )

    def _rolls(self) -> None:
        """Every dice roll is shown by a roll post (the last roll at its log position)."""
        rolls = [r for r in self.records if r.kind == DiceRolled.kind]
        if not rolls:
            return
        shown: set[int] = set()
        for post in self.chain.posts:
            proof = post.proof
            if proof is None or proof.kind != ROLL:
                continue
            before = [r.seq for r in rolls if r.seq <= proof.at_seq]
            if before:
                shown.add(before[-1])
        last_seq = self.last.proof.at_seq if self.last.proof else 0
        for record in rolls:
            if record.seq in shown:
                continue
            what = f"{record.payload.get('expression')}" if record.known else "?"
            self.game(
                BAD,
                f"le jet de dés de l'événement {record.seq} ({what}) n'est montré par aucun"
                " message du fil"
                + ("" if record.seq < last_seq else " (il le serait par un message suivant)"),
            )

    def _secrets(self, replay: Replay) -> None:
        """A secret whose seal a post published must stay: never replaced nor voided."""
        published: dict[int, int] = {}  # seq of a sealed record -> the post that sealed it
        for post in self.chain.posts:
            proof = post.proof
            if proof is None:
                continue
            campaign = replay.campaigns.get(proof.at_seq)
            if campaign is None:
                continue
            shown = campaign.game.shown(campaign.state, PostRef(proof.kind, proof.at))
            for secret_key in shown.sealed:
                secret = campaign.secrets.get(secret_key)
                if secret is not None:
                    published.setdefault(secret.record.seq, proof.number)
        if not published:
            return
        codec = codec_for(self.game_id)
        voided = voided_by(self.records)
        keys: dict[int, tuple[object, ...]] = {}
        for record in self.records:
            if record.kind.startswith("gm.") or not record.known:
                continue
            if codec.type_of(record.kind).sealed:
                keys[record.seq] = decode(self.game_id, record).secret_key()
        for seq, number in sorted(published.items()):
            if seq in voided:
                self.game(
                    BAD,
                    f"le secret de l'événement {seq}, dont le message n° {number} a publié le"
                    " sceau, a été annulé ensuite (gm undo) : un secret scellé en public ne"
                    " change plus",
                )
                continue
            later = [
                s for s, k in keys.items() if s > seq and k == keys.get(seq) and s not in voided
            ]
            if later:
                self.game(
                    BAD,
                    f"le secret de l'événement {seq}, dont le message n° {number} a publié le"
                    f" sceau, a été remplacé ensuite (événement {later[0]}) : un secret scellé"
                    " en public ne change plus",
                )


def _problem(finding: Finding) -> str:
    data = finding.data
    code = finding.code
    if code == "differs":
        holds = data.get("holds")
        kind, payload = data["gives"]
        return (
            f"l'événement {finding.seq} n'est pas ce que les règles décident : redécider la"
            f" commande {data['command']} (événement {data['decided']}) donne {kind} {payload},"
            f" le registre tient {holds[0] + ' ' + str(holds[1]) if holds else 'rien'}"
        )
    if code == "refused":
        return (
            f"les règles refusent la commande {data['command']} de l'événement {finding.seq}"
            f" : {data['error']}"
        )
    if code == "undecided":
        return (
            f"l'événement {finding.seq} ({data['kind']}) n'a été décidé par aucune commande"
            " enregistrée"
        )
    if code == "seed":
        return (
            f"la graine révélée « {data['seed']} » n'est pas celle du sceau du hasard publié à"
            f" l'ouverture (sha256:{data['commitment']})"
        )
    if code == "drawn-twice":
        return (
            f"le tirage {data['purpose']} est refait à l'événement {finding.seq} (déjà fait à"
            f" l'événement {data['first']}) : un tirage ne se fait qu'une fois"
        )
    if code == "undone-draw":
        return f"un tirage a été annulé (événement {finding.seq}) : un tirage est définitif"
    if code == "committed-twice":
        return f"le message n° {data['number']} est engagé deux fois dans le registre"
    if code == "seeds":
        return f"le registre tient {data['count']} graines, pas une"
    if code == "unreadable-command":
        return f"la commande de l'événement {finding.seq} ne se lit pas : {data['error']}"
    return finding.text


def _seqs(seqs: list[int]) -> str:
    return "événements " + ", ".join(map(str, seqs[:10])) + ("…" if len(seqs) > 10 else "")


__all__ = ["Outcome", "Render", "check_thread", "render"]
