"""The castle game's variant files (TOML, docs/castle.md "Settings"). A package only so that they install with `stratego`."""
