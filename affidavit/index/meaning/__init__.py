"""The meaning channel: the bundled static encoder, each line's vector and each document's
profiles (built from the store's lines, cached in parts), and late interaction over word
pieces."""
