"""Hand-written helpers shipped with the generated code (which is in the acme and buf packages)."""
