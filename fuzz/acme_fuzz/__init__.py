"""The fuzz suite: hostile input against the running services (see fuzz/README.md)."""
