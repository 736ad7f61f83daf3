#!/usr/bin/env python3
"""Rebuilds the real-photograph corpus of the decode speed benchmarks from Debian's
lomiri-wallpapers-16.04 package: downloads the package with apt-get, takes six photographs out of
it, reduces them with Pillow (Lanczos) to the sizes below, and writes them as baseline JPEG
(quality 90, 4:2:0, optimized Huffman tables, no metadata) next to this script, with the licence
texts the package's copyright file carries.

Usage: Sources/Benchmarks/Photos/make.py   (needs apt-get, dpkg-deb and Pillow; any folder)
"""
import pathlib
import re
import subprocess
import sys
import tempfile

from PIL import Image, ImageOps

PACKAGE = "lomiri-wallpapers-16.04"
VERSION = "20.04.0-2"
SOURCE_FOLDER = "usr/share/backgrounds"
COPYRIGHT = f"usr/share/doc/{PACKAGE}/copyright"

# (file in the package, file written here, longest side written): four at 3-4 Mpixel and two at
# 12 Mpixel, the top of the sizes the WebP goal covers. A longest side of None keeps the source's.
PHOTOS = [
    ("picosdeeuropa_by_Aitzol_Berasategi.jpg", "landscape-picos-de-europa.jpg", 2400),
    ("life_by_Aitzol_Berasategi.jpg", "forest-stream.jpg", 2400),
    ("Dragonfly_by_Bolly.jpg", "foliage-dragonfly.jpg", 4000),
    ("Bridge_by_Sander_Klootwijk.jpg", "architecture-bridge.jpg", 2560),
    ("friends_by_Aitzol_Berasategi.jpg", "animals-dogs.jpg", 2400),
    ("sunset_by_Aitzol_Berasategi.jpg", "low-light-sunset.jpg", 4240),
]
LICENSES = ["CC-BY-4.0", "CC-BY-SA-4.0"]


def licence_text(copyright_text: str, name: str) -> str:
    """The stand-alone `License: name` paragraph of a machine-readable copyright file, unfolded."""
    match = re.search(rf"^License: {re.escape(name)}\n((?: .*\n?)+)", copyright_text, re.MULTILINE)
    if match is None:
        sys.exit(f"no full text of {name} in {COPYRIGHT}")
    lines = [line[1:] for line in match.group(1).splitlines()]
    return "\n".join("" if line == "." else line for line in lines) + "\n"


def main() -> None:
    here = pathlib.Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory() as scratch:
        scratch = pathlib.Path(scratch)
        subprocess.run(["apt-get", "download", f"{PACKAGE}={VERSION}"], cwd=scratch, check=True)
        deb = next(scratch.glob(f"{PACKAGE}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(deb), str(scratch / "root")], check=True)
        root = scratch / "root"
        for source, target, longest_side in PHOTOS:
            with Image.open(root / SOURCE_FOLDER / source) as image:
                image = ImageOps.exif_transpose(image).convert("RGB")
                if longest_side is not None and max(image.size) > longest_side:
                    factor = longest_side / max(image.size)
                    size = (round(image.width * factor), round(image.height * factor))
                    image = image.resize(size, Image.Resampling.LANCZOS)
                image.save(here / target, "JPEG", quality=90, subsampling="4:2:0", optimize=True)
                print(f"{target}: {image.width}x{image.height}, {(here / target).stat().st_size} bytes")
        copyright_text = (root / COPYRIGHT).read_text(encoding="utf-8")
        for name in LICENSES:
            (here / f"LICENSE-{name}.txt").write_text(licence_text(copyright_text, name), encoding="utf-8")


if __name__ == "__main__":
    main()
