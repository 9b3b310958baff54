"""The format readers: a file of text, CSV/TSV, HTML, PDF or DOCX read into units, every
failure an IngestError; ``formats`` chooses the reader for a file."""
