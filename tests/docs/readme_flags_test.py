#!/usr/bin/env python3
"""README's flag tables against each program's --help.

Every flag a program's --help lists has a row in that program's table in
README.md ("### ttt-X flags"), and every flag a table names is one its
program takes: a flag added, renamed or removed without the README fails
here, naming it. --help and --version are left out (every program has
them, and README says so once).

Usage: readme_flags_test.py README BIN_DIR
"""
import re
import subprocess
import sys

PROGRAMS = ["ttt-server", "ttt-client", "ttt-bot", "ttt-engine", "ttt-arena"]
FLAG = re.compile(r"(?<![\w-])--[a-z0-9][a-z0-9-]*")


def table_flags(readme, program):
    """The flags named in the first column of the program's table."""
    section = re.search(r"^### %s flags\n(.*?)(?=^#{1,3} )" % re.escape(program), readme,
                        re.M | re.S)
    if not section:
        raise SystemExit(f"README has no section '### {program} flags'")
    flags = set()
    for line in section.group(1).splitlines():
        cells = line.split(" | ")
        if not line.startswith("| ") or line.startswith("| ---") or cells[0] == "| flag":
            continue
        flags |= set(FLAG.findall(cells[0]))
    if not flags:
        raise SystemExit(f"README's '### {program} flags' has no table of flags")
    return flags


def help_flags(bin_dir, program):
    """The flags --help lists: each entry's line starts with its flag names."""
    run = subprocess.run([f"{bin_dir}/{program}", "--help"], capture_output=True, text=True,
                         timeout=30)
    if run.returncode != 0:
        raise SystemExit(f"{program} --help exited with {run.returncode}: {run.stderr}")
    flags = set()
    for line in run.stdout.splitlines():
        entry = re.match(r"^\s{2,}((?:-\w, )?--[a-z0-9][a-z0-9-]*)", line)
        if entry:
            flags |= set(FLAG.findall(entry.group(1)))
    if len(flags) < 3:
        raise SystemExit(f"{program} --help lists almost no flags:\n{run.stdout}")
    return flags - {"--help", "--version"}


def main():
    readme_path, bin_dir = sys.argv[1], sys.argv[2]
    readme = open(readme_path, encoding="utf-8").read()
    failures = []
    for program in PROGRAMS:
        documented = table_flags(readme, program)
        taken = help_flags(bin_dir, program)
        missing = [f"{program}: {flag} is in --help but not in README's table"
                   for flag in sorted(taken - documented)]
        unknown = [f"{program}: README's table has {flag}, which --help does not list"
                   for flag in sorted(documented - taken)]
        failures += missing + unknown
        if not missing and not unknown:
            print(f"{program}: its {len(taken)} flags and README's table agree")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
