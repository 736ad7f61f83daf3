#!/usr/bin/env python3
"""Makes the APNG suite: Tests/WeakImageStoreTests/Fixtures/apngsuite/.

Small APNG files (Pillow's writer for the ordinary ones, hand-written chunks for every colour type,
bit depth, interlacing, operation and malformation), then reference frames from apngdis
(`apt-get install -y apngdis`; Pillow from PyPI), stored as SHA-256 digests of each composited
frame, RGBA8 with every alpha-0 pixel made 0,0,0,0, in MANIFEST.tsv:

    file  status  width  height  frames  loops  durations_ms  detail  sha256 (one per frame, comma-separated)

status is ok, damaged (a lenient cursor shows the frames and reports damage) or error (the
animation is refused, or a frame's decode fails; detail names the PNGError case). Where browsers differ from apngdis the
reference follows browsers; each such case is marked `browser:` in its detail and described in
the suite's README. The output is deterministic: running the script again rewrites the same bytes.
"""
import glob
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

from PIL import Image

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "Tests", "WeakImageStoreTests", "Fixtures", "apngsuite")

GRAY, RGB, PALETTE, GRAY_ALPHA, RGBA = 0, 2, 3, 4, 6
CHANNELS = {GRAY: 1, RGB: 3, PALETTE: 1, GRAY_ALPHA: 2, RGBA: 4}


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def serialize(chunks):
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunk(kind, data) for kind, data in chunks)


class Rng:
    """A small deterministic generator (the suite must not change between runs)."""

    def __init__(self, seed):
        self.state = seed * 2654435761 % 2**32 or 1

    def next(self, bound):
        self.state ^= (self.state << 13) & 0xFFFFFFFF
        self.state ^= self.state >> 17
        self.state ^= (self.state << 5) & 0xFFFFFFFF
        return self.state % bound


def samples(width, height, color_type, depth, seed, palette_size=0):
    """Rows of pixels, each a tuple of samples; alpha drawn from opaque, clear and translucent."""
    rng = Rng(seed)
    top = (1 << depth) - 1
    alphas = [0, top, top, top // 2, top // 5, top - top // 7]
    rows = []
    for _ in range(height):
        row = []
        for _ in range(width):
            if color_type == PALETTE:
                row.append((rng.next(palette_size),))
                continue
            colour = tuple(rng.next(top + 1) for _ in range(CHANNELS[color_type] - (color_type in (GRAY_ALPHA, RGBA))))
            if color_type in (GRAY_ALPHA, RGBA):
                colour += (alphas[rng.next(len(alphas))],)
            row.append(colour)
        rows.append(row)
    return rows


def pack_row(row, depth):
    if depth >= 8:
        fmt = ">B" if depth == 8 else ">H"
        return b"".join(struct.pack(fmt, s) for pixel in row for s in pixel)
    out, acc, bits = bytearray(), 0, 0
    for pixel in row:
        acc, bits = acc << depth | pixel[0], bits + depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filter_rows(rows, bpp, first_filter):
    """Filters packed rows, cycling through the five filter types."""
    out, prior = bytearray(), bytes(len(rows[0])) if rows else b""
    for index, row in enumerate(rows):
        kind = (first_filter + index) % 5
        out.append(kind)
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prior[i]
            c = prior[i - bpp] if i >= bpp else 0
            predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            out.append((x - predictor) & 0xFF)
        prior = row
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def filtered_data(pixels, color_type, depth, interlaced, seed):
    """The filtered bytes of a frame, and the byte offset after each row (for cuts)."""
    bpp = max(1, depth * CHANNELS[color_type] // 8)
    if not interlaced:
        rows = [pack_row(row, depth) for row in pixels]
        data = filter_rows(rows, bpp, seed)
        return data, [(i + 1) * (len(rows[0]) + 1) for i in range(len(rows))]
    data = b""
    height, width = len(pixels), len(pixels[0])
    for x0, y0, dx, dy in ADAM7:
        sub = [[pixels[y][x] for x in range(x0, width, dx)] for y in range(y0, height, dy)]
        sub = [row for row in sub if row]
        if sub:
            data += filter_rows([pack_row(row, depth) for row in sub], bpp, seed)
    return data, []


def compress(data, pieces, row_ends):
    """zlib data in `pieces` chunks; with row ends, each chunk but the last ends with a sync flush
    at a row boundary, so a file cut after a chunk holds whole rows."""
    if pieces == 1:
        return [zlib.compress(data, 9)]
    compressor = zlib.compressobj(9)
    cuts = [row_ends[len(row_ends) * k // pieces - 1] for k in range(1, pieces)] if row_ends else [
        len(data) * k // pieces for k in range(1, pieces)]
    out, start = [], 0
    for cut in cuts:
        out.append(compressor.compress(data[start:cut]) + compressor.flush(zlib.Z_SYNC_FLUSH))
        start = cut
    out.append(compressor.compress(data[start:]) + compressor.flush())
    return out


class Frame:
    def __init__(self, x, y, width, height, dispose=0, blend=0, delay=(1, 10), pieces=1):
        self.x, self.y, self.width, self.height = x, y, width, height
        self.dispose, self.blend, self.delay, self.pieces = dispose, blend, delay, pieces


def build(width, height, color_type, depth, frames, interlaced=False, plays=0, default_in_animation=True,
          trns=None, palette_size=16, seed=1, declared=None):
    """The chunks of an APNG: (type, data) pairs, sequence numbers in order."""
    chunks = [(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, int(interlaced)))]
    chunks.append((b"acTL", struct.pack(">II", declared if declared is not None else len(frames), plays)))
    if color_type == PALETTE:
        rng = Rng(seed + 99)
        chunks.append((b"PLTE", bytes(rng.next(256) for _ in range(3 * palette_size))))
        if trns is None:
            trns = bytes([0, 128, 255, 40, 200] * palette_size)[: palette_size - 2]
    if trns is not None:
        chunks.append((b"tRNS", trns))
    sequence = 0

    def control(frame):
        nonlocal sequence
        data = struct.pack(">IIIIIHHBB", sequence, frame.width, frame.height, frame.x, frame.y, frame.delay[0],
                           frame.delay[1], frame.dispose, frame.blend)
        sequence += 1
        return (b"fcTL", data)

    def image(frame, index):
        pixels = samples(frame.width, frame.height, color_type, depth, seed * 31 + index, palette_size)
        data, row_ends = filtered_data(pixels, color_type, depth, interlaced, index)
        return compress(data, frame.pieces, row_ends)

    if default_in_animation:
        chunks.append(control(frames[0]))
        chunks += [(b"IDAT", piece) for piece in image(frames[0], 0)]
        rest = list(enumerate(frames))[1:]
    else:
        # A default image that is not a frame: the whole canvas, opaque where it can be.
        chunks += [(b"IDAT", piece) for piece in image(Frame(0, 0, width, height), 1000)]
        rest = list(enumerate(frames))
    for index, frame in rest:
        chunks.append(control(frame))
        for piece in image(frame, index):
            chunks.append((b"fdAT", struct.pack(">I", sequence) + piece))
            sequence += 1
    chunks.append((b"IEND", b""))
    return chunks


def standard_frames(width, height, pieces=1):
    """Four frames over a canvas, each operation used once at least."""
    return [
        Frame(0, 0, width, height, dispose=2, blend=0, delay=(1, 10)),
        Frame(2, 3, width - 4, height - 5, dispose=1, blend=1, delay=(20, 1000)),
        Frame(1, 1, width // 2, height // 2 + 1, dispose=2, blend=1, delay=(3, 0), pieces=pieces),
        Frame(width // 3, 2, width - width // 3, height - 2, dispose=0, blend=1, delay=(1, 200), pieces=pieces),
    ]


def cut_frames(pieces=1):
    """The standard frames, the one before the last kept (disposal none), for the files cut short."""
    frames = standard_frames(13, 11, pieces=pieces)
    frames[2].dispose = 0
    return frames


def suite():
    """(name, bytes, status, detail) for every file; references come later."""
    files = []

    def add(name, chunks_or_bytes, status="ok", detail=""):
        data = chunks_or_bytes if isinstance(chunks_or_bytes, bytes) else serialize(chunks_or_bytes)
        files.append((name, data, status, detail))

    width, height = 13, 11
    for color_type, depth, trns in [
        (GRAY, 1, None), (GRAY, 2, None), (GRAY, 4, None), (GRAY, 8, None), (GRAY, 16, None),
        (GRAY, 8, struct.pack(">H", 77)), (GRAY, 16, struct.pack(">H", 4000)),
        (RGB, 8, None), (RGB, 16, None), (RGB, 8, struct.pack(">HHH", 10, 20, 30)),
        (PALETTE, 1, None), (PALETTE, 2, None), (PALETTE, 4, None), (PALETTE, 8, None),
        (GRAY_ALPHA, 8, None), (GRAY_ALPHA, 16, None), (RGBA, 8, None), (RGBA, 16, None),
    ]:
        palette_size = min(1 << depth, 16) if color_type == PALETTE else 16
        name = {GRAY: "gray", RGB: "rgb", PALETTE: "palette", GRAY_ALPHA: "grayalpha", RGBA: "rgba"}[color_type]
        name += f"{depth}" + ("-trns" if trns else "")
        add(f"{name}.png", build(width, height, color_type, depth, standard_frames(width, height), trns=trns,
                                 palette_size=palette_size, seed=depth + 7 * color_type))
    for color_type, depth in [(RGBA, 8), (PALETTE, 4), (GRAY, 16), (RGB, 8), (GRAY_ALPHA, 8), (GRAY, 1)]:
        name = {GRAY: "gray", RGB: "rgb", PALETTE: "palette", GRAY_ALPHA: "grayalpha", RGBA: "rgba"}[color_type]
        add(f"interlaced-{name}{depth}.png",
            build(width, height, color_type, depth, standard_frames(width, height), interlaced=True,
                  palette_size=16 if depth >= 4 else 1 << depth, seed=3))
    # Every dispose_op × blend_op after every other, on translucent pixels.
    operations = [(d, b) for d in range(3) for b in range(2)]
    frames = [Frame(0, 0, 9, 7, dispose=2, blend=1)]  # previous on the first frame: background
    for index, (dispose, blend) in enumerate(operations * 2):
        frames.append(Frame(index % 4, index % 3, 5, 4, dispose=dispose, blend=blend, delay=(index + 1, 100)))
    add("operations-rgba8.png", build(9, 7, RGBA, 8, frames, seed=5))
    add("operations-grayalpha8.png", build(9, 7, GRAY_ALPHA, 8, frames, seed=6))
    add("operations-palette8-trns.png", build(9, 7, PALETTE, 8, frames, palette_size=40, seed=7))
    # The default image outside the animation; more plays; timings.
    add("default-not-frame.png", build(width, height, RGBA, 8, standard_frames(width, height),
                                       default_in_animation=False, plays=3, seed=8))
    add("delays.png", build(6, 5, RGB, 8, [Frame(0, 0, 6, 5, delay=delay) for delay in
                                            [(0, 0), (1, 100), (1, 0), (2, 100), (11, 1000), (7, 0), (65535, 65535),
                                             (1, 1)]], plays=1, seed=9))
    add("split-fdat.png", build(width, height, RGBA, 8, standard_frames(width, height, pieces=3), seed=10))
    add("one-frame.png", build(5, 4, RGBA, 8, [Frame(0, 0, 5, 4)], seed=11))

    # Pillow's writer: the default image in the animation or not, disposals, blends.
    with tempfile.TemporaryDirectory() as scratch:
        def pillow(name, mode, **options):
            images = []
            rng = Rng(len(name))
            for index in range(4):
                image = Image.new("RGBA", (12, 10), (0, 0, 0, 0))
                for y in range(10):
                    for x in range(12):
                        if (x + y + index) % 3:
                            image.putpixel((x, y), (rng.next(256), rng.next(256), rng.next(256),
                                                    [255, 0, 128, 255][rng.next(4)]))
                images.append(image.convert(mode) if mode != "RGBA" else image)
            path = os.path.join(scratch, name)
            images[0].save(path, save_all=True, append_images=images[1:], **options)
            add(name, open(path, "rb").read())

        pillow("pillow-rgba.png", "RGBA", duration=[100, 50, 70, 30], loop=0, disposal=[0, 1, 2, 0],
               blend=[0, 1, 1, 0])
        pillow("pillow-rgba-default.png", "RGBA", duration=80, loop=2, disposal=1, blend=1, default_image=True)
        pillow("pillow-gray.png", "L", duration=60, disposal=[0, 2, 0, 0], blend=0)
        pillow("pillow-grayalpha.png", "LA", duration=60, disposal=[2, 0, 1, 2], blend=1)
        pillow("pillow-palette.png", "P", duration=40, disposal=0, blend=1)

        # apngasm (Debian's apngasm, if installed) as a real encoder: it crops each frame to what
        # changed and picks dispose/blend ops and the colour type itself.
        def apngasm(name, mode, count, *options):
            rng = Rng(count)
            paths = []
            for index in range(count):
                image = Image.new("RGBA", (24, 18), (30, 60, 90, 255) if mode == "opaque" else (0, 0, 0, 0))
                for y in range(4 + index, 12 + index):
                    for x in range(3 + 2 * index, 10 + 2 * index):
                        image.putpixel((x, y), (200, rng.next(256), 40, 255 if mode == "opaque" else 160))
                path = os.path.join(scratch, f"{name}-{index:03}.png")
                image.save(path)
                paths.append(path)
            output = os.path.join(scratch, name)
            subprocess.run(["apngasm", output, *paths, *options], check=True, capture_output=True)
            add(name, open(output, "rb").read(), detail="apngasm")

        if shutil.which("apngasm"):
            apngasm("apngasm-opaque.png", "opaque", 6, "3", "50", "-z0")
            apngasm("apngasm-translucent.png", "translucent", 5, "1", "20", "-l2", "-z0")
            apngasm("apngasm-skip-first.png", "opaque", 4, "-f", "-z0")
        else:
            print("apngasm not installed: its files are left out", file=sys.stderr)

    # Malformations.
    def edited(frames_count=4, **options):
        return build(width, height, RGBA, 8, standard_frames(width, height)[:frames_count], **options)

    def renumber(chunks, mapping):
        out = []
        for kind, data in chunks:
            if kind in (b"fcTL", b"fdAT"):
                number = struct.unpack(">I", data[:4])[0]
                data = struct.pack(">I", mapping.get(number, number)) + data[4:]
            out.append((kind, data))
        return out

    add("sequence-swapped.png", renumber(edited(), {3: 4, 4: 3}), "error", "animationSequence")
    add("sequence-gap.png", renumber(edited(), {n: n + 1 for n in range(4, 10)}), "error", "animationSequence")
    add("sequence-duplicate.png", renumber(edited(), {4: 3}), "error", "animationSequence")
    add("sequence-not-zero.png", renumber(edited(), {n: n + 1 for n in range(10)}), "error", "animationSequence")
    chunks = edited()
    index = [kind for kind, _ in chunks].index(b"fdAT")
    add("missing-fdat.png", renumber(chunks[:index] + chunks[index + 1:], {n: n - 1 for n in range(3, 10)}),
        "error", "missingFrameData")

    def with_frame(frame, **options):
        frames = standard_frames(width, height)
        frames[2] = frame
        return build(width, height, RGBA, 8, frames, **options)

    add("frame-outside-canvas.png", with_frame(Frame(8, 3, 6, 4)), "error", "invalidFrameRegion")
    add("fctl-zero-size.png", with_frame(Frame(2, 2, 0, 4)), "error", "invalidFrameRegion")
    add("first-frame-offset.png", build(width, height, RGBA, 8, [Frame(1, 0, width - 1, height)] +
                                        standard_frames(width, height)[1:]), "error", "invalidFrameRegion")
    add("first-frame-small.png", build(width, height, RGBA, 8, [Frame(0, 0, width, height - 1)] +
                                       standard_frames(width, height)[1:], default_in_animation=False),
        "error", "invalidFrameRegion")
    add("dispose-op-3.png", with_frame(Frame(1, 1, 3, 3, dispose=3)), "error", "invalidFrameOperation")
    chunks = edited()
    fdat = [kind for kind, _ in chunks].index(b"fdAT")
    idat = [kind for kind, _ in chunks].index(b"IDAT")
    moved = chunks[:idat] + [chunks[fdat]] + chunks[idat:fdat] + chunks[fdat + 1:]
    add("fdat-before-idat.png", moved, "error", "misplacedAnimationChunk")
    add("frames-declared-10000.png", edited(declared=10000), "error", "tooManyFrames")
    add("frames-declared-0.png", edited(declared=0), "error", "invalidFrameCount")
    # Browsers play the frames found; a lenient cursor does too and reports the last damaged.
    add("frames-declared-more.png", edited(declared=6), "damaged", "frameCountMismatch")
    add("frames-declared-fewer.png", edited(declared=3), "damaged", "frameCountMismatch")
    data = serialize(edited())
    bad = bytearray(data)
    position = data.index(b"fdAT") + 10
    bad[position] ^= 0x55
    add("fdat-bad-crc.png", bytes(bad), "error", "checksumMismatch")
    # Cut inside the last frame, between the chunks of its data (each ends with a sync flush on a
    # row boundary), so the rows before the cut decode: browsers draw them.
    data = serialize(build(width, height, RGBA, 8, cut_frames(pieces=2), seed=12))
    last_fdat = data.rindex(b"fdAT")
    add("truncated-in-frame.png", data[:last_fdat + 20], "damaged", "truncated")
    add("truncated-in-frame-interlaced.png",
        serialize(build(width, height, RGBA, 8, cut_frames(), interlaced=True, seed=13))[:-60],
        "damaged", "truncated")
    return files


def apngdis_frames(data):
    """apngdis's composited frames, RGBA8, alpha-0 pixels made 0,0,0,0."""
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "in.png")
        open(path, "wb").write(data)
        subprocess.run(["apngdis", path, "frame"], cwd=scratch, check=True, capture_output=True)
        names = sorted(glob.glob(os.path.join(scratch, "frame*.png")),
                       key=lambda name: int(os.path.basename(name)[5:-4]))
        return [normalise(Image.open(name).convert("RGBA").tobytes()) for name in names]


def normalise(rgba):
    out = bytearray(rgba)
    for i in range(0, len(out), 4):
        if out[i + 3] == 0:
            out[i:i + 4] = b"\0\0\0\0"
    return bytes(out)


def controls(data):
    """acTL's plays and each fcTL's (x, y, width, height, delay, dispose, blend), in file order."""
    position, plays, frames = 8, 0, []
    while position + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"acTL" and len(body) == 8:
            plays = struct.unpack(">II", body)[1]
        if kind == b"fcTL" and len(body) == 26:
            _, w, h, x, y, num, den, dispose, blend = struct.unpack(">IIIIIHHBB", body)
            frames.append((x, y, w, h, num, den or 100, dispose, blend))
        position += 12 + length
    return plays, frames


def duration_ms(num, den):
    # Browsers play a delay of 10 ms or less as 100 ms.
    return 100.0 if num * 100 <= den else num * 1000.0 / den


def reference(name, data, status, detail):
    width, height = struct.unpack(">II", data[16:24])
    plays, frames = controls(data)
    if status == "error":
        return [name, status, width, height, 0, plays, "", detail, ""]
    if detail == "truncated":
        # apngdis refuses a file cut short; the reference is the whole file's frames, the last
        # one drawn only as far as the rows before the cut (or not at all when interlaced).
        whole = suite_bytes[name.replace("truncated-in-frame", "whole")]
        pictures = apngdis_frames(whole)
        plays, frames = controls(whole)
        x, y, w, h = frames[-1][:4]
        rows = 0 if "interlaced" in name else h // 2
        before, after = bytearray(pictures[-2]), pictures[-1]
        # The frame before the last is disposed first (none, in these files).
        assert frames[-2][6] == 0
        for row in range(y, y + rows):
            start = (row * width + x) * 4
            before[start:start + w * 4] = after[start:start + w * 4]
        pictures = pictures[:-1] + [bytes(before)]
    elif detail == "frameCountMismatch":
        declared = struct.unpack(">I", data[data.index(b"acTL") + 4:][:4])[0]
        pictures = apngdis_frames(data)[:declared]
        frames = frames[:declared]
    else:
        pictures = apngdis_frames(data)
    if len(pictures) == len(frames) + 1 and data.index(b"IDAT") < data.index(b"fcTL"):
        # apngdis shows a default image that is not a frame as frame 1; browsers do not show it.
        pictures = pictures[1:]
        detail = detail or "browser:defaultImageNotShown"
    assert len(pictures) == len(frames), (name, len(pictures), len(frames))
    durations = ",".join(f"{duration_ms(f[4], f[5]):g}" for f in frames)
    digests = ",".join(hashlib.sha256(p).hexdigest() for p in pictures)
    return [name, status, width, height, len(pictures), plays, durations, detail, digests]


suite_bytes = {}


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in glob.glob(os.path.join(OUT, "*.png")):
        os.remove(old)
    files = suite()
    for name, data, _, _ in files:
        suite_bytes[name] = data
    # The uncut files the truncated ones come from, for their references only.
    width, height = 13, 11
    suite_bytes["whole.png"] = serialize(build(width, height, RGBA, 8, cut_frames(pieces=2), seed=12))
    suite_bytes["whole-interlaced.png"] = serialize(build(width, height, RGBA, 8, cut_frames(), interlaced=True,
                                                          seed=13))
    rows = [["file", "status", "width", "height", "frames", "loops", "durations_ms", "detail", "sha256"]]
    for name, data, status, detail in files:
        open(os.path.join(OUT, name), "wb").write(data)
        rows.append(reference(name, data, status, detail))
    with open(os.path.join(OUT, "MANIFEST.tsv"), "w") as manifest:
        for row in rows:
            manifest.write("\t".join(str(cell) for cell in row) + "\n")
    print(f"{len(files)} files in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
