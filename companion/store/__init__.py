"""Session storage behind one small interface (TinyDB by default, in-memory for tests)."""
