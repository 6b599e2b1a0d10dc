#!/usr/bin/env python3
"""The ICU data of the release `tokens`, cut to what Tokens uses (make release).

Full Foundation links ICU with its data for every locale: 34 MB of the 71 MB stripped binary.
Tokens formats nothing by locale, so this keeps ICU's data for the root and English locales
(root, en, en_*) and every item that belongs to no locale (Unicode properties, normalization,
collation root, time zones, break rules, transliteration), and leaves out the other locales'
bundles, the legacy character-set converters (*.cnv) and the word-break dictionaries of Asian
scripts (*.dict). A lookup for a locale that is not there falls back to root, as ICU does for
any locale it lacks.

It reads the toolchain's own data (the `icudtNN_dat` symbol in lib_FoundationICU.a) and writes,
into the output folder, the cut package, an object file that holds it as `tokens_icu_data`, and
`link-flags`, a linker response file: `--defsym=icudtNN_dat=tokens_icu_data` and the object.
With the symbol defined before the archives are read, the linker never pulls in the archive's
copy. Where the toolchain has no such archive or symbol, `link-flags` defines an unused symbol
only and the full data stays.

Usage: icu-data-subset.py --output-dir DIR [--toolchain-lib DIR]   (then: -Xlinker @DIR/link-flags)
The toolchain's static libraries are found through `swiftc -print-target-info` unless given.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys

MEMBER = b"icu_packaged_data.cpp.o"
LOCALE = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]+)*$")
NOT_LOCALES = {"root", "pool", "res_index"}


def archive_member(path, wanted):
    """The bytes of one member of a System V `ar` archive."""
    with open(path, "rb") as handle:
        data = handle.read()
    if not data.startswith(b"!<arch>\n"):
        raise ValueError(f"{path} is not an ar archive")
    names = b""
    offset = 8
    while offset + 60 <= len(data):
        header = data[offset:offset + 60]
        name = header[:16].rstrip()
        size = int(header[48:58])
        body = data[offset + 60:offset + 60 + size]
        if name == b"//":
            names = body
        elif name.startswith(b"/") and name[1:].isdigit() and names:
            start = int(name[1:])
            name = names[start:names.index(b"/\n", start)]
        else:
            name = name.rstrip(b"/")
        if name == wanted:
            return body
        offset += 60 + size + (size & 1)
    return None


def elf_symbol(obj, pattern):
    """(name, bytes) of the first defined symbol whose name matches `pattern`, in an ELF64 object."""
    if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        raise ValueError("not a little-endian ELF64 object")
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)]
    for section in sections:
        if section[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[section[6]]
        for index in range(section[5] // 24):
            st_name, _info, _other, st_shndx, st_value, st_size = struct.unpack_from("<IBBHQQ", obj, section[4] + index * 24)
            end = obj.index(b"\0", strtab[4] + st_name)
            name = obj[strtab[4] + st_name:end].decode()
            if pattern.fullmatch(name) and 0 < st_shndx < len(sections):
                data_offset = sections[st_shndx][4] + st_value
                return name, obj[data_offset:data_offset + st_size]
    return None


def items(package):
    """The header and the (name, bytes) items of an ICU common data package."""
    header_size, = struct.unpack_from("<H", package, 0)
    if package[2:4] != b"\xda\x27" or package[12:16] != b"CmnD":
        raise ValueError("not an ICU common data package")
    count, = struct.unpack_from("<I", package, header_size)
    entries = [struct.unpack_from("<II", package, header_size + 4 + 8 * i) for i in range(count)]
    result = []
    for index, (name_offset, data_offset) in enumerate(entries):
        start = header_size + name_offset
        name = package[start:package.index(b"\0", start)].decode()
        end = header_size + entries[index + 1][1] if index + 1 < count else len(package)
        result.append((name, package[header_size + data_offset:end]))
    return package[:header_size], result


def wanted(name):
    """Whether an item (`icudt76l/coll/de.res`) stays."""
    base = name.rsplit("/", 1)[-1]
    stem, _, extension = base.rpartition(".")
    if extension in ("cnv", "dict"):
        return False
    if extension == "res" and stem not in NOT_LOCALES and LOCALE.match(stem):
        return stem == "en" or stem.startswith("en_")
    return True


def package(header, kept):
    """An ICU common data package of `kept` items, laid out as ICU's pkg tool does."""
    def pad(data):
        return data + b"\0" * (-len(data) % 16)

    toc_size = 4 + 8 * len(kept)
    names = b"".join(name.encode() + b"\0" for name, _ in kept)
    name_offsets, position = [], toc_size
    for name, _ in kept:
        name_offsets.append(position)
        position += len(name) + 1
    position += -(len(header) + position) % 16
    data_offsets = []
    for _, data in kept:
        data_offsets.append(position)
        position += len(pad(data))
    toc = struct.pack("<I", len(kept)) + b"".join(
        struct.pack("<II", n, d) for n, d in zip(name_offsets, data_offsets))
    body = toc + names
    body += b"\0" * (-(len(header) + len(body)) % 16)
    return header + body + b"".join(pad(data) for _, data in kept)


def static_libraries():
    """The toolchain's folder of static libraries for this platform."""
    info = json.loads(subprocess.run(
        [os.environ.get("SWIFTC", "swiftc"), "-print-target-info"], check=True, capture_output=True, text=True).stdout)
    resources = info["paths"]["runtimeResourcePath"]
    return os.path.join(os.path.dirname(resources), "swift_static", info["target"]["platform"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--toolchain-lib", help="the toolchain's lib/swift_static/linux folder")
    parser.add_argument("--output-dir", required=True, help="the folder to write into")
    arguments = parser.parse_args()
    output = os.path.abspath(arguments.output_dir)
    os.makedirs(output, exist_ok=True)
    # swiftc reads the file as arguments after -Xlinker, which needs one: an unused symbol.
    flags = "--defsym=tokens_icu_data_kept_whole=0\n"
    archive = os.path.join(arguments.toolchain_lib or static_libraries(), "lib_FoundationICU.a")
    member = archive_member(archive, MEMBER) if os.path.exists(archive) else None
    symbol = elf_symbol(member, re.compile(r"icudt\d+_dat")) if member else None
    if symbol:
        name, data = symbol
        header, all_items = items(data)
        kept = [(item, bytes_) for item, bytes_ in all_items if wanted(item)]
        cut = package(header, kept)
        # The cut package reads back to exactly the items kept.
        assert items(cut)[1] == kept
        dat, assembly, obj = (os.path.join(output, "icu-data" + ext) for ext in (".dat", ".S", ".o"))
        with open(dat, "wb") as handle:
            handle.write(cut)
        with open(assembly, "w") as handle:
            handle.write(
                '    .section .rodata.tokens_icu_data,"a",@progbits\n    .balign 16\n    .globl tokens_icu_data\n'
                f'    .type tokens_icu_data, @object\ntokens_icu_data:\n    .incbin "{dat}"\n'
                "    .size tokens_icu_data, . - tokens_icu_data\n"
                '    .section .note.GNU-stack,"",@progbits\n')
        subprocess.run([os.environ.get("CC", "clang"), "-c", assembly, "-o", obj], check=True)
        flags = f"--defsym={name}=tokens_icu_data\n{obj}\n"
        print(f"ICU data: {len(kept)} of {len(all_items)} items, {len(cut) / 1e6:.1f} of {len(data) / 1e6:.1f} MB")
    else:
        print("ICU data: the toolchain's is kept whole (no lib_FoundationICU.a with an icudtNN_dat symbol)")
    with open(os.path.join(output, "link-flags"), "w") as handle:
        handle.write(flags)


if __name__ == "__main__":
    sys.exit(main())
