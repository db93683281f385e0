"""Issue 30, item 6: the reviewer panel quoted exact private statistics ("larger than the median user's 5.03472 …
the 26 % of users above it") beside green releases, unmarked. Every rule that reads the private data now says
"Evaluation only — computed on the private data, not part of the release", in the message and in the export."""

from __future__ import annotations

import numpy as np
import pytest

from dpcore.lab.review_rules import EVALUATION_ONLY, PRIVATE_STATISTIC_RULES, ReviewWarning, review_warnings


def _fire_all():
    items = np.r_[np.full(74, 2.0), np.full(26, 40.0)]  # median 2, 26 % above a cap of 10
    return {
        w.rule: w
        for w in review_warnings(
            epsilon=20.0, delta=0.5, n_users=50, calibration="classic", contribution_cap=10, user_items=items
        )
    }


def test_rules_quoting_private_statistics_are_marked_evaluation_only():
    fired = _fire_all()
    assert set(PRIVATE_STATISTIC_RULES) <= set(fired)
    for rule in PRIVATE_STATISTIC_RULES:
        w = fired[rule]
        assert w.evaluation_only, rule
        assert w.message.endswith(EVALUATION_ONLY), (rule, w.message)
        assert w.to_dict()["evaluation_only"] is True
        assert EVALUATION_ONLY in w.to_dict()["message"]
    assert EVALUATION_ONLY == "Evaluation only — computed on the private data, not part of the release."
    assert "26%" in fired["cap-above-median"].message  # the private share is still shown, now marked


@pytest.mark.parametrize("rule", ["epsilon-large", "classic-gaussian"])
def test_rules_about_public_settings_are_not_marked(rule):
    w = _fire_all()[rule]
    assert not w.evaluation_only and EVALUATION_ONLY not in w.message


def test_a_private_statistic_rule_cannot_be_built_unmarked():
    w = ReviewWarning("few-users", "The corpus has 7 users.", "Use more users.")
    assert w.evaluation_only and w.message == f"The corpus has 7 users. {EVALUATION_ONLY}"
    with pytest.raises(ValueError, match=r"rule must be one of .*got rule='nope'"):
        ReviewWarning("nope", "m", "f")
