"""Hostile text as an attacker writes it, for the inbound fuzz suite: numbers past every
range, control and bidi characters, markdown, mentions, posts of 10,000 characters —
alone and inside the commands every game and the host read (``new`` options, ``join N``,
``extend``, orders)."""

from __future__ import annotations

from hypothesis import strategies as st

HUGE_NUMBERS = [
    "99999999999999999999", "9" * 400, "123456789012345678901234", "18446744073709551616",
    "-1", "0", "00000000000000000000007", "1e309", "²", "٣", "𝟕", "Ⅻ", "9" * 40 + "d",
]  # fmt: skip
ODD_CHARACTERS = [
    "\x00", "\x07", "\x1b[31m", "\x7f", "\u202e", "\u202d", "\u2066", "\u2069", "\u200f",
    "\u200b", "\ufeff", "\u00a0", "\u3000", "\r", "\n", "\t", "\u0301", "🚢", "👩‍👩‍👧", "🇫🇷",
]  # fmt: skip
MARKUP = [
    "**bold**", "__under__", "~~gone~~", "`code`", "```block```", "# Heading", "> quote",
    "[Free Nitro](https://example.com/x)", "||spoiler||", "<t:0:R>", "&amp;", "<b>x</b>",
]  # fmt: skip
MENTIONS = ["@everyone", "@here", "<@123456789012345678>", "<@&1>", "<#1>", "@bstbot", "@alice"]
TAGS = ["#bst", "#sonar", "#uboat", "#sugardog", "#silentships", "#BST", ""]
COMMANDS = [
    "new {tag_kind} turn={n}d", "new {tag_kind} seed={n}", "new {tag_kind} setup_deadline={n}h",
    "new {tag_kind} move_time={n}m", "new {tag_kind} response_time={n}s",
    "new {tag_kind} size={n}", "new {tag_kind} size={n}x{n}", "new {tag_kind} max_turns={n}",
    "new {tag_kind} ships={n}", "new {tag_kind} rounds={n} round={n}m",
    "new {tag_kind} islands={n}@C3", "new {tag_kind} evade_window={n}s", "join {n}",
    "join #{n}", "extend {n}d", "extend {n}", "status {n}", "kick {n}", "start {n}",
    "{n}", "fire at A{n}", "move cruiser at G{n} {n} up", "sub: A{n}", "A{n}", "games {n}",
    "help {n}", "leave {n}", "pause {n}", "{tag} {n} join", "{tag} game {n} status",
]  # fmt: skip
KINDS = ["", "bst", "sonar", "uboat", "sugardog", "silentships", "tug", "BST"]

odd_piece = st.sampled_from(ODD_CHARACTERS + MARKUP + MENTIONS)
any_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80)


@st.composite
def command_with_hostile_numbers(draw: st.DrawFn) -> str:
    """A command every platform takes, with a number past its range (or a look-alike)."""
    template = draw(st.sampled_from(COMMANDS))
    number = draw(st.sampled_from(HUGE_NUMBERS) | st.integers(-(10**30), 10**30).map(str))
    text = template.format(n=number, tag=draw(st.sampled_from(TAGS)), tag_kind="{tag_kind}")
    text = text.replace("{tag_kind}", draw(st.sampled_from(KINDS))).replace("  ", " ").strip()
    tag = draw(st.sampled_from(TAGS))
    if tag and not text.startswith("#"):
        text = f"{tag} {text}"
    # Now and then, odd characters or markup inside it.
    for _ in range(draw(st.integers(0, 2))):
        where = draw(st.integers(0, len(text)))
        text = text[:where] + draw(odd_piece) + text[where:]
    return text


@st.composite
def long_post(draw: st.DrawFn, length: int = 10_000) -> str:
    """A post of ``length`` characters: a command, then a piece repeated."""
    head = draw(command_with_hostile_numbers())
    piece = draw(st.sampled_from([*ODD_CHARACTERS, *MARKUP, *MENTIONS, "9", "A1 ", "join "]))
    return (head + " " + piece * length)[:length]


def hostile_text(longest: int = 10_000) -> st.SearchStrategy[str]:
    """Any of the above; ``longest``: the platform's own limit on a message's length."""
    return st.one_of(
        command_with_hostile_numbers(),
        command_with_hostile_numbers(),
        st.lists(odd_piece | st.sampled_from(HUGE_NUMBERS + TAGS), max_size=12).map("".join),
        any_text,
        long_post(longest),
    )


EXPECTATION_MARKERS = (
    "`", "expected", "such as", "e.g.", "send ", "at most", "from ", "try ", "the options",
)  # fmt: skip
# Something well formed that cannot be done now says why, in the game's terms.
STATE_REASONS = (
    "already in this game", "joining is closed", "has already started", "left this game",
)  # fmt: skip


def names_what_is_expected(reply: str) -> bool:
    """A refusal says what would have been taken (an example, a range, the options, the
    word to use), or, for something well formed that cannot be done now, why not."""
    lowered = reply.lower()
    return any(marker in lowered for marker in EXPECTATION_MARKERS + STATE_REASONS)
