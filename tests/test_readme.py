"""The README's commands and links work (issue 40): every `tourney` command in its code blocks is
parsed by the real command line (without running it) and its game, strategy, rule, component and
budget names are checked against the registry; the opening block holds the two commands `.ci/run`
expects; every relative link of the README and of the pages of docs/ it sends readers to leads to a
file (and a heading) that exists.

A misspelled option, a missing argument, a bad value, an unknown game or strategy in a README
command fails ``test_readme_command_parses`` with the README line in the message."""
import os
import re
import shlex
from pathlib import Path

import pytest
import typer.main
from typer._click.core import Context
from typer._click.exceptions import UsageError
from typer.exceptions import Exit

from tourney_sim.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: the pages of docs/ whose links are checked with the README's: those that took the README's
#: material (issue 40); docs/analysis.md and the generated docs/balance/ and docs/design/ are not
DOCS = ["design.md", "layout.md", "results.md", "scaling.md", "search.md", "speed.md", "strategies.md",
        "studies.md", "tests.md", "traces.md"]

FENCE = re.compile(r"^\s*```")
#: shell control operators: a command ends there
CONTROL = {"&&", "||", ";", "|", "&"}
#: redirections: they and the word after them are not the command's
REDIRECT = {">", ">>", "<", "2>", "&>", ">&", "2>&1"}


# ----------------------------------------------------------------------------- reading the README
def code_blocks(text: str) -> list[list[tuple[int, str]]]:
    """The fenced code blocks of a Markdown text, each a list of (line number, line)."""
    blocks, current = [], None
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            if current is None:
                current = []
            else:
                blocks.append(current)
                current = None
        elif current is not None:
            current.append((number, line))
    return blocks


def logical_lines(block: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The block's lines with backslash continuations joined (the first line's number kept); a
    trailing `# comment` is left to the shell lexer, which drops it."""
    out, pending, start = [], "", 0
    for number, line in block:
        if line.rstrip().endswith("\\"):
            if not pending:
                start = number
            pending += line.rstrip()[:-1] + " "
            continue
        if pending:
            out.append((start, pending + line))
            pending = ""
        else:
            out.append((number, line))
    if pending:
        out.append((start, pending))
    return out


def shell_words(line: str) -> list[str]:
    """A shell line as words: quotes removed, `# comments` dropped, operators their own words."""
    lex = shlex.shlex(line, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = "#"
    return list(lex)


def tourney_commands(words: list[str]) -> list[list[str]]:
    """Each `tourney ...` command of a shell line (after `&&`, before a pipe), as its arguments
    after `tourney`, redirections removed."""
    commands, current = [], []
    for word in words + [";"]:
        if word in CONTROL:
            if current and current[0] == "tourney":
                commands.append(current[1:])
            current = []
        else:
            current.append(word)
    cleaned = []
    for args in commands:
        kept, skip = [], False
        for word in args:
            if skip:
                skip = False
            elif word in REDIRECT:
                skip = True
            else:
                kept.append(word)
        cleaned.append(kept)
    return cleaned


def readme_commands() -> list[tuple[int, str, list[str]]]:
    """(line number, README line, arguments) of every `tourney` command in the README's code
    blocks: lines that start with `tourney `, and commands chained with `&&` (the opening block)."""
    found = []
    for block in code_blocks(README.read_text(encoding="utf-8")):
        for number, line in logical_lines(block):
            if not (line.lstrip().startswith("tourney ") or "&& tourney " in line):
                continue
            for args in tourney_commands(shell_words(line)):
                found.append((number, line.strip(), args))
    return found


COMMANDS = readme_commands()


# ----------------------------------------------------------------------------- parsing and names
def parse(args: list[str]):
    """The command's click context, parsed exactly as `tourney` parses it (nothing runs): an
    unknown command or option, a missing argument or a value of the wrong type raises UsageError."""
    group = typer.main.get_command(app)
    root = Context(group, info_name="tourney")
    name, command, rest = group.resolve_command(root, list(args))
    if command is None:
        raise UsageError(f"no such command {args[0]!r}", root)
    return name, command.make_context(name, list(rest), parent=root, resilient_parsing=False)


def _as_list(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return [str(value)]


def check_names(command: str, params: dict) -> None:
    """What the commands check in their bodies, not at parse time: the game, player counts,
    strategies and their parameters, rule options, component addresses, budgets and choices.
    Raises (with the library's one-line message) when a name or value is not real."""
    from tourney_sim.simulate import design, study, tournament, tune
    from tourney_sim.simulate.games import get_game
    from tourney_sim.simulate.games.spec import COMPONENTS_OPTION, component_address, component_rules
    from tourney_sim.strategies import available, setting_name
    from tourney_sim.strategies.params import parse_assignments

    game = params.get("game")
    if not isinstance(game, str):  # `replay --game N` is a game index, and some commands take none
        return
    spec = get_game(game)
    sweep = command == "sweep"

    players = params.get("players")
    for text in _as_list(players):
        for count in str(text).split(","):
            spec.check_players(int(count))

    table = available(game)
    for key in ("strategy", "against", "heuristic", "weaker", "search"):
        for text in _as_list(params.get(key)):
            name = setting_name(text)
            if name not in table:
                raise AssertionError(f"unknown strategy {name!r} for {game} (strategies: {', '.join(table)})")
            if ":" in text and "@" not in text:
                table[name].with_settings(parse_assignments(text.partition(":")[2], f"strategy {name}"))

    def each_value(raw: str) -> list[str]:
        return raw.split(",") if sweep else [raw]

    for text in _as_list(params.get("rule")):
        assert "=" in text, f"--rule expects key=value, got {text!r}"
        key, _, raw = text.partition("=")
        address = component_address(key)
        if address is not None:
            _check_component(spec, f"{address}={raw}", sweep)
        elif key.strip() != COMPONENTS_OPTION:  # components=FILE: a file of the reader's own
            for value in each_value(raw):
                spec.option(key.strip()).parse(value.strip())
    for text in _as_list(params.get("component")):
        _check_component(spec, text, sweep)

    if command == "study":
        assert params["budget"] in study.BUDGETS, f"--budget {params['budget']!r}: one of {', '.join(study.BUDGETS)}"
        levels = [x.strip() for item in params["levels"] or study.LEVELS for x in item.split(",") if x.strip()]
        assert set(levels) <= set(study.LEVELS), f"--levels {params['levels']!r}: of {', '.join(study.LEVELS)}"
    if command == "design":
        assert params["budget"] in design.BUDGETS, f"--budget {params['budget']!r}: one of {', '.join(design.BUDGETS)}"
        assert params["sampler"] in design.SAMPLERS, f"--sampler {params['sampler']!r}"
        for objective in _as_list(params.get("objective")):
            assert objective in design.MEASURES, f"--objective {objective!r}: one of {', '.join(design.MEASURES)}"
        targets = _as_list(params.get("target"))
        if [t.strip().lower() for t in targets] != ["none"]:
            for target in targets:
                design.parse_target(target)
        rules = _as_list(params.get("rule")) + component_rules(_as_list(params.get("component")))
        dims = design.dimensions(game, spec.resolve_options(rules))
        design.select(game, dims, _as_list(params.get("vary")), _as_list(params.get("fix")))
    if command in ("tournament", "sweep"):
        assert params["seatings"] in tournament.DESIGNS, f"--seatings {params['seatings']!r}"
    if command == "tune":
        assert params["sampler"] in tune.SAMPLERS, f"--sampler {params['sampler']!r}"
        assert params["objective"] in tune.OBJECTIVES, f"--objective {params['objective']!r}"


def _check_component(spec, text: str, sweep: bool) -> None:
    """One `--component KEY=VALUE` (in a sweep, KEY=v1,v2,...: each value, unless the whole is a
    list value) set over the game's defaults."""
    components = spec.declared_components()
    try:
        components.set(components.defaults, [text])
    except Exception:
        if not sweep:
            raise
        address, _, raw = text.partition("=")
        for value in raw.split(","):
            components.set(components.defaults, [f"{address}={value.strip()}"])


def check_choices(command: str, params: dict) -> None:
    """The values the commands without a game check in their bodies (`replay`, `report`)."""
    from tourney_sim.cli.app import REPORT_SUFFIXES
    if command == "replay":
        assert params["format"] in ("text", "json", "position"), f"--format {params['format']!r}"
    if command == "report":
        if params.get("format") is not None:
            assert params["format"] in ("html", "md", "text"), f"--format {params['format']!r}"
        elif params.get("out") is not None:
            assert Path(params["out"]).suffix.lower() in REPORT_SUFFIXES, f"--out {params['out']}: .html or .md"
    if command == "position":
        assert params["format"] in ("text", "json"), f"--format {params['format']!r}"


def check_command(args: list[str]) -> None:
    """Parse one README command and check its names; raises on the first problem."""
    try:
        name, ctx = parse(args)
    except Exit:  # --help
        return
    check_choices(name, ctx.params)
    check_names(name, ctx.params)


# ----------------------------------------------------------------------------- the tests
def test_the_readme_has_tourney_commands():
    assert len(COMMANDS) >= 20, COMMANDS  # the extraction found them (a broken fence would lose them)
    assert {args[0] for _, _, args in COMMANDS} >= {"run", "study", "design", "summary", "replay", "check",
                                                     "tournament", "sweep", "report", "tune", "verify"}


@pytest.mark.parametrize("number,line,args", COMMANDS, ids=[f"line{n}-{a[0]}" for n, _, a in COMMANDS])
def test_readme_command_parses(number, line, args):
    try:
        check_command(args)
    except Exception as exc:
        message = exc.format_message() if isinstance(exc, UsageError) else f"{type(exc).__name__}: {exc}"
        pytest.fail(f"README.md:{number}: `{line}`\n  -> {message}", pytrace=False)


def test_the_opening_block_holds_the_two_commands_ci_runs():
    """The first fenced block: exactly two lines, the first sets up and plays (`tourney run`), the
    second sets up and runs the tests; `.ci/run` runs the first block's line containing pytest."""
    (first, *_) = code_blocks(README.read_text(encoding="utf-8"))
    lines = [line for _, line in first]
    assert len(lines) == 2, lines
    assert "tourney run " in lines[0] and "pytest" not in lines[0]
    assert "pytest" in lines[1] and lines[1].startswith("python3 -m venv .venv")
    assert "awk '/^```/{block++; next} block==1 && /pytest/ {print; exit}' README.md" in (ROOT / ".ci" / "run").read_text()
    # the opening block's `tourney run` is parsed like every other README command
    assert any(number == first[0][0] for number, _, _ in COMMANDS)


def test_a_wrong_readme_command_fails():
    """The check above can fail: a misspelled option, an unknown game, strategy, rule or component,
    a missing argument, a bad value."""
    good = ["run", "companeros", "--players", "4", "--strategy", "greedy", "--out", "runs/x"]
    check_command(good)
    for bad in (["run", "companeros", "--player", "4"],                       # misspelled option
                ["run", "chess"],                                              # no such game
                ["run", "companeros", "--strategy", "greedier"],               # no such strategy
                ["run", "companeros", "--strategy", "greedy:max_card=99"],     # out of range
                ["run", "companeros", "--rule", "match_games=0"],              # bad rule value
                ["run", "companeros", "--games", "many"],                      # not a number
                ["replay", "runs/x"],                                          # --game missing
                ["study", "cardavia", "--budget", "huge"],                     # no such budget
                ["design", "partners", "--vary", "dice"],                      # nothing to design
                ["run", "colleagues", "--component", "tokens.plus10=100"],     # out of range
                ["tourney-run", "companeros"]):                                # no such command
        with pytest.raises(Exception):
            check_command(bad)


# ----------------------------------------------------------------------------- links
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
INLINE_CODE = re.compile(r"`[^`\n]*`")


def without_code(text: str, inline: bool = True) -> str:
    """The Markdown text without its fenced blocks (no links or headings there) and, with
    ``inline``, without its inline code (no links there either)."""
    out, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        out.append("" if inside else INLINE_CODE.sub("", line) if inline else line)
    return "\n".join(out)


def slugs(path: Path) -> set[str]:
    """The anchors GitHub makes of a Markdown file's headings."""
    seen: dict[str, int] = {}
    out = set()
    for line in without_code(path.read_text(encoding="utf-8"), inline=False).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).replace("`", "").lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(path: Path) -> list[tuple[str, str]]:
    """(link, problem) for every relative link of ``path`` that leads nowhere."""
    broken = []
    for target in LINK.findall(without_code(path.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        where = (path.parent / file).resolve() if file else path
        if not where.exists():
            broken.append((target, "no such file"))
        elif anchor and where.suffix == ".md" and anchor not in slugs(where):
            broken.append((target, f"no heading #{anchor} in {os.path.relpath(where, ROOT)}"))
    return broken


@pytest.mark.parametrize("name", ["README.md", *(f"docs/{d}" for d in DOCS)])
def test_relative_links_lead_somewhere(name):
    path = ROOT / name
    assert path.is_file(), name
    assert links(path) == [], name


def test_the_link_check_can_fail(tmp_path):
    (tmp_path / "there.md").write_text("# A heading: with `code`\n\n## Twice\n\n## Twice\n")
    page = tmp_path / "page.md"
    page.write_text("[ok](there.md) [ok](there.md#a-heading-with-code) [ok](there.md#twice-1) "
                    "[gone](nothere.md) [bad anchor](there.md#nope) [web](https://example.org/x)\n"
                    "`[in code](nothere.md)`\n")
    assert [(target, problem.split(" in ")[0]) for target, problem in links(page)] == [
        ("nothere.md", "no such file"), ("there.md#nope", "no heading #nope")]
