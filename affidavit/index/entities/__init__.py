"""The entity graph: the names a store's own text makes (mined without a model), the lines
that mention each and the lines that mention two together, built on a second core."""
