"""What a sleeping event loop's wake costs on this machine: an asyncio process's CPU per message
another process sends it, the messages one at a time against in bursts.

A bot's event loop sleeps between the things it waits for, and each one wakes it: a click's
gateway frame, its write's result from the database thread, a table picture from the picture
worker, the answer's HTTP status. Here a child process sends length-prefixed messages over a
socket pair (as ``core.quick_worker`` does) to an asyncio protocol that splits them:

- ``alone``: one message every ``--period`` ms, so the loop sleeps before each and wakes for it;
- ``bursts``: ten messages at once every ten periods, the same rate, so one wake serves ten.

The loop's work per message is the same in both; what ``alone`` pays beyond ``bursts`` is
nine wakes in ten, so ``(alone - bursts) * 10 / 9`` is the CPU of one wake, kernel included
(the process's CPU time, from ``time.process_time``). Rounds alternate between the two, and
the median and range over rounds are printed, for 64-byte and 12 KB messages (a table picture).

    .venv/bin/python -m bench.wakes            # 8 rounds of 1,000 messages a mode and size
    .venv/bin/python -m bench.wakes --quick    # seconds: checks that it runs
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import socket
import statistics
import struct
import sys
import time

HEADER = struct.Struct("!I")
BURST = 10  # messages sent at once in the ``bursts`` mode
SIZES = (64, 12_000)


def send(sock: socket.socket, messages: int, period: float, size: int, burst: int) -> None:
    """In the child: ``messages`` messages of ``size`` bytes, ``burst`` at a time, one burst
    every ``burst * period`` seconds (on a schedule, so a late one does not slow the rate)."""
    frame = HEADER.pack(size) + bytes(size)
    step = burst * period
    due = time.monotonic()
    with sock:
        for _ in range(messages // burst):
            due += step
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            sock.sendall(frame * burst)


class Counting(asyncio.Protocol):
    """Splits the stream into messages and counts them; done when the child closes."""

    def __init__(self, done: asyncio.Future[None]) -> None:
        self.done = done
        self.messages = 0
        self._buffer = bytearray()

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        while len(buffer) >= HEADER.size:
            (size,) = HEADER.unpack_from(buffer)
            end = HEADER.size + size
            if len(buffer) < end:
                return
            del buffer[:end]
            self.messages += 1

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(None)


async def measure(messages: int, period: float, size: int, burst: int) -> float:
    """This process's CPU microseconds per message received."""
    ours, theirs = socket.socketpair()
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    counting = Counting(done)
    await loop.create_unix_connection(lambda: counting, sock=ours)
    child = multiprocessing.get_context("spawn").Process(
        target=send, args=(theirs, messages, period, size, burst), daemon=True)
    child.start()
    theirs.close()
    await asyncio.sleep(0.3)  # the child's start-up is not measured: it sends after it
    began = time.process_time()
    await done
    spent = time.process_time() - began
    await asyncio.to_thread(child.join)
    if counting.messages != messages // burst * burst:
        raise RuntimeError(f"{counting.messages} messages of {messages} arrived")
    return spent / counting.messages * 1e6


async def main_async(args: argparse.Namespace) -> None:
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; load average "
          f"before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{args.messages} messages a round, one every {args.period} ms; {args.rounds} rounds "
          "alternating; CPU µs per message received, median [range]")
    for size in SIZES:
        alone: list[float] = []
        bursts: list[float] = []
        for round_ in range(args.rounds):
            order = ((alone, 1), (bursts, BURST)) if round_ % 2 == 0 else (
                (bursts, BURST), (alone, 1))
            for into, burst in order:
                into.append(await measure(args.messages, args.period / 1000, size, burst))
        wakes = [(a - b) * BURST / (BURST - 1) for a, b in zip(alone, bursts, strict=True)]
        for name, values in (("alone", alone), (f"bursts of {BURST}", bursts),
                             ("one wake", wakes)):
            print(f"  {size:>6} B  {name:<13} {statistics.median(values):7.1f} "
                  f"[{min(values):.1f}-{max(values):.1f}]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.wakes",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few hundred messages, 2 rounds")
    parser.add_argument("--messages", type=int, default=1000, help="messages a round (1000)")
    parser.add_argument("--period", type=float, default=4.0,
                        help="milliseconds between messages (4: 250 a second)")
    parser.add_argument("--rounds", type=int, default=8, help="rounds a mode and size (8)")
    args = parser.parse_args(argv)
    if args.quick:
        args.messages, args.rounds = 200, 2
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
