"""dpui.topicdp: the topicdp page's pieces (no maths)."""
