"""load.run's command line: ``--server-env`` sets names in the servers' environment only,
and refuses what is not NAME=VALUE."""

from __future__ import annotations

import pytest

from load import run


def test_server_env_takes_assignments_empty_values_included() -> None:
    args = run.parse_args(["--server-env", "LD_PRELOAD=", "--server-env", "A=b=c"])
    assert dict(args.server_env) == {"LD_PRELOAD": "", "A": "b=c"}
    assert run.parse_args([]).server_env == []


def test_server_env_refuses_a_bare_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run.parse_args(["--server-env", "LD_PRELOAD"])
    assert "expected NAME=VALUE, got 'LD_PRELOAD'" in capsys.readouterr().err
