"""The composer: typed plans over verified primitives, their interpreter, and the templates
that say a computed value in the library's own words."""
