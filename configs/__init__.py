"""Variant files (TOML). A package only so that they install with `stratego`."""
