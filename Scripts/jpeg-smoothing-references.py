#!/usr/bin/env python3
# Makes the inputs and references of Tests/.../JPEGBlockSmoothingTests.swift: progressive JPEGs
# whose first coefficients are not all final, which libjpeg-turbo 2.1.5 block-smooths
# (jdcoefct.c decompress_smooth_data).
#   1. Writes the fixtures to Tests/WeakImageStoreTests/Fixtures/JPEGBlockSmoothing/: crops of
#      djpeg's testorig.jpg encoded by cjpeg 2.1.5 with `-scans` scripts that leave coefficients
#      incomplete (DC only, AC with a point transform never refined, one AC band), small and of
#      odd sizes so the image edges count. cjpeg's output is deterministic.
#   2. Picks edits of suite files: all scans after the k-th dropped (EOI right after), cuts
#      inside scans, a cut right after a scan header, a cut mid-scan with an EOI appended.
#   3. Decodes every input with `djpeg -dct int` at 1/1, 1/2, 1/4, 1/8 (portable C code:
#      JSIMD_FORCENONE=1) and prints the Swift case list: size and FNV-1a 64 of the RGBA8
#      pixels (gray v as v, v, v, 255) per scale, and whether djpeg warned (exit 2).
# Needs `apt-get install libjpeg-turbo-progs` (cjpeg/djpeg 2.1.5).
# Usage (from the package root): python3 Scripts/jpeg-smoothing-references.py [SUITE_DIR]
import os
import subprocess
import sys
import tempfile

SUITE = (sys.argv[1] if len(sys.argv) > 1 else 'Tests/WeakImageStoreTests/Fixtures/jpegsuite').rstrip('/') + '/'
FIXTURES = 'Tests/WeakImageStoreTests/Fixtures/JPEGBlockSmoothing/'
TMP = tempfile.mkdtemp()


def fnv(data):
    h = 0xcbf29ce484222325
    for x in data:
        h ^= x
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def sos_positions(d):
    """Offsets of the SOS markers, found by walking the segments and the scan data."""
    i, out = 2, []
    while i < len(d) - 1:
        if d[i] != 0xFF or d[i + 1] == 0xFF:
            i += 1
            continue
        m = d[i + 1]
        if m == 0xD9:
            break
        if 0xD0 <= m <= 0xD7 or m == 0x01:
            i += 2
            continue
        length = d[i + 2] << 8 | d[i + 3]
        if m != 0xDA:
            i += 2 + length
            continue
        out.append(i)
        i += 2 + length
        while i < len(d) - 1 and not (d[i] == 0xFF and d[i + 1] != 0 and not 0xD0 <= d[i + 1] <= 0xD7):
            i += 1
    return out


def djpeg(path, denominator, simd=False):
    env = {} if simd else {'JSIMD_FORCENONE': '1'}
    return subprocess.run(['djpeg', '-dct', 'int', '-scale', f'1/{denominator}', path], capture_output=True, env=env)


# 1. Fixtures: name, crop (x, y, width, height) of testorig, cjpeg options, scan script.
source = djpeg(SUITE + 'testorig.jpg', 1).stdout
_, width, height, _, pixels = source.split(maxsplit=4)
width, height = int(width), int(height)
FIXTURE_SPECS = [
    ('dc_only_420_27x21.jpg', (40, 30, 27, 21), ['-sample', '2x2'], '0,1,2: 0-0, 0, 0;'),
    ('ac_never_refined_420_27x21.jpg', (90, 60, 27, 21), ['-sample', '2x2'],
     '0,1,2: 0-0, 0, 1; 0: 1-63, 0, 2; 1: 1-63, 0, 1; 2: 1-63, 0, 1;'),
    ('first_band_444_21x13.jpg', (120, 70, 21, 13), ['-sample', '1x1'],
     '0,1,2: 0-0, 0, 0; 0: 1-2, 0, 1; 1: 1-2, 0, 1; 2: 1-2, 0, 1;'),
    ('gray_two_blocks_wide_13x37.jpg', (60, 50, 13, 37), ['-grayscale'], '0: 0-0, 0, 2; 0: 1-9, 0, 1;'),
    ('gray_sampled_2x2_30x45.jpg', (100, 40, 30, 45), ['-grayscale', '-sample', '2x2'], '0: 0-0, 0, 0;'),
    ('one_block_wide_420_6x50.jpg', (150, 20, 6, 50), ['-sample', '2x2'], '0,1,2: 0-0, 0, 1; 0: 1-5, 0, 1;'),
    ('dc_only_440_40x45.jpg', (10, 90, 40, 45), ['-sample', '1x2'], '0,1,2: 0-0, 0, 0;'),
]
os.makedirs(FIXTURES, exist_ok=True)
inputs = []
for name, (x0, y0, w, h), options, script in FIXTURE_SPECS:
    crop = b''.join(pixels[3 * ((y0 + y) * width + x0):3 * ((y0 + y) * width + x0 + w)] for y in range(h))
    ppm = os.path.join(TMP, 'crop.ppm')
    open(ppm, 'wb').write(b'P6\n%d %d\n255\n' % (w, h) + crop)
    scans = os.path.join(TMP, 'crop.scans')
    open(scans, 'w').write(script + '\n')
    data = subprocess.run(['cjpeg', '-quality', '75', *options, '-scans', scans, ppm], capture_output=True,
                          check=True).stdout
    open(FIXTURES + name, 'wb').write(data)
    inputs.append((f'.fixture("{name}")', data, f'cjpeg {" ".join(options)} -scans "{script}"'))


# 2. Edits of suite files.
def suite(name):
    return open(SUITE + name, 'rb').read()


for name, kept in [('rose_prog_420.jpg', [1, 2, 6, 9]), ('rose_prog_gray.jpg', [1, 3]), ('sat_prog_444.jpg', [1, 4]),
                   ('sat_prog_422.jpg', [2, 6]), ('rose_prog_sa_deep.jpg', [2, 5, 10]),
                   ('rose_prog_spectral.jpg', [1, 4, 5]), ('rose_prog_testscan.jpg', [2]),
                   ('rose_prog_restart.jpg', [2]), ('cmyk_prog.jpg', [5]), ('photo640_prog.jpg', [2])]:
    d = suite(name)
    positions = sos_positions(d)
    for k in kept:
        inputs.append((f'.endEarly("{name}", at: {positions[k]})', d[:positions[k]] + b'\xff\xd9',
                       f'{name}: its first {k} of {len(positions)} scans, then EOI'))
for name, fractions in [('rose_prog_420.jpg', [0.3, 0.5, 0.7, 0.9]), ('rose_prog_gray.jpg', [0.5]),
                        ('sat_prog_444.jpg', [0.3, 0.7]), ('sat_prog_422.jpg', [0.5]),
                        ('photo640_prog.jpg', [0.3, 0.5]), ('rose_prog_testscan.jpg', [0.7]),
                        ('rose_prog_restart.jpg', [0.5, 0.9]), ('rose_prog_sa_deep.jpg', [0.5]),
                        ('cmyk_prog.jpg', [0.5])]:
    d = suite(name)
    for fraction in fractions:
        n = int(len(d) * fraction)
        inputs.append((f'.truncate("{name}", at: {n})', d[:n], f'{name} cut at {n} of {len(d)} bytes'))
d = suite('rose_prog_420.jpg')
positions = sos_positions(d)
header_end = positions[1] + 2 + (d[positions[1] + 2] << 8 | d[positions[1] + 3])
inputs.append((f'.truncate("rose_prog_420.jpg", at: {header_end})', d[:header_end],
               'rose_prog_420.jpg cut right after its second scan header'))
middle = (header_end + positions[2]) // 2
inputs.append((f'.endEarly("rose_prog_420.jpg", at: {middle})', d[:middle] + b'\xff\xd9',
               'rose_prog_420.jpg cut inside its second scan, then EOI'))

# 3. References.
for expression, data, why in inputs:
    path = os.path.join(TMP, 'case.jpg')
    open(path, 'wb').write(data)
    references, exits, messages = [], set(), set()
    for denominator in (1, 2, 4, 8):
        result = djpeg(path, denominator)
        if result.returncode == 1 or not result.stdout:
            sys.exit(f'{expression}: djpeg failed: {result.stderr.decode()}')
        if result.stdout != djpeg(path, denominator, simd=True).stdout:
            why += f' (the SIMD build differs at 1/{denominator})'
        exits.add(result.returncode)
        messages.update(line for line in result.stderr.decode().splitlines())
        out = result.stdout
        _, w, h, _, samples = out.split(maxsplit=4)
        w, h = int(w), int(h)
        samples = out[len(out) - w * h * (1 if out[:2] == b'P5' else 3):]
        if out[:2] == b'P5':
            rgba = bytes(x for v in samples for x in (v, v, v, 255))
        else:
            rgba = bytes(x for i in range(w * h) for x in (*samples[3 * i:3 * i + 3], 255))
        digits = f'{fnv(rgba):016X}'
        references.append(f'({w}, {h}, 0x{"_".join(digits[i:i + 4] for i in range(0, 16, 4))})')
    warned = 2 in exits
    print(f'        // {why}')
    if messages:
        print(f'        // djpeg: {" | ".join(sorted(messages))}')
    print(f'        SmoothedCase(\n            {expression}, warned: {str(warned).lower()},\n            [')
    print(f'                {", ".join(references[:3])},\n                {references[3]},\n            ]),')
