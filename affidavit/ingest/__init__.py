"""From files to units to verbatim lines: readers, tables, layout, sentences, windows."""
