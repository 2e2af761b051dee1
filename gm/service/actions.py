"""Commands on a campaign: players' submissions and the MJ's game steps.

One code path for everything that changes a campaign (``_run``): read the
log, fold it, let the game decide, append the events (each command's record
first, its draws after: ``gm.service.deciding``), render and publish the
posts the game asks for — all of it on a draft (``gm.store.draft``), without
the write lock, which is then taken only to check that nobody wrote
meanwhile and to write the draft in one transaction (if somebody did, the
command is worked out again from the new tip). Either all of it is recorded
or nothing is. A refused player
submission is still logged (``SubmissionRejected``), because forum disputes
are about exactly that, but it changes no game state. ``preview`` runs the
same path and records nothing: since a draw reads the stream of its purpose,
what a preview shows is what the command will draw.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gm import games
from gm.core import quotes
from gm.core.campaign import (
    ChanceDrawn,
    CommandDecided,
    DeadlineSet,
    DefaultApplied,
    EntropyAdded,
    Meta,
    SubmissionReceived,
    SubmissionRejected,
    evolve_meta,
)
from gm.core.dice import DiceRolled
from gm.core.fortune_word import MAX_WORD as MAX_WORD  # re-exported
from gm.core.fortune_word import check_word, find_word
from gm.core.fortune_word import split_word as split_word  # re-exported
from gm.core.protocol import GM, Command, Event, PostRef, StepSpec
from gm.core.roster import expand_nicknames
from gm.errors import (
    CampaignError,
    GameOverError,
    GMError,
    InputError,
    quote_choices,
)
from gm.service import clock, deciding, pipeline
from gm.service.deciding import to_record
from gm.service.env import Env
from gm.service.loading import Campaign, advance, extend, is_platform
from gm.service.loading import load as load  # re-exported: what commands load
from gm.service.pipeline import Worked
from gm.service.players import resolve_player as resolve_player  # re-exported
from gm.service.posts import (
    ROLL,
    order_received,
    publish,
    render_common,
    render_public,
)
from gm.store.draft import Sink
from gm.store.log import StoredEvent
from gm.store.records import CampaignInfo


@dataclass(frozen=True)
class Post:
    """A rendered public post (Markdown) and where it sits in the log."""

    ref: PostRef
    body: str
    number: int | None = None
    """Its number in the campaign's archive; None for a preview."""


@dataclass(frozen=True)
class Result:
    """What a command did: the campaign after it, its posts and reply."""

    campaign: Campaign
    events: tuple[StoredEvent, ...] = ()
    posts: tuple[Post, ...] = ()
    reply: str | None = None
    recorded: bool = True
    notes: tuple[str, ...] = field(default_factory=tuple)
    to: str | None = None
    """The seat of the player the reply is for."""
    defaults: tuple[Result, ...] = ()
    """The defaults a forced step applied first (``--force``), in order:
    each one's reply and posts, as ``gm default`` would have printed them."""


def submit(
    env: Env,
    slug: str,
    player: str,
    text: str | None = None,
    params: Mapping[str, Any] | None = None,
    source: str | None = None,
    preview: bool = False,
    word: str | None = None,
) -> Result:
    """Record a player's private message (free text, or explicit ``params``).

    A « graine : … » line in the text is the player's word for the fortune,
    mixed into every later draw; ``word`` is one the MJ typed for them
    (``--salt``), which their reply says. Returns the French reply to send
    back. A refused message is logged and raises its error, with the French
    reply in ``error.draft``.
    """
    typed = word is not None
    order_text = text
    notes: list[str] = []
    if text is not None and len(text) > MAX_ORDER_TEXT:
        raise InputError(
            f"the order text is {len(text)} characters long; the limit is {MAX_ORDER_TEXT}",
            code="input/too-long",
        )
    if text is not None:
        stripped = quotes.strip(text)
        notes.extend(f"Ignored {part}." for part in stripped.ignored)
        found, order_text, inline = find_word(stripped.text)
        if found is not None and word is None:
            word = found
            if inline:
                notes.append(
                    f"Read « graine : {found} » inside a line as the word for the fortune."
                )
    if word is not None:
        word = check_word(word)

    reached: list[bool] = []

    def make(campaign: Campaign, actor: str) -> tuple[Command, ...]:
        if word is not None and campaign.over:
            # the seed is public now: a word would mix into no draw, and look as if it could
            raise GameOverError(
                "the game is over and its seed is public: a word for the fortune can no"
                " longer mix into any draw",
                params={"word": word},
            )
        reached.append(True)  # from here on, a refusal is the game's: the word is kept
        table = campaign.table
        if params:
            return campaign.game.order_from_params(campaign.state, actor, params, table)
        if order_text is None or not order_text.strip():
            if word is not None:
                return ()  # a message with a word for the fortune and nothing else
            raise InputError(
                "no order given: paste the player's message, or use the explicit options"
                + (" (everything in it was quoted or signed)" if notes else ""),
                code="input/empty-order",
            )
        meta = campaign.meta
        read = expand_nicknames(order_text, tuple((n, meta.name(s)) for n, s in meta.nicknames))
        return campaign.game.parse(campaign.state, actor, read, table)

    shown = text if text is not None else " ".join(f"--{k} {v}" for k, v in (params or {}).items())
    try:
        result = _run(
            env,
            slug,
            player,
            make,
            submission=shown,
            read=order_text if text is not None and notes else None,
            source=source,
            preview=preview,
            before=lambda actor: [
                SubmissionReceived(actor, shown),
                *([EntropyAdded(actor, word, typed)] if word is not None else []),
            ],
        )
    except GMError as err:
        if word is not None and reached:
            notes.append(_keep_word(env, slug, player, word, typed, source, preview, err))
        err.notes = (*notes, *err.notes)
        raise
    game = result.campaign.game
    if game.unread is not None and order_text and not params and result.to is not None:
        after = result.campaign
        left = game.unread(after.state, result.to, order_text, after.table)
        if left:
            notes.append(
                f"Not read in {after.meta.name(result.to)}'s message:"
                f" {', '.join(f'« {w} »' for w in left)}."
            )
    return replace(result, notes=(*notes, *result.notes))


def _keep_word(
    env: Env,
    slug: str,
    player: str,
    word: str,
    typed: bool,
    source: str | None,
    preview: bool,
    refusal: GMError,
) -> str:
    """Record the word for the fortune of a message whose rest was refused:
    a command of its own, after the refusal, as if the word had come alone.
    The refusal's reply to the player says it was kept; returns the MJ's note."""
    try:
        kept = _run(
            env,
            slug,
            player,
            lambda campaign, actor: (),
            preview=preview,
            before=lambda actor: [EntropyAdded(actor, word, typed)],
        )
    except GMError as err:
        return f"The word for the fortune « {word} » could not be kept either: {err.message}."
    seated = resolve_player(kept.campaign, player)
    said = render_common(kept.campaign, "word_kept", env.templates, player=seated)
    refusal.draft = f"{refusal.draft.rstrip()}\n\n{said}" if refusal.draft else said
    if preview:
        return f"The word for the fortune « {word} » would be kept all the same."
    return (
        f"Kept the word for the fortune « {word} » (event {kept.campaign.seq}): a word is"
        " recorded even when the rest of the message is refused."
    )


MAX_ORDER_TEXT = 4000
"""A private message longer than this is not an order: refuse before parsing."""


def step(
    env: Env,
    slug: str,
    name: str,
    values: Mapping[str, Any],
    deadline: str | None = None,
    preview: bool = False,
    force: bool = False,
) -> Result:
    """Run the MJ's game step ``name`` (``draw``, ``reveal``…) with its parameters.

    ``default`` (with a ``player`` value) is the platform's step ``gm default``,
    unless the game has a step of that name. ``force`` (a step whose game
    gives it no ``force`` of its own): when the step is refused while players
    are awaited, apply the rules' default for each of them (``gm default``,
    one command each), and try again."""
    if force:
        return _forced(env, slug, name, values, deadline, preview)
    game = games.info(env.store.campaign(slug).game)
    if name == DEFAULT and all(s.name != DEFAULT for s in game.steps):
        return default(env, slug, str(values.get("player", "")), deadline, preview)

    def make(campaign: Campaign, actor: str) -> tuple[Command, ...]:
        spec = find_step(campaign, name)
        if deadline is not None and not spec.deadline:
            raise InputError(f"'gm {name}' takes no --deadline", code="input/deadline")
        return (spec.build(values, campaign.table),)

    # A step with a ``player`` argument records that player's choice (gm fold
    # marco): they get the same reply as if their message had said it.
    spec = next((s for s in game.steps if s.name == name), None)
    chooser = values.get("player")
    if spec is None or not isinstance(chooser, str) or all(p.name != "player" for p in spec.params):
        chooser = None
    return _run(env, slug, GM, make, deadline=deadline, preview=preview, chooser=chooser)


MAX_FORCED = 1000
"""Defaults a forced step applies at most: a bound, never reached by a game
that ends (each default answers one thing a player owes)."""


def _forced(
    env: Env,
    slug: str,
    name: str,
    values: Mapping[str, Any],
    deadline: str | None,
    preview: bool,
) -> Result:
    """A step with ``--force``: first find, on the folded state and without
    recording anything, which defaults make the step possible (the first
    awaited player's, again and again); refuse as the step alone would if
    none does. Then record each default as ``gm default`` would, and the step."""
    campaign = load(env, slug)
    game, meta, state = campaign.game, campaign.meta, campaign.state
    command = find_step(campaign, name).build(values, campaign.table)
    plan: list[str] = []
    refusal: GMError | None = None
    while True:
        try:
            deciding.decide(game, meta, state, GM, [command])
            break
        except GMError as err:
            refusal = refusal or err
            waiting = game.waiting_for(state)
            if isinstance(err, InputError) or not waiting or game.default_for is None:
                raise refusal from None
            if len(plan) >= MAX_FORCED:
                raise refusal from None
            try:
                due = game.default_for(state, waiting[0])
                decided = deciding.decide(game, meta, state, GM, [due])
            except GMError:
                raise refusal from None
            meta, state = decided.meta, decided.state
            plan.append(waiting[0])
    if plan and preview:
        raise InputError(
            f"'gm {name} --force --preview' cannot show the {len(plan)} default(s) it would"
            f" apply first (for {', '.join(dict.fromkeys(map(campaign.table.name, plan)))}): preview"
            " 'gm default PLAYER', or run it without --preview",
            code="input/force-preview",
        )
    # gm default reads a name as the MJ types it: the seat's current one
    applied = tuple(default(env, slug, campaign.table.name(player)) for player in plan)
    result = step(env, slug, name, values, deadline, preview)
    return replace(result, defaults=applied)


def command(env: Env, slug: str, what: Command, preview: bool = False) -> Result:
    """Run a platform command of the MJ's (``gm roll``) like any other."""
    return _run(env, slug, GM, lambda campaign, actor: (what,), preview=preview)


DEFAULT = "default"


def default(
    env: Env, slug: str, player: str, deadline: str | None = None, preview: bool = False
) -> Result:
    """Apply the rules' default for ``player``'s missing input (``gm default``).

    The game says what the default is (drawn by the fortune where its rules
    say so); the log records that it was a default (``DefaultApplied``).
    """
    chosen: list[str] = []

    def make(campaign: Campaign, actor: str) -> tuple[Command, ...]:
        name = resolve_player(campaign, player)
        chosen.append(name)
        rule = campaign.game.default_for
        if rule is None:
            raise InputError(
                f"{campaign.game.title} has no default for a missing input: its rules say"
                f" what happens then (next: {campaign.table.relabel(campaign.game.next_step(campaign.state))})",
                code="input/no-default",
            )
        return (rule(campaign.state, name),)

    return _run(
        env,
        slug,
        GM,
        make,
        deadline=deadline,
        preview=preview,
        before=lambda actor: [DefaultApplied(chosen[0])],
        chooser=player,
    )


def find_step(campaign: Campaign, name: str) -> StepSpec:
    for spec in campaign.game.steps:
        if spec.name == name:
            return spec
    names = [s.name for s in campaign.game.steps]
    raise InputError(
        f"{campaign.game.id} has no step {name!r} (its steps: {quote_choices(names)})",
        code="input/no-step",
    )


def _run(
    env: Env,
    slug: str,
    actor: str,
    make: Callable[[Campaign, str], tuple[Command, ...]],
    *,
    submission: str | None = None,
    read: str | None = None,
    source: str | None = None,
    deadline: str | None = None,
    preview: bool = False,
    before: Callable[[str], Sequence[Event]] = lambda actor: (),
    chooser: str | None = None,
) -> Result:
    """Decide and record ``make``'s commands for ``actor``. ``chooser`` names
    the player whose choice an MJ's command records (gm fold, gm default):
    they get a reply, as a player whose message was pasted does."""
    store = env.store

    def attempt(w: Sink, info: CampaignInfo, campaign: Campaign) -> Worked[_Attempt]:
        who = actor if actor == GM else resolve_player(campaign, actor)
        try:
            try:
                commands = make(campaign, who)
                opening = list(before(who))
                meta, state = deciding.apply(campaign.game, campaign.meta, campaign.state, opening)
                decided = deciding.decide(campaign.game, meta, state, who, commands)
            except GMError as err:
                raise relabeled(err, campaign) from None
        except GMError as err:
            if submission is None or isinstance(err, InputError):
                raise
            err.draft = render_common(
                campaign,
                "order_rejected",
                env.templates,
                player=campaign.meta.name(who),
                text=read if read is not None else submission,
                error={"code": err.code, "message": err.message, "params": err.params},
                view=campaign.game.player_view(campaign.state, who, campaign.table),
                awaited=[
                    {"how": a.how, "what": a.what}
                    for a in campaign.game.awaiting(campaign.state)
                    if a.player == who
                ],
            )
            if preview:
                return Worked(_Attempt(None, err))
            rejected = SubmissionRejected(who, submission, err.code, err.message)
            records = deciding.by_seat(campaign, [to_record(rejected, who, source)])
            stored = w.append(info.slug, records, campaign.seq)
            return Worked(_Attempt(None, err), extend(campaign, stored))
        to = who if submission is not None else None
        if chooser is not None:
            to = resolve_player(campaign, chooser)
        result = _apply(
            env,
            w,
            campaign,
            who,
            deciding.Decided((*opening, *decided.events), decided.meta, decided.state),
            source,
            deadline,
            preview,
            to,
        )
        return Worked(_Attempt(result, None), result.campaign if result.recorded else None)

    done = pipeline.run(store, slug, attempt)
    if done.refusal is not None:
        raise done.refusal
    assert done.result is not None
    return done.result


@dataclass(frozen=True)
class _Attempt:
    """One working-out of a command: its result, or its refusal (raised once
    the refused message is recorded)."""

    result: Result | None
    refusal: GMError | None


def _apply(
    env: Env,
    w: Sink,
    campaign: Campaign,
    actor: str,
    decided: deciding.Decided,
    source: str | None,
    deadline: str | None,
    preview: bool,
    to: str | None = None,
) -> Result:
    """Record a decided command's events (``decided``: the events, and the
    meta and state they fold into, evolved once while deciding), then render
    and publish its posts, and the reply to the player ``to`` (the sender,
    or the player whose choice the MJ recorded)."""
    recorded = list(decided.events)
    game = campaign.game
    meta, after_state = decided.meta, decided.state
    game_events = [e for e in recorded if not is_platform(e.kind)]
    due = _deadline(
        env,
        meta,
        game.phase(campaign.state),
        game.phase(after_state),
        deadline,
        over=game.is_over(after_state),
    )
    if due is not None:
        recorded.append(due)
        meta = evolve_meta(meta, due) or meta
    refs = game.posts_after(campaign.state, game_events, after_state)
    if any(isinstance(e, DiceRolled) for e in recorded):
        refs = (*refs, PostRef(ROLL))

    if preview:
        drawn = [p for e in recorded if isinstance(e, ChanceDrawn) for p in e.purposes]
        if drawn:
            # a draw is made once, for real: an MJ who could see it first
            # could wait for a draw that suits him before committing it
            raise CampaignError(
                f"a preview would show what the fortune draws ({', '.join(drawn)}) before it"
                " is recorded: run the command without --preview (a draw is made once, and"
                " published)",
                code="preview/chance",
                params={"purposes": drawn},
            )
        # Fold the would-be events without storing them: the posts show the
        # state after the command, with the chain head as it stands.
        would_be = deciding.would_be(campaign, [to_record(e, actor, source) for e in recorded], env)
        projected = extend(campaign, would_be)
        posts = tuple(
            Post(ref, render_public(projected, ref, campaign.head, env.templates)) for ref in refs
        )
        reply = _reply(env, campaign, projected, to, would_be) if to else None
        return Result(projected, (), posts, reply, recorded=False, to=to)

    records = deciding.by_seat(campaign, [to_record(e, actor, source) for e in recorded])
    stored = w.append(campaign.slug, records, campaign.seq)
    after = advance(campaign, stored, recorded, meta, after_state)
    bodies = [(ref, render_public(after, ref, after.head, env.templates)) for ref in refs]
    published, rows = publish(w, after, bodies, env.templates, batch=stored[0].seq)
    # the stored text: from protocol 4 it ends with the post's proof block
    posts = tuple(
        Post(ref, row.body, row.number) for (ref, _), row in zip(bodies, rows, strict=True)
    )
    reply = _reply(env, campaign, after, to, stored) if to else None
    return Result(published, tuple(stored), posts, reply, to=to)


_PLATFORM_CODES = ("player/", "input/")


def relabeled(err: GMError, campaign: Campaign) -> GMError:
    """``err`` (raised by the rules, which name seats) with each renamed seat
    called by its current name, in its message and its string parameters,
    for the MJ and the reply templates: the one place refusals are built.
    Nothing changes when nobody was renamed, nor in the platform's own
    refusals (``player/…``, ``input/…``), which name players by their names."""
    table = campaign.table
    if not table.renamed or err.code.startswith(_PLATFORM_CODES):
        return err

    def label(value: Any) -> Any:
        if isinstance(value, str):
            return table.relabel(value)
        if isinstance(value, list | tuple):
            return type(value)(label(v) for v in value)
        return value

    err.message = table.relabel(err.message)
    err.args = (err.message,)
    err.params = {k: label(v) for k, v in err.params.items()}
    return err


def _deadline(
    env: Env, meta: Meta, phase_before: str, phase_after: str, given: str | None, *, over: bool
) -> DeadlineSet | None:
    """The deadline a command sets: the one given (``--deadline``), else the
    campaign's ``turn-deadline`` when the command moved the game to another
    phase (a player's move passed the turn) that is not its end, else none."""
    tz = meta.settings["tz"]
    if given is not None:
        return DeadlineSet(phase_after, clock.parse_deadline(given, env.now(), tz).isoformat())
    every = meta.settings.get("turn-deadline")
    if every and phase_after != phase_before and not over:
        return DeadlineSet(phase_after, clock.parse_deadline(every, env.now(), tz).isoformat())
    return None


def _reply(
    env: Env,
    before: Campaign,
    campaign: Campaign,
    player: str,
    stored: Sequence[StoredEvent],
) -> str:
    """The private reply to ``player`` for what ``stored`` recorded: the seals
    of the secrets it sealed, whether one replaced a secret they had sent
    before (``replaced``), and whether the MJ recorded it for them (``by_mj``:
    gm fold, gm stay, gm withdraw; ``default``: the rules' default)."""
    if not any(r.kind == CommandDecided.kind for r in stored):
        return render_common(campaign, "word_received", env.templates, player=player)
    return order_received(before, campaign, player, stored, env.templates)
