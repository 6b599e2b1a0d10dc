#!/usr/bin/env python3
"""A PNG that claims WIDTH x HEIGHT grey pixels and holds the data of a few rows only: what a
decompression bomb looks like to a decoder until it inflates. Usage: claimed-png.py W H OUT"""
import struct
import sys
import zlib


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


width, height, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
rows = zlib.compress(bytes((width + 1) * 64))
with open(out, "wb") as file:
    file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b""))
