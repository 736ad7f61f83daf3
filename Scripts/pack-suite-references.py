#!/usr/bin/env python3
# Stores a conformance suite's reference pixels compactly. Each raw reference `reference/NAME.rgba`
# becomes `reference/NAME.rgba.zz` (the same bytes, zlib-compressed at level 9), and
# `REFERENCES.tsv` lists every stored reference: `file` (the .zz, relative to the suite),
# `bytes` (the raw size) and `sha256` (of the raw bytes). The tests inflate with the package's own
# inflater, which is under test too, and check the size and digest before comparing pixels.
#
# Usage (from the package root; SUITE is e.g. Tests/WeakImageStoreTests/Fixtures/jpegsuite):
#   python3 Scripts/pack-suite-references.py pack SUITE    # every NAME.rgba -> NAME.rgba.zz, raw
#                                                          # files removed, REFERENCES.tsv rewritten
#   python3 Scripts/pack-suite-references.py check SUITE   # every .zz is listed, inflates to its
#                                                          # size and digest, and no raw file is left
#   python3 Scripts/pack-suite-references.py unpack SUITE  # writes the raw NAME.rgba beside each
#                                                          # .zz (checked), as the suites' generators
#                                                          # read them; .gitignore keeps them out
#
# A .zz that already inflates to the raw bytes being packed is kept as it is, so packing on a
# machine with another zlib does not rewrite unchanged references. The digests, not the
# compressed bytes, are what a rebuilt suite must reproduce.
import hashlib
import os
import sys
import zlib

TABLE = 'REFERENCES.tsv'
HEADER = 'file\tbytes\tsha256\n'


def stored_files(suite):
    folder = os.path.join(suite, 'reference')
    return sorted('reference/' + name for name in os.listdir(folder) if name.endswith('.rgba.zz'))


def raw_files(suite):
    folder = os.path.join(suite, 'reference')
    return sorted('reference/' + name for name in os.listdir(folder) if name.endswith('.rgba'))


def read(suite, path):
    with open(os.path.join(suite, path), 'rb') as file:
        return file.read()


def write(suite, path, data):
    with open(os.path.join(suite, path), 'wb') as file:
        file.write(data)


def table(suite):
    rows = {}
    with open(os.path.join(suite, TABLE)) as file:
        lines = file.read().splitlines()
    if not lines or lines[0] + '\n' != HEADER:
        sys.exit(f'{suite}/{TABLE}: expected the header {HEADER!r}')
    for line in lines[1:]:
        path, count, digest = line.split('\t')
        rows[path] = (int(count), digest)
    return rows


def pack(suite):
    for raw_path in raw_files(suite):
        raw = read(suite, raw_path)
        packed_path = raw_path + '.zz'
        packed = os.path.join(suite, packed_path)
        if not (os.path.exists(packed) and zlib.decompress(read(suite, packed_path)) == raw):
            write(suite, packed_path, zlib.compress(raw, 9))
        os.remove(os.path.join(suite, raw_path))
    rows = []
    for path in stored_files(suite):
        raw = zlib.decompress(read(suite, path))
        rows.append(f'{path}\t{len(raw)}\t{hashlib.sha256(raw).hexdigest()}\n')
    write(suite, TABLE, (HEADER + ''.join(rows)).encode())
    print(f'{suite}: {len(rows)} references in {TABLE}')


def check(suite):
    rows = table(suite)
    problems = []
    files = stored_files(suite)
    for path in sorted(set(files) - set(rows)):
        problems.append(f'{path}: not in {TABLE}')
    for path in sorted(set(rows) - set(files)):
        problems.append(f'{path}: listed in {TABLE} but missing')
    for path in raw_files(suite):
        problems.append(f'{path}: raw reference left (pack it)')
    for path in sorted(set(files) & set(rows)):
        raw = zlib.decompress(read(suite, path))
        count, digest = rows[path]
        if len(raw) != count or hashlib.sha256(raw).hexdigest() != digest:
            problems.append(f'{path}: inflates to {len(raw)} bytes that do not match {TABLE}')
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f'{suite}: {len(files)} references, {len(problems)} problems')
    return not problems


def unpack(suite):
    for path, (count, digest) in sorted(table(suite).items()):
        raw = zlib.decompress(read(suite, path))
        if len(raw) != count or hashlib.sha256(raw).hexdigest() != digest:
            sys.exit(f'{path}: does not match {TABLE}')
        write(suite, path[:-len('.zz')], raw)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ('pack', 'check', 'unpack'):
        sys.exit('usage: pack-suite-references.py pack|check|unpack SUITE_DIR')
    command, suite = sys.argv[1], sys.argv[2]
    if command == 'pack':
        pack(suite)
    elif command == 'check':
        sys.exit(0 if check(suite) else 1)
    else:
        unpack(suite)


main()
