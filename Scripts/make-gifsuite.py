#!/usr/bin/env python3
"""Makes Tests/WeakImageStoreTests/Fixtures/gifsuite: small GIF files and their reference frames.

    pip install Pillow; apt-get install -y imagemagick giflib-tools
    Scripts/make-gifsuite.py

Most files are written byte by byte here (a GIF writer with its own LZW encoder, so that code
sizes, clear codes, a full table, KwKwK and damage can be chosen); a few come from Pillow and
ImageMagick, and the real-*.gif files from Debian packages (see the suite's README.md).

References are ImageMagick's: `convert FILE -coalesce rgba:-` gives every frame composited on
the whole canvas. Pixels of alpha 0 become 0,0,0,0 before hashing. Where ImageMagick differs
from browsers, which the decoder follows, the reference is adjusted below in a function named
for the case (`browser_*`), and README.md lists each one.

Writes MANIFEST.tsv (file, status, width, height, frames, loop count, durations in ms) and
FRAMES.tsv (file, frame, SHA-256 of the normalised RGBA8 frame).
"""

import hashlib
import io
import os
import random
import struct
import subprocess
import sys

from PIL import Image

SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "WeakImageStoreTests",
                     "Fixtures", "gifsuite")


# --- LZW ---------------------------------------------------------------------------------------

def lzw_codes(indices, min_size, clear_every=None, clear_when_full=True):
    """The codes of an LZW encoding: a leading clear, a clear every `clear_every` codes if given,
    a clear when the table fills unless `clear_when_full` is False (the table then stays frozen),
    and an end-of-information code."""
    clear = 1 << min_size
    codes = [clear]
    table = {bytes([i]): i for i in range(clear)}
    next_free = clear + 2
    word = b""
    emitted = 0
    for index in indices:
        candidate = word + bytes([index])
        if candidate in table:
            word = candidate
            continue
        codes.append(table[word])
        emitted += 1
        if next_free < 4096:
            table[candidate] = next_free
            next_free += 1
        word = bytes([index])
        if (clear_every and emitted % clear_every == 0) or (clear_when_full and next_free >= 4096):
            codes.append(clear)
            table = {bytes([i]): i for i in range(clear)}
            next_free = clear + 2
    if word:
        codes.append(table[word])
    codes.append(clear + 1)
    return codes


def pack_codes(codes, min_size):
    """Packs codes LSB first at the widths a decoder reads them: the code size grows when the
    next free entry reaches its range, checked after every code (giflib's rule)."""
    clear = 1 << min_size
    size = min_size + 1
    next_free = clear + 2
    previous = None
    bits = 0
    count = 0
    out = bytearray()
    for code in codes:
        bits |= code << count
        count += size
        while count >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            count -= 8
        if code == clear:
            size = min_size + 1
            next_free = clear + 2
            previous = None
            continue
        if code == clear + 1:
            continue
        if previous is not None and next_free < 4096:
            next_free += 1
        previous = code
        if next_free >= (1 << size) and size < 12:
            size += 1
    if count:
        out.append(bits & 0xFF)
    return bytes(out)


def sub_blocks(data, size=255):
    out = bytearray()
    for start in range(0, len(data), size):
        chunk = data[start:start + size]
        out.append(len(chunk))
        out += chunk
    out.append(0)
    return bytes(out)


# --- A GIF writer ------------------------------------------------------------------------------

def color_table(colors, bits):
    table = bytearray()
    for i in range(1 << bits):
        r, g, b = colors[i] if i < len(colors) else (0, 0, 0)
        table += bytes([r, g, b])
    return bytes(table)


def table_bits(colors):
    bits = 1
    while (1 << bits) < len(colors):
        bits += 1
    return bits


def header(width, height, palette=None, version=b"89a", background=0):
    out = bytearray(b"GIF" + version)
    flags = 0
    if palette:
        bits = table_bits(palette)
        flags = 0x80 | 0x70 | (bits - 1)
    out += struct.pack("<HHBBB", width, height, flags, background, 0)
    if palette:
        out += color_table(palette, bits)
    return bytes(out)


def loop_extension(count, name=b"NETSCAPE2.0"):
    return b"\x21\xFF\x0B" + name + b"\x03\x01" + struct.pack("<H", count) + b"\x00"


def control(delay=10, disposal=0, transparent=None):
    flags = (disposal << 2) | (1 if transparent is not None else 0)
    return b"\x21\xF9\x04" + struct.pack("<BHB", flags, delay, transparent or 0) + b"\x00"


def image(x, y, width, height, indices, min_size=None, palette=None, interlaced=False, data=None, **lzw):
    if min_size is None:
        min_size = max(2, max(indices, default=0).bit_length())
    flags = 0x40 if interlaced else 0
    out = bytearray(b"\x2C" + struct.pack("<HHHH", x, y, width, height))
    if palette:
        bits = table_bits(palette)
        flags |= 0x80 | (bits - 1)
    out.append(flags)
    if palette:
        out += color_table(palette, bits)
    if interlaced:
        rows = [indices[r * width:(r + 1) * width] for r in range(height)]
        order = list(range(0, height, 8)) + list(range(4, height, 8)) + list(range(2, height, 4)) + \
            list(range(1, height, 2))
        indices = [i for r in order for i in rows[r]]
    out.append(min_size)
    if data is None:
        data = pack_codes(lzw_codes(indices, min_size, **lzw), min_size)
    out += sub_blocks(data)
    return bytes(out)


TRAILER = b"\x3B"

PALETTE4 = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
PALETTE16 = [(i * 17, 255 - i * 17, (i * 53) % 256) for i in range(16)]
PALETTE256 = [(i, (i * 7) % 256, 255 - i) for i in range(256)]


def pattern(width, height, colors, seed=0):
    return [(x * 3 + y * 5 + seed + (x * y) // 3) % colors for y in range(height) for x in range(width)]


def noise(width, height, colors, seed):
    rng = random.Random(seed)
    return [rng.randrange(colors) for _ in range(width * height)]


# --- The cases ---------------------------------------------------------------------------------

def written_cases():
    """(name, bytes, status) of every file written here."""
    cases = []

    def add(name, data, status="ok"):
        cases.append((name, data, status))

    add("87a-basic.gif", header(8, 8, PALETTE4, b"87a") + image(0, 0, 8, 8, pattern(8, 8, 4)) + TRAILER)
    add("89a-256-colors.gif", header(16, 16, PALETTE256) + image(0, 0, 16, 16, pattern(16, 16, 256)) + TRAILER)
    add("local-palette.gif",
        header(8, 8, PALETTE4) + control(20) + image(0, 0, 8, 8, pattern(8, 8, 4)) +
        control(20) + image(2, 2, 4, 4, pattern(4, 4, 16, 3), palette=PALETTE16) + TRAILER)
    add("local-palette-only.gif",
        header(8, 8) + image(0, 0, 8, 8, pattern(8, 8, 16), palette=PALETTE16) + TRAILER)
    add("no-palette.gif", header(6, 5) + control(transparent=1) + image(0, 0, 6, 5, pattern(6, 5, 4)) + TRAILER)
    add("index-past-table.gif", header(8, 4, PALETTE4[:2]) + image(0, 0, 8, 4, pattern(8, 4, 4)) + TRAILER)
    add("transparency.gif",
        header(10, 10, PALETTE4) + control(10, 0, transparent=3) + image(0, 0, 10, 10, pattern(10, 10, 4)) +
        control(10, 0, transparent=0) + image(3, 3, 6, 6, pattern(6, 6, 4, 1)) + TRAILER)
    add("interlaced.gif", header(7, 13, PALETTE16) + image(0, 0, 7, 13, pattern(7, 13, 16), interlaced=True) +
        TRAILER)
    add("interlaced-frames.gif",
        header(9, 9, PALETTE16) + loop_extension(0) + control(5) + image(0, 0, 9, 9, pattern(9, 9, 16),
                                                                          interlaced=True) +
        control(5, transparent=2) + image(1, 2, 6, 5, pattern(6, 5, 16, 7), interlaced=True) + TRAILER)
    for disposal in (0, 1, 2, 3, 5):
        add(f"disposal-{disposal}.gif",
            header(12, 12, PALETTE16) + loop_extension(0) + control(10, 1) +
            image(0, 0, 12, 12, pattern(12, 12, 16)) +
            control(10, disposal, transparent=0) + image(2, 3, 6, 5, pattern(6, 5, 16, 5)) +
            control(10, 1, transparent=0) + image(5, 1, 5, 5, pattern(5, 5, 16, 9)) +
            control(10, 1) + image(0, 0, 3, 3, pattern(3, 3, 16, 2)) + TRAILER)
    add("disposal-background-first.gif",
        header(8, 8, PALETTE4) + control(10, 2) + image(2, 2, 4, 4, pattern(4, 4, 4)) +
        control(10, 0) + image(0, 0, 2, 2, [1, 2, 3, 0]) + TRAILER)
    add("past-screen.gif",
        header(10, 10, PALETTE4) + control(10, 1) + image(0, 0, 10, 10, pattern(10, 10, 4)) +
        control(10, 1) + image(6, 7, 8, 8, pattern(8, 8, 4, 2)) + TRAILER)
    add("loop-absent.gif", header(4, 4, PALETTE4) + control(10) + image(0, 0, 4, 4, pattern(4, 4, 4)) +
        control(10) + image(0, 0, 4, 4, pattern(4, 4, 4, 1)) + TRAILER)
    add("loop-0.gif", header(4, 4, PALETTE4) + loop_extension(0) + control(10) +
        image(0, 0, 4, 4, pattern(4, 4, 4)) + control(10) + image(0, 0, 4, 4, pattern(4, 4, 4, 1)) + TRAILER)
    add("loop-3.gif", header(4, 4, PALETTE4) + loop_extension(3) + control(10) +
        image(0, 0, 4, 4, pattern(4, 4, 4)) + control(10) + image(0, 0, 4, 4, pattern(4, 4, 4, 1)) + TRAILER)
    add("loop-animexts.gif", header(4, 4, PALETTE4) + loop_extension(7, b"ANIMEXTS1.0") + control(10) +
        image(0, 0, 4, 4, pattern(4, 4, 4)) + control(10) + image(0, 0, 4, 4, pattern(4, 4, 4, 1)) + TRAILER)
    add("delays.gif", header(4, 4, PALETTE4) + loop_extension(0) + b"".join(
        control(delay) + image(0, 0, 4, 4, pattern(4, 4, 4, delay)) for delay in (0, 1, 2, 10)) + TRAILER)
    for size in range(1, 9):
        colors = 1 << size
        palette = [((i * 37) % 256, (i * 91) % 256, (i * 13) % 256) for i in range(colors)]
        add(f"codesize-{size}.gif",
            header(24, 20, palette) + image(0, 0, 24, 20, noise(24, 20, colors, size), min_size=size) + TRAILER)
    add("clear-midstream.gif", header(32, 32, PALETTE16) +
        image(0, 0, 32, 32, noise(32, 32, 16, 11), clear_every=37) + TRAILER)
    add("full-table-no-clear.gif", header(96, 96, PALETTE256) +
        image(0, 0, 96, 96, noise(96, 96, 256, 12), clear_when_full=False) + TRAILER)
    add("full-table-clear.gif", header(96, 96, PALETTE256) +
        image(0, 0, 96, 96, noise(96, 96, 256, 13)) + TRAILER)
    add("kwkwk.gif", header(40, 3, PALETTE4) + image(0, 0, 40, 3, [1] * 60 + [2, 1] * 20 + [3] * 20) + TRAILER)
    add("data-after-eoi.gif", header(8, 8, PALETTE4) + image(
        0, 0, 8, 8, [], min_size=2,
        data=pack_codes(lzw_codes(pattern(8, 8, 4), 2), 2) + b"\xFF\x13\x37garbage") + TRAILER)
    add("unknown-extensions.gif",
        header(6, 6, PALETTE4) + b"\x21\xFE" + sub_blocks(b"a comment") +
        b"\x21\x01" + sub_blocks(b"\x00\x00\x00\x00\x06\x00\x06\x00\x01\x01\x00\x01" + b"text") +
        b"\x21\xFF" + sub_blocks(b"XMP DataXMP") + b"\x21\x99" + sub_blocks(b"unknown label") +
        control(10) + image(0, 0, 6, 6, pattern(6, 6, 4)) + TRAILER)
    add("garbage-after-trailer.gif", header(6, 6, PALETTE4) + image(0, 0, 6, 6, pattern(6, 6, 4)) + TRAILER +
        b"\x2C\x00garbage\xFF" * 4)
    add("zero-size-frame.gif", header(6, 6, PALETTE4) + control(10) + image(0, 0, 6, 6, pattern(6, 6, 4)) +
        control(10) + image(2, 2, 0, 0, [], min_size=2, data=pack_codes([4, 5], 2)) +
        control(10, transparent=0) + image(1, 1, 3, 3, pattern(3, 3, 4, 1)) + TRAILER)
    add("many-frames.gif", header(3, 3, PALETTE16) + loop_extension(0) + b"".join(
        control(2, 1) + image(i % 3, (i // 3) % 3, 1, 1, [i % 16]) for i in range(300)) + TRAILER)
    add("huge-screen-tiny-frames.gif", header(65535, 65535, PALETTE4) + image(0, 0, 1, 1, [1]) +
        image(9, 9, 2, 1, [2, 3]) + TRAILER, "error")
    add("huge-screen-pixels.gif", header(20000, 20000, PALETTE4) + image(0, 0, 1, 1, [1]) + TRAILER, "error")
    # Damage: ImageMagick refuses these files, so their references are made here (see DAMAGED).
    frame0 = pattern(10, 10, 16)
    frame1 = noise(10, 10, 16, 3)
    add("truncated-in-frame.gif",
        header(10, 10, PALETTE16) + control(10) + image(0, 0, 10, 10, frame0) + control(10) +
        image(0, 0, 10, 10, [], min_size=4, data=pack_codes(lzw_codes(frame1[:37], 4)[:-1], 4))[:-1], "damaged")
    add("code-beyond-table.gif", header(8, 8, PALETTE4) + image(
        0, 0, 8, 8, [], min_size=2, data=pack_codes([4, 1, 2, 3, 1, 14, 1, 5], 2)) + TRAILER, "damaged")
    add("eoi-early.gif", header(8, 8, PALETTE4) + image(
        0, 0, 8, 8, [], min_size=2, data=pack_codes(lzw_codes(pattern(8, 3, 4), 2), 2)) + TRAILER, "damaged")
    return cases


def tool_cases():
    """(name, bytes, status) of files Pillow and ImageMagick make."""
    cases = []
    frames = []
    for i in range(6):
        frame = Image.new("RGB", (30, 16), (20, 40, 80))
        for x in range(4 + i * 3, 10 + i * 3):
            for y in range(4, 12):
                frame.putpixel((x, y), (250, 200 - i * 30, 10 + i * 40))
        frames.append(frame)
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=[30, 40, 50, 60, 70, 80],
                   loop=2, optimize=True, disposal=[1, 2, 1, 2, 1, 1])
    cases.append(("pillow-optimized.gif", out.getvalue(), "ok"))
    rgba = Image.new("RGBA", (20, 20), (0, 0, 0, 0))
    for x in range(20):
        for y in range(20):
            if (x - 10) ** 2 + (y - 10) ** 2 < 64:
                rgba.putpixel((x, y), (x * 12, y * 12, 128, 255))
    out = io.BytesIO()
    rgba.save(out, "GIF", transparency=0)
    cases.append(("pillow-transparent.gif", out.getvalue(), "ok"))
    magick = subprocess.run(
        ["convert", "-size", "33x21", "gradient:red-blue", "-colors", "64", "-interlace", "GIF", "gif:-"],
        check=True, capture_output=True).stdout
    cases.append(("magick-interlaced.gif", magick, "ok"))
    magick = subprocess.run(
        ["convert", "-seed", "4", "-size", "17x11", "plasma:fractal", "-colors", "32", "gif87:-"],
        check=True, capture_output=True).stdout
    cases.append(("magick-87a.gif", magick, "ok"))
    return cases


# --- References --------------------------------------------------------------------------------

def magick_frames(path):
    # Browsers start on a transparent canvas and dispose to transparent, where ImageMagick uses
    # the logical screen's background colour: the background is made transparent for both.
    browser = ["-alpha", "set", "-set", "background", "none", "-coalesce"]
    geometry = subprocess.run(["convert", path] + browser + ["-format", "%w %h %T\n", "info:"],
                              check=True, capture_output=True, text=True).stdout.split("\n")
    geometry = [line.split() for line in geometry if line]
    raw = subprocess.run(["convert", path] + browser + ["rgba:-"], check=True, capture_output=True).stdout
    width, height = int(geometry[0][0]), int(geometry[0][1])
    size = width * height * 4
    assert all(int(w) == width and int(h) == height for w, h, _ in geometry), "coalesced frames differ in size"
    assert len(raw) == size * len(geometry), (path, len(raw), size, len(geometry))
    frames = [bytearray(raw[i * size:(i + 1) * size]) for i in range(len(geometry))]
    return width, height, frames, [int(t) for _, _, t in geometry]


def normalise(frame):
    for i in range(0, len(frame), 4):
        if frame[i + 3] == 0:
            frame[i:i + 4] = b"\0\0\0\0"
    return bytes(frame)


def decoded_count(data, min_size):
    """How many pixels LZW data (its sub-blocks joined) yields before it ends: the count a
    decoder draws of a file cut short, where zero padding bits may still make a code."""
    clear, size, next_free, previous, lengths = 1 << min_size, min_size + 1, (1 << min_size) + 2, None, {}
    bits = int.from_bytes(data, "little")
    position, count = 0, 0
    while position + size <= len(data) * 8:
        code = (bits >> position) & ((1 << size) - 1)
        position += size
        if code == clear:
            size, next_free, previous, lengths = min_size + 1, clear + 2, None, {}
            continue
        if code == clear + 1:
            break
        if previous is not None and next_free < 4096:
            lengths[next_free] = lengths.get(previous, 1) + 1
            next_free += 1
        count += lengths.get(code, 1)
        previous = code
        if next_free >= (1 << size) and size < 12:
            size += 1
    return count


def drawn(palette, indices, decoded, under=None, transparent=None):
    """A whole-canvas frame: the first `decoded` indices through `palette` over `under` (else
    transparent), the pixels the data never reached left as they were, as browsers draw."""
    frame = bytearray(under) if under else bytearray(len(indices) * 4)
    for i in range(decoded):
        if indices[i] == transparent:
            continue
        frame[i * 4:i * 4 + 4] = bytes(palette[indices[i]]) + b"\xFF"
    return frame


def overlay(under, canvas_width, palette, x, y, width, height, indices, transparent=None):
    """`under` with a width × height frame drawn at x, y (its transparent index left out)."""
    frame = bytearray(under)
    for row in range(height):
        for column in range(width):
            index = indices[row * width + column]
            if index != transparent:
                at = ((y + row) * canvas_width + x + column) * 4
                frame[at:at + 4] = bytes(palette[index]) + b"\xFF"
    return frame


def browser_damaged():
    """(name -> (width, height, loop, durations, frames)) for the files ImageMagick refuses."""
    frame0 = drawn(PALETTE16, pattern(10, 10, 16), 100)
    return {
        "truncated-in-frame.gif": (10, 10, 1, [100, 100], [frame0, drawn(
            PALETTE16, noise(10, 10, 16, 3)[:37] + [0] * 63,  # zero padding bits decode as index 0
            decoded_count(pack_codes(lzw_codes(noise(10, 10, 16, 3)[:37], 4)[:-1], 4), 4), frame0)]),
        "code-beyond-table.gif": (8, 8, 1, [100], [drawn(PALETTE4, [1, 2, 3, 1] + [0] * 60, 4)]),
        "eoi-early.gif": (8, 8, 1, [100], [drawn(PALETTE4, pattern(8, 8, 4), 24)]),
        # Not damaged, but refused by ImageMagick: a 0 × 0 frame draws nothing and lasts its delay.
        "zero-size-frame.gif": (6, 6, 1, [100, 100, 100], [
            drawn(PALETTE4, pattern(6, 6, 4), 36), drawn(PALETTE4, pattern(6, 6, 4), 36),
            overlay(drawn(PALETTE4, pattern(6, 6, 4), 36), 6, PALETTE4, 1, 1, 3, 3, pattern(3, 3, 4, 1), 0)]),
        # Not damaged, but refused by ImageMagick: without any colour table every index is
        # opaque black, and the transparent index (1) transparent.
        "no-palette.gif": (6, 5, 1, [100], [drawn([(0, 0, 0), (0, 0, 0)] * 2, pattern(6, 5, 4), 30, None, 1)]),
        # Not damaged, but refused by ImageMagick: indices 2 and 3 of a 2-colour table are
        # opaque black, as the padded table Firefox builds.
        "index-past-table.gif": (8, 4, 1, [100], [drawn(PALETTE4[:2] + [(0, 0, 0)] * 2, pattern(8, 4, 4), 32)]),
    }


def giflib_frames(path):
    """ImageMagick and Pillow refuse a minimum code size of 1, which giflib (and the decoder)
    read: the reference of a still image is giflib's gif2rgb (apt-get install giflib-tools)."""
    raw = subprocess.run(["gif2rgb", "-1", "-o", "/dev/stdout", path], check=True, capture_output=True).stdout
    with open(path, "rb") as f:
        width, height = struct.unpack("<HH", f.read(10)[6:10])
    frame = bytearray()
    for i in range(0, len(raw), 3):
        frame += raw[i:i + 3] + b"\xFF"
    return width, height, [frame], [0]


GIFLIB_REFERENCES = {"codesize-1.gif"}

# Files whose ImageMagick frames are edited to what browsers show: none so far (see README.md).
ADJUSTMENTS = {}


def parse_loop(data):
    for name in (b"NETSCAPE2.0", b"ANIMEXTS1.0"):
        at = data.find(b"\x21\xFF\x0B" + name)
        if at >= 0:
            return struct.unpack("<H", data[at + 16:at + 18])[0]
    return 1


def main():
    os.makedirs(SUITE, exist_ok=True)
    cases = written_cases() + tool_cases()
    for name, data, _ in cases:
        with open(os.path.join(SUITE, name), "wb") as f:
            f.write(data)
    real = sorted(name for name in os.listdir(SUITE) if name.startswith("real-") and name.endswith(".gif"))
    cases += [(name, open(os.path.join(SUITE, name), "rb").read(), "ok") for name in real]
    manifest = ["file\tstatus\twidth\theight\tframes\tloop\tdurations_ms"]
    hashes = ["file\tframe\tsha256"]
    for name, data, status in sorted(cases):
        path = os.path.join(SUITE, name)
        if status == "error":
            manifest.append(f"{name}\terror\t-\t-\t-\t-\t-")
            continue
        if name in browser_damaged():
            width, height, loop, milliseconds, frames = browser_damaged()[name]
        else:
            reference = giflib_frames if name in GIFLIB_REFERENCES else magick_frames
            width, height, frames, delays = reference(path)
            if name in ADJUSTMENTS:
                frames = ADJUSTMENTS[name](frames)
            loop = parse_loop(data)
            milliseconds = [100 if d <= 1 else d * 10 for d in delays]
        durations = ",".join(map(str, milliseconds))
        manifest.append(f"{name}\t{status}\t{width}\t{height}\t{len(frames)}\t{loop}\t{durations}")
        for index, frame in enumerate(frames):
            hashes.append(f"{name}\t{index}\t{hashlib.sha256(normalise(frame)).hexdigest()}")
    with open(os.path.join(SUITE, "MANIFEST.tsv"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    with open(os.path.join(SUITE, "FRAMES.tsv"), "w") as f:
        f.write("\n".join(hashes) + "\n")
    print(f"{len(cases)} files", file=sys.stderr)


if __name__ == "__main__":
    main()
