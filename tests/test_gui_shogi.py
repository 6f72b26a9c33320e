"""The window with shogi boards, and the analysis panel's row order."""

import pytest

pytest.importorskip("PySide6")

from gamesuite.core.info import SearchInfo  # noqa: E402
from gamesuite.core.registry import load_game  # noqa: E402
from gamesuite.core.score import Score  # noqa: E402
from gamesuite.gui.analysis import AnalysisPanel  # noqa: E402


def _info(depth, line, pv):
    return SearchInfo(0, depth, depth, Score.eval(10 * depth - line, 0), tuple(pv), 100, 1000, 5, line)


def test_analysis_rows_of_one_depth_are_ordered_by_line_number(qtbot):
    panel = AnalysisPanel()
    qtbot.addWidget(panel)
    st = load_game("tictactoe").new_state()
    panel.begin(st, "test")
    # multi-PV engines report line 1, 2, 3 of a depth, then the next depth
    panel.add_infos([_info(1, k, [k - 1]) for k in (1, 2, 3)])
    panel.flush()
    panel.add_infos([_info(2, k, [k - 1, 4]) for k in (1, 2, 3)])
    panel.add_infos([_info(2, 1, [8, 4])])  # line 1 reported again at the same depth
    panel.flush()
    shown = [(panel.tree.topLevelItem(i).text(0), panel.tree.topLevelItem(i).text(1))
             for i in range(panel.tree.topLevelItemCount())]
    assert shown == [("1", "2/2"), ("1", "2/2"), ("2", "2/2"), ("3", "2/2"), ("1", "1/1"), ("2", "1/1"), ("3", "1/1")]
    # the newer report of line 1 is above the older one
    assert panel.tree.topLevelItem(0).data(0, 256) == [8, 4]
