"""Figure snapshots: the split explorer's gain curves (every feature at the root, for each
algorithm; Plotly JSON) and the pruning charts (α path with CV, CF; static SVG), as the browser
receives them.

Stored in ``tests/snapshots/figures/``; ``UPDATE_SNAPSHOTS=1`` rewrites them. ``figure_json``
drops Plotly's default template and decodes typed arrays so a diff shows numbers. The SPEC's
worked example (watermelon 3.0, §4) anchors the curves: the marked best cuts and gains are the
textbook's, so the stored pictures are the right ones, not just stable ones.
"""

import pytest

from tests.snapshot_cases import GAIN_CASES, figure_json, gain_figures, pruning_figures
from tests.snapshots import assert_text_snapshot
from ui.commands.report import file_stem


@pytest.fixture(scope="module", params=sorted(GAIN_CASES))
def gain(request):
    return request.param, gain_figures(request.param)


def test_gain_figures(gain):
    case, figs = gain
    assert figs, "no chart for any feature"
    taken = set()
    for name, fig in figs.items():
        assert_text_snapshot(f"figures/gain-{case}", f"{file_stem(name, taken)}.json", figure_json(fig))


def _star(fig):
    """(x, y) of the best-cut mark of a curve figure."""
    stars = [tr for tr in fig.data if getattr(tr.marker, "symbol", None) == "star"]
    assert len(stars) == 1
    return float(stars[0].x[0]), float(stars[0].y[0])


def test_gain_curves_mark_the_spec_cuts():
    """SPEC §4 (watermelon 3.0, bi-partition of continuous values): 密度 cut 0.3815, gain 0.262;
    含糖率 cut 0.126, gain 0.349."""
    figs = gain_figures("watermelon3-id3")
    for name, (cut, g) in {"密度": (0.3815, 0.262), "含糖率": (0.126, 0.349)}.items():
        x, y = _star(figs[name])
        assert x == pytest.approx(cut, abs=5e-4) and y == pytest.approx(g, abs=5e-4), name


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pruning_charts(lang):
    """The Pruning page's static SVG charts (ui/figures/pruning.py), as the page sends them."""
    for name, svg in pruning_figures(lang).items():
        assert_text_snapshot("figures", f"{name}-{lang}.svg", svg)
