"""The classic game for people: text boards (`render`, `terminal`), SVG and RGB pictures
(`svg`, `raster`) and the one-file HTML viewer (`viewer`)."""
