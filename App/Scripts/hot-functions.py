#!/usr/bin/env python3
"""The functions a start of `tokens` runs, for the release link to put together (make order-file).

A one-shot command runs about a megabyte of code scattered over the 33 MB of the static binary's
text, and every 64 KB of it touched costs a page fault. The release build gives every function a
section of its own and lld lays out first, in this order, the functions named in
App/Release/hot-functions.order, so those few hundred pages are read together.

This runs a copy of the unstripped release binary without its debug information (valgrind cannot
read that), symbols kept, under callgrind for the commands a user and a script run most, in a
throw-away home with a REAL vault of 30 accounts, first with the passphrase, then unlocked, and
writes the functions callgrind saw, by their symbol names, in the order of the commands, each
one once. A stale list costs nothing but speed: a name the build no longer has is skipped by the
linker, and a new function is laid out among the others.

Usage: hot-functions.py --binary UNSTRIPPED --output FILE
"""
import argparse
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


def run(tokens, arguments, environment, check=True):
    return subprocess.run([tokens] + arguments, env=environment, check=check, capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the unstripped release tokens")
    parser.add_argument("--output", required=True)
    options = parser.parse_args()
    order, seen = [], set()
    with tempfile.TemporaryDirectory(prefix="tokens-order-") as home:
        tokens = os.path.join(home, "tokens")
        subprocess.run(["strip", "--strip-debug", "-o", tokens, options.binary], check=True)
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
        finally:
            run(tokens, ["lock", "--phase", "real"], environment, check=False)
    if len(order) < 500:
        sys.exit(f"hot-functions.py: only {len(order)} functions named; has {options.binary} its symbols?")
    with open(options.output, "w") as file:
        file.write("# Written by `make order-file` (App/Scripts/hot-functions.py): the functions a start of\n")
        file.write("# tokens runs, laid out first and together by the release link. Do not edit.\n")
        file.write("".join(name + "\n" for name in order))
    print(f"{options.output}: {len(order)} functions")


if __name__ == "__main__":
    main()
