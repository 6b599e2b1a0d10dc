#!/usr/bin/env python3
"""The functions and data a start of `tokens` touches, for the release link to put together (make order-file).

A one-shot command runs about a megabyte of code scattered over the 33 MB of the static binary's
text, and every 64 KB of it touched costs a page fault. The release build gives every function a
section of its own and lld lays out first, in this order, the functions named in
App/Release/hot-symbols.order, so those few hundred pages are read together.

The same goes for the writable data: every page of .data or .bss a start writes is a fresh page
of memory (a copy of the file's page, or a zeroed one), and the variables a start writes (the
runtime's caches of type metadata, lazy globals' tokens, the C libraries' state) were spread over
about 135 pages. lld moves the data section of each object file that holds a listed variable to
the front of its output section, the written ones first, so those variables share fewer pages.

This runs a copy of the unstripped release binary without its debug information (valgrind cannot
read that), symbols kept, for the commands a user and a script run most, in a throw-away home
with a REAL vault of 30 accounts, first with the passphrase, then unlocked: under callgrind, for
the functions it saw, and (unlocked) under lackey (`--trace-mem`), for the data symbols whose
bytes were read or written. It writes the functions by their symbol names, in the order of the commands,
then the data symbols written, then those only read, each name once. A stale list costs nothing
but speed: a name the build no longer has is skipped by the linker, and a new function or
variable is laid out among the others.

Usage: hot-symbols.py --binary UNSTRIPPED --output FILE
"""
import argparse
import bisect
import os
import re
import subprocess
import sys
import tempfile

ACCOUNTS = 30
SECRET = "JBSWY3DPEHPK3PXP"
# Run with the passphrase, then, after `tokens unlock`, without it.
WITH_PASSPHRASE = [["code", "bench9", "--phase", "real"]]
UNLOCKED = [
    ["code", "bench9", "--phase", "real"],
    ["code", "Bench1 (me)", "--phase", "real"],
    ["code", "nothing", "--phase", "real"],
    ["list", "--phase", "real"],
    ["code", "github", "--phase", "dev"],
    ["list", "--phase", "dev"],
    ["--version"],
]
# The C library picks a string function's variant by the processor (an ifunc), and valgrind's
# processor lacks AVX-512: each variant seen stands for its siblings too.
VARIANT = re.compile(r"^(__\w+?)_(sse2|sse41|sse42|ssse3|avx2|avx512|avx|evex512|evex)(_\w+)?$")
SIBLINGS = ("sse2", "avx2", "avx", "avx512", "evex", "evex512")

# A function's first mention in callgrind's output: "fn=(12) name" (later ones are "fn=(12)").
NAMED = re.compile(r"c?fn=\(\d+\) (\S+)")


def functions(profile):
    """The functions callgrind names, in the order it writes them."""
    with open(profile) as lines:
        return [match.group(1) for match in map(NAMED.match, lines) if match and not match.group(1).startswith("0x")]


# The writable sections whose variables are laid out (the others: code, constants, TLS, tables).
DATA_SECTIONS = (".data", ".bss")
# A section in `readelf -SW`: "[Nr] Name Type Address Off Size ...".
SECTION = re.compile(r"\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)")


def data_symbols(binary):
    """The ranges of the data sections and the data symbols in them, by address."""
    sections = []
    for line in subprocess.run(["readelf", "-SW", binary], check=True, capture_output=True, text=True).stdout.splitlines():
        match = SECTION.search(line)
        if match and match.group(1) in DATA_SECTIONS:
            start = int(match.group(2), 16)
            sections.append((start, start + int(match.group(3), 16)))
    symbols = []
    for line in subprocess.run(["nm", "-n", "--defined-only", binary], check=True, capture_output=True, text=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "bBdD":
            address = int(fields[0], 16)
            if any(start <= address < end for start, end in sections):
                symbols.append((address, fields[2]))
    return sections, symbols


def touched_data(trace, sections, symbols):
    """The data symbols whose bytes lackey's trace reads or writes: (written, only read), each in
    the order first touched. A trace line is " L 0402a1c8,8" (load), " S ..." (store) or " M ..."
    (modify)."""
    addresses = [address for address, _ in symbols]
    first, written = {}, set()
    with open(trace) as lines:
        for line in lines:
            if len(line) < 4 or line[0] != " " or line[1] not in "LSM":
                continue
            address = int(line[3:].split(",", 1)[0], 16)
            if not any(start <= address < end for start, end in sections):
                continue
            index = bisect.bisect_right(addresses, address) - 1
            if index < 0:
                continue
            name = symbols[index][1]
            first.setdefault(name, len(first))
            if line[1] != "L":
                written.add(name)
    ordered = sorted(first, key=first.get)
    return [name for name in ordered if name in written], [name for name in ordered if name not in written]


def run(tokens, arguments, environment, check=True):
    return subprocess.run([tokens] + arguments, env=environment, check=check, capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the unstripped release tokens")
    parser.add_argument("--output", required=True)
    options = parser.parse_args()
    order, seen = [], set()
    written, read = [], []
    with tempfile.TemporaryDirectory(prefix="tokens-order-") as home:
        tokens = os.path.join(home, "tokens")
        subprocess.run(["strip", "--strip-debug", "-o", tokens, options.binary], check=True)
        sections, symbols = data_symbols(tokens)
        environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home,
            "XDG_DATA_HOME": os.path.join(home, "data"),
            "XDG_CONFIG_HOME": os.path.join(home, "config"),
            "TOKENS_PASSPHRASE": "order",
        }
        accounts = os.path.join(home, "accounts.txt")
        with open(accounts, "w") as file:
            file.write("".join(f"otpauth://totp/Bench{n}:me?secret={SECRET}\n" for n in range(ACCOUNTS)))
        run(tokens, ["init", "--phase", "real"], environment)
        run(tokens, ["import", accounts, "--duplicates", "keep", "--phase", "real"], environment)
        unlocked = dict(environment)
        del unlocked["TOKENS_PASSPHRASE"]
        runs = [(arguments, environment) for arguments in WITH_PASSPHRASE] + [(arguments, unlocked) for arguments in UNLOCKED]
        try:
            for number, (arguments, env) in enumerate(runs):
                if number == len(WITH_PASSPHRASE):
                    run(tokens, ["unlock", "--for", "5m", "--phase", "real"], environment)
                profile = os.path.join(home, f"callgrind.{number}")
                command = ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}", tokens] + arguments
                # A command may fail as it should (`code nothing`: no account matches, status 2).
                subprocess.run(command, env=env, check=False, capture_output=True)
                for name in functions(profile):
                    variant = VARIANT.match(name)
                    kin = [f"{variant.group(1)}_{sibling}{variant.group(3) or ''}" for sibling in SIBLINGS] if variant else []
                    for each in [name] + kin:
                        if each not in seen:
                            seen.add(each)
                            order.append(each)
                if number < len(WITH_PASSPHRASE):
                    continue  # lackey's trace of the key derivation alone is gigabytes; the rest is as unlocked
                trace = os.path.join(home, f"lackey.{number}")
                command = ["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-file={trace}", tokens] + arguments
                subprocess.run(command, env=env, check=False, capture_output=True)
                stores, loads = touched_data(trace, sections, symbols)
                os.remove(trace)
                written += [name for name in stores if name not in written]
                read += [name for name in loads if name not in read]
        finally:
            run(tokens, ["lock", "--phase", "real"], environment, check=False)
    if len(order) < 500 or len(written) < 100:
        sys.exit(f"hot-symbols.py: only {len(order)} functions and {len(written)} variables named; has {options.binary} its symbols?")
    # A variable written by one command and only read by another is a written one.
    writes = set(written)
    read = [name for name in read if name not in writes]
    with open(options.output, "w") as file:
        file.write("# Written by `make order-file` (App/Scripts/hot-symbols.py): the functions a start of\n")
        file.write("# tokens runs, then the variables it writes, then those it only reads, laid out first and\n")
        file.write("# together by the release link. Do not edit.\n")
        file.write("".join(name + "\n" for name in order + written + read))
    print(f"{options.output}: {len(order)} functions, {len(written)} variables written, {len(read)} only read")


if __name__ == "__main__":
    main()
