#!/usr/bin/env python3
"""Makes Tests/WeakImageStoreTests/Fixtures/webpsuite-lossy: lossy WebP files and their references.

    apt-get install -y webp libwebp-dev imagemagick libjs-jquery-colorbox gcc
    Scripts/make-webpsuite-lossy.py

Files come from cwebp over every option that changes the VP8 bitstream, from a small C program
linked with libwebp (token partitions and the simple filter, which cwebp does not expose), and
from hand-made damage to one of them (sizes in the RIFF header fixed up, so that only the VP8
layer is at fault). References are libwebp's: `dwebp -pam` (default options: fancy upsampling),
whose RGBA pixels are hashed with SHA-256; a file dwebp refuses is listed with dwebp's status
and the VP8Error case the Swift decoder must throw.

Writes MANIFEST.tsv: file, status (ok | error), width, height, sha256 of the RGBA pixels (or
dwebp's status), and for errors the expected VP8Error case.
"""

import hashlib
import math
import os
import struct
import subprocess
import sys
import tempfile

SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "WeakImageStoreTests",
                     "Fixtures", "webpsuite-lossy")
PHOTOS = "/usr/share/doc/libjs-jquery-colorbox/examples/content"

ENCODER_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <webp/encode.h>
/* usage: enc in.ppm out.webp quality partitions filter_type filter_strength sharpness segments */
int main(int argc, char** argv) {
  FILE* f = fopen(argv[1], "rb"); int w, h, max;
  if (fscanf(f, "P6 %d %d %d", &w, &h, &max) != 3) return 1; fgetc(f);
  unsigned char* rgb = malloc((size_t)w * h * 3);
  if (fread(rgb, 3, (size_t)w * h, f) != (size_t)w * h) return 1;
  WebPConfig config; WebPPicture picture; WebPMemoryWriter writer;
  WebPConfigInit(&config);
  config.quality = atof(argv[3]); config.partitions = atoi(argv[4]);
  config.filter_type = atoi(argv[5]); config.filter_strength = atoi(argv[6]);
  config.filter_sharpness = atoi(argv[7]); config.segments = atoi(argv[8]);
  config.method = 2;  /* methods 3+ use the token buffer, which writes one partition */
  WebPPictureInit(&picture); picture.width = w; picture.height = h;
  WebPPictureImportRGB(&picture, rgb, w * 3);
  WebPMemoryWriterInit(&writer); picture.writer = WebPMemoryWrite; picture.custom_ptr = &writer;
  if (!WebPEncode(&config, &picture)) return 2;
  FILE* o = fopen(argv[2], "wb"); fwrite(writer.mem, 1, writer.size, o); fclose(o);
  return 0;
}
"""


def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, **kwargs)


def make_sources(tmp):
    """Source images (PNG) by name."""
    sources = {}

    def magick(name, *args):
        path = os.path.join(tmp, name + ".png")
        run("convert", *args, path)
        sources[name] = path

    magick("rose", "rose:")
    magick("wizard", "wizard:", "-resize", "50%")
    magick("logo", "logo:", "-resize", "40%")
    magick("granite", "granite:")
    magick("gradient", "-size", "61x47", "gradient:red-blue")
    magick("plasma", "-seed", "7", "-size", "96x80", "plasma:fractal")
    magick("noise", "-seed", "3", "-size", "48x40", "xc:gray", "+noise", "Random")
    magick("daisy", os.path.join(PHOTOS, "daisy.jpg"), "-resize", "160x")
    magick("homer", os.path.join(PHOTOS, "homer.jpg"))
    magick("ohoopee", os.path.join(PHOTOS, "ohoopee1.jpg"), "-resize", "192x")
    magick("marylou", os.path.join(PHOTOS, "marylou.jpg"), "-crop", "240x180+300+150", "+repage")
    # ImageMagick's policy refuses 16383 pixels wide: a smooth row written as PPM instead.
    wide = os.path.join(tmp, "size-16383x1.ppm")
    with open(wide, "wb") as output:
        output.write(b"P6\n16383 1\n255\n" + bytes(
            int(127 + 120 * math.sin(x * 0.01 + 2 * c) + (x * 7919 + c) % 13) & 255
            for x in range(16383) for c in range(3)))
    sources["size-16383x1"] = wide
    for width, height in [(1, 1), (2, 3), (17, 33), (33, 17), (1, 1000), (3, 2), (31, 1), (100, 2), (65, 65)]:
        name = "size-%dx%d" % (width, height)
        magick(name, os.path.join(PHOTOS, "ohoopee2.jpg"), "-resize", "%dx%d!" % (width, height))
    return sources


def cwebp_cases():
    """(file name, source, cwebp options)."""
    cases = []
    for q in [0, 5, 50, 75, 85, 100]:
        cases.append(("q%d" % q, "daisy", ["-q", str(q)]))
    for m in range(7):
        cases.append(("m%d" % m, "ohoopee", ["-m", str(m)]))
    for sns in [0, 100]:
        cases.append(("sns%d" % sns, "plasma", ["-sns", str(sns)]))
    for f in [0, 50, 100]:
        cases.append(("f%d-strong" % f, "rose", ["-f", str(f), "-strong"]))
        cases.append(("f%d-nostrong" % f, "rose", ["-f", str(f), "-nostrong"]))
    for sharpness in [0, 3, 5, 7]:
        cases.append(("sharpness%d" % sharpness, "wizard", ["-sharpness", str(sharpness), "-f", "70"]))
        cases.append(("sharpness%d-simple" % sharpness, "wizard",
                      ["-sharpness", str(sharpness), "-f", "70", "-nostrong"]))
    for segments in [1, 2, 3, 4]:
        cases.append(("segments%d" % segments, "marylou", ["-segments", str(segments)]))
    for limit in [0, 50, 100]:
        cases.append(("partition-limit%d" % limit, "granite", ["-partition_limit", str(limit), "-q", "95"]))
    cases.append(("af", "logo", ["-af"]))
    cases.append(("af-simple", "logo", ["-af", "-nostrong"]))
    cases.append(("sharp-yuv", "homer", ["-sharp_yuv"]))
    cases.append(("pass6", "homer", ["-pass", "6", "-size", "3000"]))
    cases.append(("noise-q100", "noise", ["-q", "100", "-m", "6"]))
    cases.append(("noise-q0", "noise", ["-q", "0", "-f", "100", "-sharpness", "0"]))
    cases.append(("gradient", "gradient", []))
    for preset in ["photo", "picture", "drawing", "icon", "text"]:
        cases.append(("preset-%s" % preset, "logo", ["-preset", preset]))
    for name in ["size-1x1", "size-2x3", "size-17x33", "size-33x17", "size-1x1000", "size-16383x1",
                 "size-3x2", "size-31x1", "size-100x2", "size-65x65"]:
        cases.append((name, name, ["-q", "80"]))
        cases.append((name + "-simple", name, ["-q", "30", "-nostrong", "-f", "80"]))
    return cases


def encoder_cases():
    """(file name, source, quality, partitions, filter type, strength, sharpness, segments)."""
    cases = []
    for partitions in range(4):
        cases.append(("partitions%d" % (1 << partitions), "ohoopee", 75, partitions, 1, 60, 0, 4))
    cases.append(("partitions8-simple", "wizard", 40, 3, 0, 60, 2, 4))
    cases.append(("partitions4-tall", "size-1x1000", 90, 2, 1, 30, 0, 1))
    return cases


def riff(payload):
    """A simple-format WebP file around a VP8 payload, sizes consistent, padded to even."""
    padded = payload + (b"\0" if len(payload) & 1 else b"")
    chunk = b"VP8 " + struct.pack("<I", len(payload)) + padded
    return b"RIFF" + struct.pack("<I", 4 + len(chunk)) + b"WEBP" + chunk


def vp8_payload(data):
    offset = 12
    while offset + 8 <= len(data):
        tag, size = data[offset:offset + 4], struct.unpack("<I", data[offset + 4:offset + 8])[0]
        if tag == b"VP8 ":
            return data[offset + 8:offset + 8 + size]
        offset += 8 + size + (size & 1)
    raise ValueError("no VP8 chunk")


def damaged_cases(base, multi):
    """(file name, bytes, expected VP8Error case) made from the payload of `base` (one token
    partition) and `multi` (eight)."""
    payload = vp8_payload(base)
    tag = payload[0] | payload[1] << 8 | payload[2] << 16
    first_size = tag >> 5
    cases = []
    for length, expected in [(0, "truncatedHeader"), (5, "truncatedHeader"),
                             # With its padding byte the payload has 10 bytes; libwebp then fails
                             # on the first partition's size, as the decoder does.
                             (9, "firstPartitionPastEnd"),
                             (10, "firstPartitionPastEnd"), (11, "firstPartitionPastEnd"),
                             (10 + first_size // 2, "firstPartitionPastEnd"),
                             (10 + first_size, "tokenPartitionsPastEnd"),
                             (10 + first_size + 1, "truncatedCoefficients"),
                             (len(payload) // 2, "truncatedCoefficients"),
                             (len(payload) - 40, "truncatedCoefficients")]:
        cases.append(("truncated-at-%d" % length, riff(payload[:length]), expected))

    def with_tag(new_tag, rest=payload[3:]):
        return riff(bytes([new_tag & 255, new_tag >> 8 & 255, new_tag >> 16 & 255]) + rest)

    cases.append(("bad-start-code", riff(payload[:3] + b"\x9d\x01\x2b" + payload[6:]), "badStartCode"))
    cases.append(("zero-width", riff(payload[:6] + b"\0\0" + payload[8:]), "invalidDimensions"))
    cases.append(("zero-height", riff(payload[:8] + b"\0\0" + payload[10:]), "invalidDimensions"))
    cases.append(("interframe", with_tag(tag | 1), "notKeyFrame"))
    cases.append(("profile-4", with_tag(tag & ~0xE | 4 << 1), "invalidProfile"))
    cases.append(("not-shown", with_tag(tag & ~0x10), "frameNotShown"))
    cases.append(("first-partition-past-end", with_tag(tag & 0x1F | (len(payload) - 9) << 5),
                  "firstPartitionPastEnd"))
    cases.append(("first-partition-zero", with_tag(tag & 0x1F), "truncatedFrameHeader"))
    cases.append(("first-partition-short", with_tag(tag & 0x1F | 12 << 5), "truncatedFrameHeader"))
    cases.append(("tokens-empty", riff(payload[:10 + first_size]), "tokenPartitionsPastEnd"))
    multi_payload = vp8_payload(multi)
    multi_first = (multi_payload[0] | multi_payload[1] << 8 | multi_payload[2] << 16) >> 5
    sizes = 10 + multi_first
    cases.append(("partition-sizes-cut", riff(multi_payload[:sizes + 10]), "tokenPartitionsPastEnd"))
    big = multi_payload[:sizes] + b"\xff\xff\xff" + multi_payload[sizes + 3:]
    cases.append(("partition-size-past-end", riff(big), "tokenPartitionsPastEnd"))
    zero = multi_payload[:sizes] + b"\0\0\0" + multi_payload[sizes + 3:]
    cases.append(("partition-size-zero", riff(zero), "truncatedCoefficients"))
    flipped = bytearray(payload)
    flipped[10 + first_size + 20] ^= 0x55
    cases.append(("tokens-bit-flip", riff(bytes(flipped)), None))
    return cases


def reference(path):
    """(status, width, height, sha256 or dwebp status)."""
    with tempfile.NamedTemporaryFile(suffix=".pam") as pam:
        result = subprocess.run(["dwebp", path, "-pam", "-o", pam.name], capture_output=True, text=True)
        if result.returncode != 0:
            status = [line for line in result.stderr.splitlines() if line.startswith("Status:")]
            return "error", 0, 0, status[0].split(" ", 1)[1] if status else "failed"
        data = open(pam.name, "rb").read()
    header, pixels = data.split(b"ENDHDR\n", 1)
    fields = dict(line.split(b" ", 1) for line in header.splitlines()[1:])
    width, height = int(fields[b"WIDTH"]), int(fields[b"HEIGHT"])
    assert fields[b"TUPLTYPE"] == b"RGB_ALPHA" and len(pixels) == 4 * width * height
    return "ok", width, height, hashlib.sha256(pixels).hexdigest()


def main():
    os.makedirs(SUITE, exist_ok=True)
    for name in os.listdir(SUITE):
        if name.endswith(".webp"):
            os.remove(os.path.join(SUITE, name))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        sources = make_sources(tmp)
        encoder = os.path.join(tmp, "enc")
        with open(encoder + ".c", "w") as source:
            source.write(ENCODER_C)
        run("cc", "-O2", encoder + ".c", "-o", encoder, "-lwebp")
        files = []
        for name, source, options in cwebp_cases():
            path = os.path.join(SUITE, name + ".webp")
            run("cwebp", "-quiet", *options, sources[source], "-o", path)
            files.append((name + ".webp", None))
        for name, source, quality, partitions, filter_type, strength, sharpness, segments in encoder_cases():
            ppm = os.path.join(tmp, source + ".ppm")
            if not sources[source].endswith(".ppm"):
                run("convert", sources[source], ppm)
            path = os.path.join(SUITE, name + ".webp")
            run(encoder, ppm, path, str(quality), str(partitions), str(filter_type), str(strength),
                str(sharpness), str(segments))
            files.append((name + ".webp", None))
        base = open(os.path.join(SUITE, "m4.webp"), "rb").read()
        multi = open(os.path.join(SUITE, "partitions8.webp"), "rb").read()
        # Byte changes found by differential fuzzing that make coefficients so large that
        # libwebp's SSE2 transform wraps at 16 bits (see VP8Transform.addInverseDCT).
        for name, source, changes in [("huge-coefficients-1", "sharpness5.webp", [(3575, 167), (3282, 35)]),
                                      ("huge-coefficients-2", "sharpness3.webp",
                                       [(2578, 9), (1080, 46), (1735, 21)])]:
            data = bytearray(open(os.path.join(SUITE, source), "rb").read())
            for offset, value in changes:
                data[offset] = value
            with open(os.path.join(SUITE, "damaged-" + name + ".webp"), "wb") as output:
                output.write(data)
            files.append(("damaged-" + name + ".webp", None))
        for name, data, expected in damaged_cases(base, multi):
            with open(os.path.join(SUITE, "damaged-" + name + ".webp"), "wb") as output:
                output.write(data)
            files.append(("damaged-" + name + ".webp", expected))
    for name, expected in files:
        status, width, height, digest = reference(os.path.join(SUITE, name))
        rows.append("\t".join([name, status, str(width), str(height), digest, expected or "-"]))
    with open(os.path.join(SUITE, "MANIFEST.tsv"), "w") as manifest:
        manifest.write("file\tstatus\twidth\theight\tsha256_or_dwebp_status\texpected_error\n")
        manifest.write("\n".join(rows) + "\n")
    total = sum(os.path.getsize(os.path.join(SUITE, name)) for name, _ in files)
    print("%d files, %d bytes" % (len(files), total), file=sys.stderr)


if __name__ == "__main__":
    main()
