#!/usr/bin/env python
"""Where a game's compiled code spends its time, from `perf` samples (never run as a test).

Plays ``--games`` games of GAME in this process (``play_block``, every seat's strategy from
``--strategy``, repeatable, as in ``tourney run``) while ``perf record -p PID`` samples it, then
maps every sampled instruction pointer onto the compiled functions it knows: the game's kernel
(``play_chunk``), each strategy, every other compiled function of the game's rules and strategies
modules that numba did not inline (``determinize``, helpers), and numba's reference counting
(``NRT_incref`` / ``NRT_decref``, whose atomic operations were over half of the search's time
before its work arrays became borrowed views: ``docs/speed.md``). It prints each one's share of
the samples, then the hottest instructions of one of them (``--show kernel`` or a strategy name),
disassembled from memory with ``objdump``, each with the two instructions before it (a sample
often lands just after the instruction that stalled). Offsets such as ``0x3c4(%r13,...)`` into
the state are ``4 x`` the state index, which the game's layout in its ``rules.py`` names.

numba emits no symbols for perf, so a function's extent is taken as running up to the next known
function (at most 1 MB): code of functions it does not know (numba's helpers) counts towards the
known function below it.

Needs ``perf`` (permission to sample one's own process) and ``objdump``. Usage:
    python scripts/perf_hotspots.py companeros --players 4 --strategy ismcts --strategy greedy \\
        --games 40 --show ismcts
"""
from __future__ import annotations

import argparse
import collections
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from numba.core.registry import CPUDispatcher
from numba.core.runtime import rtsys

from tourney_sim.simulate.matchup import make_matchup, play_block
from tourney_sim.strategies import resolve

MAX_EXTENT = 1 << 20


def entry_points(dispatcher: CPUDispatcher) -> list[int]:
    """The addresses of a dispatcher's compiled overloads."""
    out = []
    for cres in dispatcher.overloads.values():
        out.append(cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int)
    ap.add_argument("--strategy", action="append", help="a seat's strategy; repeatable (default random)")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--show", default="kernel", help="'kernel' or a strategy name: list its hottest instructions")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    for tool in ("perf", "objdump"):
        if shutil.which(tool) is None:
            sys.exit(f"error: {tool} is not installed")
    names = args.strategy or ["random"]
    m = make_matchup(args.game, args.players, names, seed=1)
    play_block(m, 0, 2)  # compile or load everything first
    functions = {"kernel": entry_points(m.spec.module.play_chunk)[0]}
    for s in resolve(args.game, sorted(set(names))):
        functions[s.name.split(":")[0]] = entry_points(s.fn)[0]
    # every other compiled function of the game's rules and strategies modules (helpers that
    # numba did not inline, determinize), named module.function
    strategy_module = sys.modules[resolve(args.game, [names[0]])[0].fn.py_func.__module__]
    for module in (m.spec.module, strategy_module):
        for attr, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and obj.overloads:
                address = entry_points(obj)[0]
                if address not in functions.values():
                    functions[f"{module.__name__.rsplit('.', 1)[-1]}.{attr}"] = address
    if not rtsys._init:
        rtsys.initialize(m.spec.module.play_chunk.targetctx)
    nrt = {name: rtsys._library.get_pointer_to_function(name) for name in ("NRT_incref", "NRT_decref")}
    if args.show not in functions:
        sys.exit(f"error: --show {args.show!r}: one of {', '.join(functions)}")

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        rec = subprocess.Popen(["perf", "record", "-F", "4000", "-p", str(os.getpid()), "-o", str(data)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        play_block(m, 0, args.games)
        rec.send_signal(signal.SIGINT)
        rec.wait()
        out = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True,
                             text=True).stdout
        ips = [int(x, 16) for x in out.split()]
        if not ips:
            sys.exit("error: perf recorded no samples (is perf allowed here? see perf_event_paranoid)")
        starts = sorted((a, name) for name, a in functions.items())
        extent = {}
        for (a, name), nxt in zip(starts, starts[1:] + [(None, None)]):
            extent[name] = min(nxt[0] - a, MAX_EXTENT) if nxt[0] is not None else MAX_EXTENT
        share = collections.Counter()
        hot = collections.Counter()
        for ip in ips:
            owner = "elsewhere (Python, pyarrow, the OS, unknown compiled code)"
            for name, a in nrt.items():
                if a <= ip < a + 32:
                    owner = "numba reference counting (NRT_incref / NRT_decref)"
            if owner.startswith("elsewhere"):
                for a, name in starts:
                    if a <= ip < a + extent[name]:
                        owner = name
            share[owner] += 1
            if owner == args.show:
                hot[ip - functions[args.show]] += 1
        print(f"{len(ips):,} samples, {args.games:,} games of {args.game} ({', '.join(names)}); each "
              f"sample goes to the nearest known function start below it, so code this script cannot "
              f"name counts towards a neighbour (numba's reference counting is exact)\n")
        for owner, c in share.most_common():
            print(f"  {100 * c / len(ips):5.1f}%  {owner}")
        code = Path(tmp) / "code.bin"
        code.write_bytes(ctypes.string_at(functions[args.show], extent[args.show]))
        dis = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64", str(code)],
                             capture_output=True, text=True).stdout
    listing = []
    for line in dis.splitlines():
        head, _, rest = line.partition(":")
        fields = rest.split("\t")
        if len(fields) < 3:  # a label, or the rest of a long instruction's bytes
            continue
        try:
            listing.append((int(head.strip(), 16), fields[-1].strip()))
        except ValueError:
            continue
    index = {off: i for i, (off, _) in enumerate(listing)}
    total = sum(hot.values()) or 1
    print(f"\nhottest instructions of {args.show} (share of its samples; offset; the two before it):\n")
    for off, c in hot.most_common(args.top):
        i = index.get(off)
        before = " | ".join(listing[j][1] for j in range(max(0, i - 2), i)) if i is not None else ""
        here = listing[i][1] if i is not None else "?"
        print(f"  {100 * c / total:5.1f}%  +{off:06x}  {here:40s}  after: {before}"[:160])


if __name__ == "__main__":
    main()
