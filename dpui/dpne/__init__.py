"""dpui.dpne: the dpne page's pieces (no maths)."""
