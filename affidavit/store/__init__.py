"""The single-file SQLite store: schema, migrations, transactional writes, index cache."""
