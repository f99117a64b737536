"""The CLI run in-process, for any test module (typer's runner; arguments given as any values)."""
from typer.testing import CliRunner

from tourney_sim.cli import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])
