"""Reads the PNGs the browser tests meet (Chromium's screenshots, the app's downloads):
8-bit RGB or RGBA, not interlaced, which is what both write. Standard library only."""

import struct
import zlib


class PngError(ValueError):
    pass


def read_png(data):
    """(width, height, rows) with rows a list of bytes objects, 4 bytes (RGBA) a pixel.
    Raises PngError when the bytes are not a PNG of that kind, or its chunks are damaged."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise PngError("no PNG signature")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        if pos + 8 > len(data):
            raise PngError("chunk cut short")
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise PngError(f"bad CRC in {kind!r}")
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        raise PngError("no IHDR")
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        raise PngError(f"unsupported PNG (depth {depth}, colour type {color}, interlace {interlace})")
    channels = 4 if color == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
            elif kind != 0:
                raise PngError(f"bad filter {kind} in row {y}")
        previous = line
        if channels == 3:
            rgba = bytearray()
            for i in range(0, stride, 3):
                rgba += line[i:i + 3] + b"\xff"
            rows.append(bytes(rgba))
        else:
            rows.append(bytes(line))
    return width, height, rows


def region_colours(png, x0, y0, x1, y1, step=2):
    """Distinct RGB colours in the box (fractions of the image), sampled every `step` pixels."""
    width, height, rows = png
    colours = set()
    for y in range(int(y0 * height), int(y1 * height), step):
        row = rows[y]
        for x in range(int(x0 * width), int(x1 * width), step):
            colours.add(row[4 * x:4 * x + 3])
    return colours
