"""dpui.bayesian: the bayesian page's pieces (no maths)."""
