#!/usr/bin/env python3
"""Makes Tests/WeakImageStoreTests/Fixtures/webpsuite: small WebP files and their references.

    apt-get install -y webp imagemagick; pip install Pillow
    Scripts/make-webpsuite.py

Sources are drawn here (seeded, so the suite is reproducible) or taken from ImageMagick's
built-in `rose:` and `logo:` images; cwebp, img2webp and gif2webp (libwebp 1.2.4, Debian's
`webp` package) encode them over the options that change the bitstream; a few files are written
bit by bit here (a small VP8L writer) to hold what an encoder never writes: over-subscribed
codes, a 12-bit colour cache, a repeated transform, a backward reference before the start.

References are `dwebp -pam FILE` with default options: the SHA-256 of its RGBA bytes exactly as
written (colour under alpha 0 kept, no normalisation). For a lossy file with alpha, the SHA-256
of the alpha channel alone is recorded too, so the ALPH decoder is checked before a lossy
decoder exists. Every `error` file is checked to be refused by dwebp as well.

Writes MANIFEST.tsv: file, status (ok | lossy | error), width, height, frames, rgba_sha256,
alpha_sha256 (lossy with alpha), what the file exercises.
"""

import hashlib
import os
import random
import struct
import subprocess
import tempfile

from PIL import Image

SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "WeakImageStoreTests",
                     "Fixtures", "webpsuite")
WORK = tempfile.mkdtemp(prefix="webpsuite-")
rows = []
frame_rows = []
ANIMDUMP = os.path.join(WORK, "animdump")


def anim_dump(path):
    """libwebp's WebPAnimDecoder frames: ((width, height, frames, loops), [(timestamp, rgba)])."""
    if not os.path.exists(ANIMDUMP):
        shim = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libwebp-shim", "animdump.c")
        run("gcc", "-O2", shim, "-o", ANIMDUMP, "-lwebpdemux", "-lwebp")
    result = subprocess.run([ANIMDUMP, path], capture_output=True, check=True)
    info = tuple(int(field) for field in result.stderr.split()[:4])
    frames, data = [], result.stdout
    while data:
        line, data = data.split(b"\n", 1)
        timestamp, width, height = (int(field) for field in line.split())
        frames.append((timestamp, data[:width * height * 4]))
        data = data[width * height * 4:]
    return info, frames


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def source(name, image):
    path = os.path.join(WORK, name + ".png")
    image.save(path)
    return path


def dwebp_pam(path):
    """dwebp's RGBA bytes, width and height, or None when it refuses the file."""
    out = os.path.join(WORK, "out.pam")
    result = subprocess.run(["dwebp", "-quiet", "-pam", path, "-o", out], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    if result.returncode != 0:
        return None
    data = open(out, "rb").read()
    header, pixels = data.split(b"ENDHDR\n", 1)
    fields = dict(line.split(b" ", 1) for line in header.split(b"\n")[1:] if b" " in line)
    assert fields[b"TUPLTYPE"] == b"RGB_ALPHA"
    return pixels, int(fields[b"WIDTH"]), int(fields[b"HEIGHT"])


def chunks(data):
    """The top-level chunks of a RIFF WEBP file: (fourcc, payload)."""
    offset, found = 12, []
    while offset + 8 <= len(data):
        fourcc, size = data[offset:offset + 4], struct.unpack("<I", data[offset + 4:offset + 8])[0]
        found.append((fourcc.decode("latin-1"), data[offset + 8:offset + 8 + size]))
        offset += 8 + size + (size & 1)
    return found


def add(name, data, note, status=None, frames=1):
    """Writes `name` and its manifest line; `status` None means ok or lossy, as dwebp decodes it."""
    path = os.path.join(SUITE, name)
    with open(path, "wb") as f:
        f.write(data)
    reference = dwebp_pam(path)
    if status == "error":
        assert reference is None, name + ": dwebp decodes a file the suite calls an error"
        rows.append((name, "error", 0, 0, 0, "-", "-", note))
        return
    if frames > 1:
        info, frame_list = anim_dump(path)
        assert len(frame_list) == frames, name
        rows.append((name, "animated", info[0], info[1], frames, f"loop={info[3]}", "-", note))
        previous = 0
        for index, (timestamp, pixels) in enumerate(frame_list):
            frame_rows.append((name, index, timestamp - previous, hashlib.sha256(pixels).hexdigest()))
            previous = timestamp
        return
    assert reference is not None, name + ": dwebp refuses it"
    pixels, width, height = reference
    kinds = [fourcc for fourcc, _ in chunks(data)]
    lossy = "VP8 " in kinds
    alpha = "-"
    if lossy and "ALPH" in kinds:
        alpha = hashlib.sha256(pixels[3::4]).hexdigest()
    rows.append((name, "lossy" if lossy else "ok", width, height, 1, hashlib.sha256(pixels).hexdigest(), alpha,
                 note))


def encode(name, png, options, note):
    out = os.path.join(WORK, name)
    run("cwebp", "-quiet", *options, png, "-o", out)
    add(name, open(out, "rb").read(), note)


def riff(*chunk_list):
    body = b"WEBP"
    for fourcc, payload in chunk_list:
        body += fourcc.encode("latin-1") + struct.pack("<I", len(payload)) + payload
        if len(payload) & 1:
            body += b"\0"
    return b"RIFF" + struct.pack("<I", len(body)) + body


# --- a VP8L bit writer, for streams no encoder writes ---------------------------------------

class Bits:
    def __init__(self):
        self.value, self.count = 0, 0

    def put(self, value, n):
        self.value |= value << self.count
        self.count += n
        return self

    def code(self, code, length):
        """A prefix code, its first bit the most significant."""
        for shift in reversed(range(length)):
            self.put((code >> shift) & 1, 1)
        return self

    def bytes(self):
        return self.value.to_bytes((self.count + 7) // 8, "little")


def vp8l_header(width, height, alpha=0):
    bits = Bits().put(0x2F, 8).put(width - 1, 14).put(height - 1, 14).put(alpha, 1).put(0, 3)
    return bits


def simple_code(bits, symbol):
    """A simple prefix code of one 8-bit symbol (0 bits per use)."""
    return bits.put(1, 1).put(0, 1).put(1, 1).put(symbol, 8)


def vp8l(bits):
    return riff(("VP8L", bits.bytes()))


def anmf(x, y, width, height, duration, dispose, blend, image_chunks):
    """An ANMF chunk: the frame's rectangle, duration, flags and its image's chunks."""
    header = ((x // 2).to_bytes(3, "little") + (y // 2).to_bytes(3, "little") + (width - 1).to_bytes(3, "little")
              + (height - 1).to_bytes(3, "little") + duration.to_bytes(3, "little")
              + bytes([(0 if blend else 2) | (1 if dispose else 0)]))
    body = header
    for fourcc, payload in image_chunks:
        body += fourcc.encode("latin-1") + struct.pack("<I", len(payload)) + payload + b"\0" * (len(payload) & 1)
    return ("ANMF", body)


def lossless_chunk(image, exact=True):
    """The VP8L chunk cwebp -lossless makes of `image`."""
    png = source("frame", image)
    out = os.path.join(WORK, "frame.webp")
    run("cwebp", "-quiet", "-lossless", *(["-exact"] if exact else []), png, "-o", out)
    return dict(chunks(open(out, "rb").read()))["VP8L"]


def animations(rng):
    """Animated files: img2webp and gif2webp (their own rectangles, blending and disposal), and
    ANIM/ANMF written here to choose offsets, blending, disposal and durations."""
    frames = []
    for index in range(5):
        image = Image.new("RGBA", (40, 30), (0, 0, 0, 0))
        for y in range(30):
            for x in range(40):
                inside = (x - 8 * index) ** 2 + (y - 15) ** 2 < 60
                if inside or (x + y + index) % 11 == 0:
                    image.putpixel((x, y), (40 * index, 255 - x * 5, y * 8, 255 if inside else 96 + index * 30))
        frames.append(source(f"anim{index}", image))
    out = os.path.join(WORK, "anim.webp")
    args = ["img2webp", "-loop", "3", "-lossless"]
    for index, path in enumerate(frames):
        args += ["-d", str(60 + 20 * index), path]
    run(*args, "-o", out)
    add("anim-img2webp.webp", open(out, "rb").read(), "img2webp -lossless: sub-rectangles, blending", frames=5)
    run("img2webp", "-loop", "0", "-lossless", "-kmax", "1", *frames, "-o", out)
    add("anim-img2webp-keyframes.webp", open(out, "rb").read(), "img2webp -kmax 1: every frame a key frame",
        frames=5)

    gif_frames = [Image.open(path).convert("RGBA") for path in frames]
    gif_path = os.path.join(WORK, "anim.gif")
    gif_frames[0].save(gif_path, save_all=True, append_images=gif_frames[1:], duration=[70, 0, 30, 90, 50],
                       loop=2, disposal=[1, 2, 1, 2, 1], transparency=0)
    run("gif2webp", "-quiet", gif_path, "-o", out)
    add("anim-gif2webp.webp", open(out, "rb").read(), "gif2webp of a GIF with disposal 2 and short delays",
        frames=5)

    # Written here: frames with alpha blended over and not, disposed and not, at odd places.
    canvas = (48, 36)
    vp8x = struct.pack("<B3x", 0x02 | 0x10) + (canvas[0] - 1).to_bytes(3, "little") + (
        canvas[1] - 1).to_bytes(3, "little")
    anim = ("ANIM", struct.pack("<4BH", 0x20, 0x40, 0x60, 0xFF, 4))

    def translucent(width, height, seed):
        image = Image.new("RGBA", (width, height))
        local = random.Random(seed)
        for y in range(height):
            for x in range(width):
                image.putpixel((x, y), (local.randrange(256), local.randrange(256), local.randrange(256),
                                        local.choice([0, 0, 1, 37, 128, 200, 254, 255, 255])))
        return [("VP8L", lossless_chunk(image))]

    frame_chunks = [
        anmf(0, 0, 48, 36, 100, False, True, translucent(48, 36, 1)),
        anmf(10, 6, 20, 14, 0, True, True, translucent(20, 14, 2)),
        anmf(4, 2, 30, 30, 40, False, True, translucent(30, 30, 3)),
        anmf(18, 10, 30, 26, 25, True, False, translucent(30, 26, 4)),
        anmf(0, 0, 16, 16, 120, False, True, translucent(16, 16, 5)),
        anmf(32, 20, 16, 16, 11, False, True, translucent(16, 16, 6)),
    ]
    add("anim-handmade-blend-dispose.webp", riff(("VP8X", vp8x), anim, *frame_chunks),
        "ANMF written here: blend and no-blend, dispose and not, translucent pixels", frames=6)
    opaque = Image.new("RGBA", canvas, (200, 10, 10, 255))
    full = [
        anmf(0, 0, 48, 36, 50, True, True, [("VP8L", lossless_chunk(opaque))]),
        anmf(2, 2, 20, 20, 50, False, True, translucent(20, 20, 7)),
        anmf(0, 0, 48, 36, 50, False, False, translucent(48, 36, 8)),
    ]
    add("anim-handmade-keyframes.webp", riff(("VP8X", vp8x), anim, *full),
        "a full frame disposed (the next a key frame), a full no-blend frame", frames=3)
    add("anim-no-anim-chunk.webp", riff(("VP8X", vp8x), *full), "animated without ANIM", "error")


def main():
    os.makedirs(SUITE, exist_ok=True)
    for old in os.listdir(SUITE):
        if old.endswith(".webp"):
            os.remove(os.path.join(SUITE, old))
    rng = random.Random(37)

    run("convert", "rose:", os.path.join(WORK, "rose.png"))
    rose = os.path.join(WORK, "rose.png")
    run("convert", "logo:", "-resize", "40%", os.path.join(WORK, "logo.png"))
    logo = os.path.join(WORK, "logo.png")

    # Every effort level of the lossless encoder: transforms, cache and meta codes as it chooses.
    for level in range(10):
        encode(f"lossless-z{level}.webp", rose, ["-lossless", "-z", str(level)], f"cwebp -lossless -z {level}")
    encode("lossless-logo-z9.webp", logo, ["-lossless", "-z", "9"], "palette-like drawing, -z 9")
    encode("lossless-logo-m6.webp", logo, ["-lossless", "-m", "6", "-q", "100"], "-m 6 -q 100")
    for level in (0, 40, 80):
        encode(f"near-lossless-{level}.webp", rose, ["-lossless", "-near_lossless", str(level)],
               f"-near_lossless {level}")

    # Alpha: a gradient of alpha with colour under alpha 0, kept with -exact, changed without.
    image = Image.new("RGBA", (45, 31))
    for y in range(31):
        for x in range(45):
            a = 0 if x < 8 else min(255, (x - 8) * 7)
            image.putpixel((x, y), ((x * 5) % 256, (y * 8) % 256, (x * y) % 256, a))
    alpha_png = source("alpha", image)
    encode("lossless-alpha-exact.webp", alpha_png, ["-lossless", "-exact"], "alpha, -exact keeps colour under alpha 0")
    encode("lossless-alpha.webp", alpha_png, ["-lossless"], "alpha without -exact")
    encode("lossless-alpha-z9-exact.webp", alpha_png, ["-lossless", "-z", "9", "-exact"], "alpha, -z 9 -exact")

    # Palettes: colour indexing with 8, 4, 2 and 1 bits per index (pixel bundling), odd widths.
    for colours, size in ((2, (37, 9)), (3, (29, 7)), (4, (33, 11)), (11, (27, 13)), (16, (31, 5)),
                          (200, (41, 17)), (256, (64, 16))):
        palette = [(rng.randrange(256), rng.randrange(256), rng.randrange(256), 255) for _ in range(colours)]
        image = Image.new("RGBA", size)
        for y in range(size[1]):
            for x in range(size[0]):
                image.putpixel((x, y), palette[(x * 7 + y * 3 + rng.randrange(2)) % colours])
        png = source(f"palette{colours}", image)
        encode(f"palette-{colours}.webp", png, ["-lossless", "-exact"], f"{colours} colours (colour indexing)")
    encode("palette-16-z9.webp", os.path.join(WORK, "palette16.png"), ["-lossless", "-z", "9"], "16 colours, -z 9")

    # Sizes: 1 × 1, 3 × 1, 1 × 3, and 16 383 wide in a few hundred bytes.
    for (w, h) in ((1, 1), (3, 1), (1, 3), (16383, 2), (2, 300)):
        image = Image.new("RGBA", (w, h))
        for y in range(h):
            for x in range(w):
                image.putpixel((x, y), ((x // 64) % 256, (y * 40) % 256, (x + y) % 7 * 30, 255 - (x % 3)))
        encode(f"size-{w}x{h}.webp", source(f"size{w}x{h}", image), ["-lossless"], f"{w} × {h}")

    # A photo-like gradient with noise: predictor and cross-colour transforms, meta codes, cache.
    image = Image.new("RGB", (96, 64))
    for y in range(64):
        for x in range(96):
            image.putpixel((x, y), (x * 2 + rng.randrange(6), y * 3 + rng.randrange(6), (x + y) + rng.randrange(6)))
    noisy = source("noisy", image)
    encode("lossless-noisy-z9.webp", noisy, ["-lossless", "-z", "9"], "noisy gradient, -z 9")
    encode("lossless-noisy-z1.webp", noisy, ["-lossless", "-z", "1"], "noisy gradient, -z 1")

    # Extended files: VP8X with an ICC profile and EXIF/XMP chunks to skip.
    lossless = open(os.path.join(SUITE, "lossless-z5.webp"), "rb").read()
    bitstream = dict(chunks(lossless))["VP8L"]
    w, h = 70, 46
    vp8x = struct.pack("<B3x", 0x20 | 0x08 | 0x04 | 0x10) + (w - 1).to_bytes(3, "little") + (h - 1).to_bytes(3, "little")
    add("extended-metadata.webp", riff(("VP8X", vp8x), ("ICCP", b"\x01" * 13), ("EXIF", b"Exif\0\0"),
                                       ("VP8L", bitstream), ("XMP ", b"<x/>")), "VP8X, ICCP, EXIF, XMP skipped")
    add("extended-unknown-chunk.webp", riff(("VP8X", vp8x), ("ABCD", b"xyz"), ("VP8L", bitstream)),
        "an unknown chunk (odd size, padded) before the image")
    add("trailing-bytes.webp", lossless + b"garbage after the RIFF payload", "bytes after the RIFF payload ignored")
    # libwebp reads a still's VP8L stream to the end of the file, past its chunk and its RIFF.
    short_chunk = bytearray(lossless)
    struct.pack_into("<I", short_chunk, 16, len(bitstream) - 100)
    add("vp8l-size-too-small.webp", bytes(short_chunk), "VP8L chunk size 100 short; the stream runs on (libwebp)")
    past_riff = bytearray(lossless)
    struct.pack_into("<I", past_riff, 4, len(lossless) - 8 - 100)
    struct.pack_into("<I", past_riff, 16, len(bitstream) - 100)
    add("vp8l-stream-past-riff.webp", bytes(past_riff), "VP8L stream runs past the RIFF end (libwebp)")

    # Lossy with alpha: every alpha option (the alpha channel is checked; the colour waits for
    # the lossy decoder).
    for method in (0, 1):
        for flt in ("none", "fast", "best"):
            encode(f"lossy-alpha-m{method}-{flt}.webp", alpha_png,
                   ["-q", "60", "-alpha_method", str(method), "-alpha_filter", flt, "-exact"],
                   f"lossy, -alpha_method {method} -alpha_filter {flt}")
    for quality in (0, 30, 70):
        encode(f"lossy-alpha-q{quality}.webp", alpha_png, ["-q", "60", "-alpha_q", str(quality)],
               f"lossy, -alpha_q {quality} (quantised levels, pre-processing flag)")
    encode("lossy-rose.webp", rose, ["-q", "75"], "simple lossy")
    encode("lossy-1x1.webp", os.path.join(WORK, "size1x1.png"), ["-q", "75"], "simple lossy 1 × 1")

    # Hand-made streams that dwebp decodes: the smallest lossless images.
    bits = vp8l_header(1, 1).put(0, 1).put(0, 1).put(0, 1)
    for symbol in (0x40, 0x80, 0xC0, 0xFF):
        simple_code(bits, symbol)
    simple_code(bits, 0)
    add("handmade-1x1.webp", vp8l(bits), "hand-written: simple codes, 0 bits per pixel")
    bits = vp8l_header(2, 1).put(0, 1).put(1, 1).put(4, 4).put(0, 1)
    bits.put(1, 1).put(1, 1).put(1, 1).put(0x12, 8).put(0x13, 8)  # green: 2 symbols, 1 bit each
    for symbol in (1, 2, 255):
        simple_code(bits, symbol)
    simple_code(bits, 0)
    bits.put(0, 1).put(1, 1)
    add("handmade-cache-bits4.webp", vp8l(bits), "hand-written: a 4-bit colour cache declared, unused")

    # Errors: containers that lie.
    add("truncated-half.webp", lossless[:len(lossless) // 2], "cut in half: RIFF size passes the end", "error")
    add("truncated-header.webp", lossless[:10], "cut inside the RIFF header", "error")
    short = bytearray(lossless)
    struct.pack_into("<I", short, 4, 20)
    add("riff-size-small.webp", bytes(short), "RIFF size smaller than its VP8L chunk", "error")
    big = bytearray(lossless)
    struct.pack_into("<I", big, 4, 0x7FFFFFF0)
    add("riff-size-huge.webp", bytes(big), "RIFF size far past the end", "error")
    chunk_big = bytearray(lossless)
    struct.pack_into("<I", chunk_big, 16, len(bitstream) + 100)
    add("chunk-size-lies.webp", bytes(chunk_big), "VP8L chunk size passes the RIFF end", "error")
    cut = bitstream[:len(bitstream) // 2]
    add("truncated-bitstream.webp", riff(("VP8L", cut)), "VP8L bitstream cut in half, sizes consistent", "error")
    add("bad-signature.webp", riff(("VP8L", b"\x2e" + bitstream[1:])), "VP8L signature 0x2E", "error")
    add("bad-version.webp", riff(("VP8L", bitstream[:4] + bytes([bitstream[4] | 0x20]) + bitstream[5:])),
        "VP8L version 1", "error")
    add("no-image.webp", riff(("VP8X", vp8x), ("EXIF", b"Exif")), "VP8X without an image chunk", "error")
    wrong = struct.pack("<B3x", 0x10) + (w).to_bytes(3, "little") + (h - 1).to_bytes(3, "little")
    add("canvas-mismatch.webp", riff(("VP8X", wrong), ("VP8L", bitstream)), "VP8X canvas one wider", "error")
    huge = struct.pack("<B3x", 0x10) + (0xFFFFFF).to_bytes(3, "little") + (0xFFFFFF).to_bytes(3, "little")
    add("huge-canvas.webp", riff(("VP8X", huge), ("VP8L", bitstream)), "VP8X canvas 16777216 squared", "error")
    add("huge-lossless.webp", vp8l(vp8l_header(16384, 16384).put(0, 1).put(0, 1).put(0, 1)),
        "VP8L 16384 × 16384 in a few bytes", "error")
    lossy = open(os.path.join(SUITE, "lossy-1x1.webp"), "rb").read()
    frame = bytearray(dict(chunks(lossy))["VP8 "])
    frame[6:8] = b"\0\0"
    add("lossy-zero-width.webp", riff(("VP8 ", bytes(frame))), "VP8 frame header of width 0", "error")

    # Errors: lossless bitstreams no encoder writes.
    bits = vp8l_header(1, 1).put(1, 1).put(2, 2).put(1, 1).put(2, 2)
    add("repeated-transform.webp", vp8l(bits.put(0, 64)), "subtract-green twice", "error")
    for cache_bits in (12, 15):
        bits = vp8l_header(1, 1).put(0, 1).put(1, 1).put(cache_bits, 4)
        add(f"cache-bits-{cache_bits}.webp", vp8l(bits.put(0, 64)), f"a {cache_bits}-bit colour cache", "error")
    bits = vp8l_header(1, 1).put(0, 1).put(0, 1).put(0, 1)
    bits.put(0, 1).put(0, 4).put(1, 3).put(1, 3).put(1, 3).put(0, 3)  # code-length code: 17, 18, 0 of length 1
    add("oversubscribed-code-lengths.webp", vp8l(bits.put(0, 64)), "code-length code over-subscribed", "error")
    bits = vp8l_header(1, 1).put(0, 1).put(0, 1).put(0, 1)
    bits.put(0, 1).put(0, 4).put(0, 3).put(0, 3).put(1, 3).put(1, 3)  # code-length code: 0 and 1, 1 bit each
    bits.put(0, 1)  # every one of the 280 lengths coded
    for symbol in range(280):
        bits.code(1 if symbol < 3 else 0, 1)
    add("oversubscribed-green.webp", vp8l(bits.put(0, 64)), "green code: three codes of length 1", "error")
    bits = vp8l_header(1, 1).put(0, 1).put(0, 1).put(0, 1)
    bits.put(0, 1).put(0, 4).put(0, 3).put(0, 3).put(2, 3).put(2, 3)  # code-length code: 0 and 1 of length 2
    add("incomplete-code-lengths.webp", vp8l(bits.put(0, 64)), "code-length code incomplete", "error")
    # A backward reference at the first pixel: green codes literal 0 and length symbol 256.
    bits = vp8l_header(2, 1).put(0, 1).put(0, 1).put(0, 1)
    bits.put(0, 1).put(0, 4).put(0, 3).put(2, 3).put(2, 3).put(1, 3)  # CL code: 18 → 11, 0 → 10, 1 → 0
    bits.put(0, 1)
    bits.code(0, 1)  # symbol 0: length 1
    bits.code(0b11, 2).put(138 - 11, 7)  # symbols 1–138: 0
    bits.code(0b11, 2).put(117 - 11, 7)  # symbols 139–255: 0
    bits.code(0, 1)  # symbol 256: length 1
    bits.code(0b11, 2).put(23 - 11, 7)  # symbols 257–279: 0
    for symbol in (0, 0, 0, 0):
        simple_code(bits, symbol)
    bits.code(1, 1)  # length symbol 256: one pixel from distance code 1, (0, 1): 2 pixels back
    add("backward-reference-before-start.webp", vp8l(bits.put(0, 64)), "copy from before the first pixel", "error")

    animations(rng)

    with open(os.path.join(SUITE, "MANIFEST.tsv"), "w") as manifest:
        manifest.write("file\tstatus\twidth\theight\tframes\trgba_sha256\talpha_sha256\tnote\n")
        for row in sorted(rows):
            manifest.write("\t".join(str(field) for field in row) + "\n")
    with open(os.path.join(SUITE, "FRAMES.tsv"), "w") as frames:
        frames.write("file\tframe\tduration_ms\trgba_sha256\n")
        for row in sorted(frame_rows):
            frames.write("\t".join(str(field) for field in row) + "\n")
    total = sum(os.path.getsize(os.path.join(SUITE, row[0])) for row in rows)
    print(f"{len(rows)} files, {total} bytes")


main()
