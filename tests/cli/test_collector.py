"""``parlour serve``'s garbage-collector settings (cli/serve.py settle_collector, PARLOUR_GC)."""

from __future__ import annotations

import gc

import pytest

from parlour.cli.serve import YOUNG_OBJECTS, settle_collector


@pytest.fixture
def collector():
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


@pytest.mark.parametrize(("setting", "young"), [(None, YOUNG_OBJECTS), ("8000", 8000), (" ", YOUNG_OBJECTS)])
def test_the_young_generation_is_looked_at_after_the_number_set(collector, monkeypatch, setting, young):
    if setting is None:
        monkeypatch.delenv("PARLOUR_GC", raising=False)
    else:
        monkeypatch.setenv("PARLOUR_GC", setting)
    settle_collector()
    assert gc.get_threshold() == (young, 20, 100)
    assert gc.get_freeze_count() > 0  # what was loaded is out of the collector's sight


def test_default_keeps_pythons_own(collector, monkeypatch):
    gc.set_threshold(700, 10, 10)
    monkeypatch.setenv("PARLOUR_GC", "default")
    settle_collector()
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("setting", ["0", "lots", "-5", "1e4"])
def test_a_mistyped_setting_is_refused_in_words(collector, monkeypatch, setting):
    monkeypatch.setenv("PARLOUR_GC", setting)
    threshold = gc.get_threshold()
    with pytest.raises(SystemExit, match="PARLOUR_GC is 'default' or a whole number"):
        settle_collector()
    assert gc.get_threshold() == threshold
