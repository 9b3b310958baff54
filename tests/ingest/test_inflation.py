"""A PDF's deflate bomb is measured before its parser inflates it, a piece at a time."""

from __future__ import annotations

import zlib

from affidavit.ingest.formats.inflation import INFLATION_FLOOR, inflated_beyond


def _pdf_with(dictionary: bytes, inflated: bytes, tail: bytes = b"\n") -> bytes:
    stream = zlib.compress(inflated, 9)
    return (
        b"%PDF-1.4\n1 0 obj\n<< " + dictionary + b" >>\nstream\n" + stream + tail + b"endstream\n"
    )


def test_a_stream_inflating_past_the_bound_is_found() -> None:
    data = _pdf_with(
        b"/Length 9 /Filter /FlateDecode", b"0 0 Td (A) Tj\n" * (INFLATION_FLOOR // 10)
    )
    found = inflated_beyond(data)
    assert found is not None and found > INFLATION_FLOOR


def test_bytes_after_a_streams_end_do_not_stall_the_count() -> None:
    # Past the deflate stream's end, zlib takes no more input: the count must stop there.
    data = _pdf_with(b"/Filter /FlateDecode", b"Some words. " * 1000, tail=b"\r\n\r\n  junk \n")
    assert inflated_beyond(data) is None


def test_an_image_is_not_counted_nor_a_small_file_refused() -> None:
    blank = b"\xff" * (INFLATION_FLOOR * 2)
    assert inflated_beyond(_pdf_with(b"/Subtype /Image /Filter /FlateDecode", blank)) is None
    assert inflated_beyond(_pdf_with(b"/Filter /FlateDecode", b"BT (Hello) Tj ET\n" * 50)) is None
