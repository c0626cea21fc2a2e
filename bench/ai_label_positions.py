#!/usr/bin/env python3
"""Labels positions for bench/ai_fit_eval with a Gomocup engine's evaluation.

    ai_label_positions.py ENGINE GAMES OUT [--ms 100] [--shard I --shards N]

GAMES is a file of games as `ttt-arena --record` writes them (one game a line,
cells like h8, X first; '#' lines are comments). Every position from the
fifth move of each game on (each position once) is given to ENGINE with
BOARD, and the evaluation the engine reports for the side to move (Rapfi's
last `MESSAGE ... Eval N` line) is written to OUT with the moves that reach
it: `N x,y x,y ...`, the Gomocup's x,y (column, row, from 0), in the order
of play. A forced win or loss the engine finds (`Eval +M12`, `Eval -M9`) is
written as 30000 or -30000. --shard I of --shards N labels every N-th
position from the I-th, for several engines at once. An engine that can't
be started, refuses START, ends, or says nothing for 10 s longer than --ms
stops the labelling with the reason. See docs/ai.md, "Fitting the evaluation
to Rapfi's".
"""
import argparse
import queue
import re
import subprocess
import sys
import threading

EVAL = re.compile(r"^MESSAGE .*\bEval ([-+]?M?\d+)\b")
# A forced win found by the engine is written as this, with the sign of
# whoever wins.
FORCED = 30000
MOVE = re.compile(r"^\d+,\d+$")


def cell(name, line_number):
    try:
        x, y = ord(name[0]) - ord("a"), int(name[1:]) - 1
    except (IndexError, ValueError):
        sys.exit(f"line {line_number}: {name!r} is no cell like h8")
    if not (0 <= x < 15 and 0 <= y < 15):
        sys.exit(f"line {line_number}: {name!r} is off the 15x15 board")
    return x, y


def positions(path):
    seen = set()
    with open(path) as games:
        for number, line in enumerate(games, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            moves = [cell(name, number) for name in line.split()]
            for plies in range(5, len(moves)):
                key = (frozenset(moves[:plies:2]), frozenset(moves[1:plies:2]))
                if key not in seen:
                    seen.add(key)
                    yield moves[:plies]


class Engine:
    def __init__(self, command, wait):
        self.command = command
        self.wait = wait  # seconds an answer may take
        try:
            self.process = subprocess.Popen(
                [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
            )
        except OSError as error:
            sys.exit(f"can't start the engine {command}: {error.strerror}")
        self.lines = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()
        self.send("START 15")
        self.read_until(lambda line: line.startswith("OK") or None, refusal_ends=True)

    def read(self):
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line):
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            sys.exit(f"the engine {self.command} ended")

    # Lines until answer(line) is not None. An ERROR ends the labelling when
    # refusal_ends (START refused); otherwise it is skipped, as the Gomocup
    # managers skip it.
    def read_until(self, answer, refusal_ends=False):
        while True:
            try:
                line = self.lines.get(timeout=self.wait)
            except queue.Empty:
                self.process.kill()
                sys.exit(f"the engine {self.command} did not answer within {self.wait} s")
            if line is None:
                sys.exit(f"the engine {self.command} ended")
            if line.startswith("ERROR") and refusal_ends:
                self.process.kill()
                sys.exit(f"the engine {self.command} refused: {line}")
            found = answer(line)
            if found is not None:
                return found

    def evaluate(self, moves, ms):
        # Rapfi drops the first line that reaches it after its move: the
        # first INFO is for that.
        self.send(f"INFO timeout_turn {ms}")
        self.send(f"INFO timeout_turn {ms}")
        self.send("BOARD")
        mover = len(moves) % 2
        for i, (x, y) in enumerate(moves):
            self.send(f"{x},{y},{1 if i % 2 == mover else 2}")
        self.send("DONE")
        value = [None]

        def answer(line):
            match = EVAL.match(line)
            if match:
                text = match.group(1)
                if "M" in text:
                    value[0] = -FORCED if text.startswith("-") else FORCED
                else:
                    value[0] = int(text)
            return line if MOVE.match(line) else None

        self.read_until(answer)
        return value[0]

    def close(self):
        self.send("END")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engine")
    parser.add_argument("games")
    parser.add_argument("out")
    parser.add_argument("--ms", type=int, default=100, help="time per position (ms)")
    parser.add_argument("--shard", type=int, default=0)
    parser.add_argument("--shards", type=int, default=1)
    args = parser.parse_args()
    if args.ms <= 0 or args.shards <= 0 or not 0 <= args.shard < args.shards:
        sys.exit("--ms and --shards must be above 0, and --shard below --shards")
    try:
        games = list(positions(args.games))
    except OSError as error:
        sys.exit(f"can't read {args.games}: {error.strerror}")
    engine = Engine(args.engine, wait=10 + args.ms / 100)
    labelled = 0
    with open(args.out, "w") as out:
        for i, moves in enumerate(games):
            if i % args.shards != args.shard:
                continue
            value = engine.evaluate(moves, args.ms)
            if value is not None:
                out.write(f"{value} " + " ".join(f"{x},{y}" for x, y in moves) + "\n")
                labelled += 1
    engine.close()
    print(f"{labelled} positions labelled", file=sys.stderr)


if __name__ == "__main__":
    main()
