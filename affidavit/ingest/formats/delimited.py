"""CSV and TSV files to table-row units: one ROW per record, cells named by the header."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from affidavit.errors import IngestError
from affidavit.ingest.formats.decode import check_text, decode_bytes
from affidavit.ingest.table_rules import unique_names
from affidavit.ingest.units import Unit, UnitKind

__all__ = ["read_csv", "read_tsv"]


def read_csv(path: Path, data: bytes) -> list[Unit]:
    return _read_delimited(path, data, ",")


def read_tsv(path: Path, data: bytes) -> list[Unit]:
    return _read_delimited(path, data, "\t")


def _read_delimited(path: Path, data: bytes, delimiter: str) -> list[Unit]:
    text = decode_bytes(data, path=path)
    check_text(text, path=path)
    # Physical lines are fed to the csv reader one at a time so that, after each record,
    # ``line_num`` tells exactly which lines it spanned: the row's text is those lines as
    # written (so citations slice back to the file), and errors can name the line where
    # the bad record starts.
    lines = [line + "\n" for line in text.split("\n")]
    if delimiter == ",":
        delimiter = _sniff_delimiter(lines)
    return _table_units(path, lines, delimiter)


def _sniff_delimiter(lines: Sequence[str]) -> str:
    """',' unless the header has no comma and another delimiter clearly splits it.

    Spreadsheet programs in many locales write ``;``-separated files with a .csv suffix.
    """
    header = next((line for line in lines if line.strip()), "")
    if "," in header:
        return ","
    sample = "".join(lines[:50])
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=";\t|")
    except csv.Error:
        return ","
    return dialect.delimiter if dialect.delimiter in header else ","


def _table_units(path: Path, lines: Sequence[str], delimiter: str) -> list[Unit]:
    source = iter(lines)
    reader = csv.reader(source, delimiter=delimiter, strict=True)
    units: list[Unit] = []
    names: list[str] | None = None
    header_line = 0
    consumed = 0  # physical lines read so far; the next record starts on line consumed + 1
    while True:
        start = consumed + 1
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise _csv_error(path, start, exc) from exc
        consumed = reader.line_num
        if not any(field.strip() for field in fields):
            continue  # blank line (or a row of empty fields): nothing to say
        raw = "".join(lines[start - 1 : consumed]).strip()
        if names is None:
            names = unique_names(
                [name.strip() or f"column {i}" for i, name in enumerate(fields, start=1)]
            )
            header_line = start
            units.append(Unit(UnitKind.ROW, raw, cells=None, table=0))
            continue
        if len(fields) != len(names):
            raise IngestError(
                path,
                f"malformed table: line {start} has {len(fields)} fields but the header "
                f"(line {header_line}) names {len(names)} columns",
                hint=f"give every row {len(names)} fields; quote any field that contains "
                f"{_delimiter_name(delimiter)} or a line break",
            )
        cells = tuple(zip(names, (field.strip() for field in fields), strict=True))
        units.append(Unit(UnitKind.ROW, raw, cells=cells, table=0))
    return units


def _csv_error(path: Path, line: int, exc: csv.Error) -> IngestError:
    message = str(exc)
    if "unexpected end of data" in message:
        problem = f"malformed table: the quoted field on line {line} is never closed"
    else:
        problem = f"malformed table: line {line}: {message}"
    return IngestError(
        path,
        problem,
        hint='close every quoted field and write a quote inside one as two quotes ("")',
    )


def _delimiter_name(delimiter: str) -> str:
    return {"\t": "a tab", ",": "a comma", ";": "a semicolon"}.get(delimiter, repr(delimiter))
