"""dpui.audit: the audit page's pieces (no maths)."""
