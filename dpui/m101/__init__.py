"""dpui.m101: the m101 page's pieces (no maths)."""
