"""The training example (``examples/rl/train_maskable_ppo.py``) runs end to end, a few hundred steps:
it needs the ``rl-train`` extra (sb3-contrib, PyTorch), which ``make test`` does not install, and
is skipped without it."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("torch")
sb3_contrib = pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).parents[2] / "examples" / "rl" / "train_maskable_ppo.py"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("anneal", [False, True])
def test_the_example_trains_then_plays_the_same_deals_and_anneals_its_learning_rate_to_0(
        anneal: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "model.zip"
    argv = ["train_maskable_ppo.py", "--game", "patchwork", "--steps", "256", "--envs", "2", "--rollout", "128",
            "--batch", "64", "--epochs", "1", "--games", "3", "--progress", "0", "--save", str(saved)]
    monkeypatch.setattr(sys, "argv", argv + ["--anneal"] * anneal)
    example().main()
    out = capsys.readouterr().out
    tallies = re.findall(r"\{'wins': (\d+), 'ties': (\d+), 'losses': (\d+)\}", out)
    assert len(tallies) == 2 and all(sum(map(int, tally)) == 3 for tally in tallies)
    assert "MaskablePPO after 256 steps (shaped;" in out
    model = sb3_contrib.MaskablePPO.load(saved, device="cpu")
    # the learning rate of the last update: 0 when annealed (the whole training done), else 0.001
    assert model.policy.optimizer.param_groups[0]["lr"] == pytest.approx(0.0 if anneal else 1e-3)


def test_the_wilson_interval_holds_the_rate_and_narrows_with_more_games() -> None:
    wilson = example().wilson
    low, high = wilson(185, 200)
    assert (round(low, 3), round(high, 3)) == (0.880, 0.954)  # as docs/rl.md gives it
    assert low < 185 / 200 < high
    wide = wilson(37, 40)
    assert wide[0] < low and wide[1] > high
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12) and wilson(10, 10)[1] == pytest.approx(1.0)
