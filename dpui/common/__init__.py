"""dpui.common: pieces every page shares (no maths)."""
