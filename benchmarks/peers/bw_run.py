#!/usr/bin/env python3
# bw_run.py -- measurement driver for libblackwood (written for edgematch; NOT upstream).
#
# Runs ONE libblackwood solve() on ONE thread (the generated C goto-chain, exactly
# as libblackwood.py's SelfTest / process_blackwood.py call it), for a fixed wall
# time, with ONE seed (no restart), and prints one machine-readable RESULT line.
#
# Must be run from the libblackwood repository root (it imports data/, scenarios/).
#
#   env SCENARIO=jb470perf | jb470stats   (scenario files added next to scenarios/jb470.py)
#       PUZZLE=E2ncud       (default puzzle of the repo: clueless E2, upside-down, centre clue)
#       SEED=<int>          (libblackwood's own seed env; else random, printed)
#       BW_SECONDS=<float>  (hard wall: the driver sets the C TTF flag after this many s; default 300)
#       BUILD_ONLY=1        (generate + compile, then exit)
#       NOLCA=1 NICE=0 QUIET=1 HOSTNAME=<fixed name for generated/ dir> recommended
import ctypes
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.getcwd())

import data  # noqa: E402
import libblackwood  # noqa: E402
import thread_hb  # noqa: E402


def score_from_url(url, w=16, h=16):
    """Matched internal edges of the (partial) board encoded in a bucas URL."""
    params = dict(kv.split("=", 1) for kv in url.split("#", 1)[1].split("&") if "=" in kv)
    pcs = params["board_pieces"]
    edg = params["board_edges"]
    filled = [int(pcs[i * 3:i * 3 + 3]) != 0 for i in range(w * h)]
    e = [[ord(edg[i * 4 + k]) - ord("a") for k in range(4)] for i in range(w * h)]
    score = 0
    for s in range(w * h):
        if not filled[s]:
            continue
        x, y = s % w, s // w
        if x < w - 1 and filled[s + 1] and e[s][1] == e[s + 1][3]:
            score += 1
        if y < h - 1 and filled[s + w] and e[s][2] == e[s + w][0]:
            score += 1
    return score, sum(filled)


def main():
    seconds = float(os.environ.get("BW_SECONDS", "300"))
    puzzle = data.loadPuzzle()
    lib = libblackwood.LibBlackwood(puzzle)          # generates + compiles if needed
    if os.environ.get("BUILD_ONLY"):
        print("BUILT", lib.getNameSO())
        return 0

    X = lib.LibExt
    cb = lib.cb
    lib.copy_new_arrays_to_cb()                       # seed -> shuffled candidate lists
    seed = X.getSeed(cb)

    # Capture what the generated C prints on stdout (the SHOW_RESULT_* blocks).
    sys.stdout.flush()
    libc = ctypes.CDLL(None)
    saved_fd = os.dup(1)
    cap = tempfile.TemporaryFile(mode="w+b")
    os.dup2(cap.fileno(), 1)

    hb = thread_hb.HeartBeat_Thread(lib, period=1)   # 1 heartbeat / s, like upstream
    hb.start()

    def stopper():
        X.setTTF(cb, 1)
        X.setCheckCommands(cb, 1)
    timer = threading.Timer(seconds, stopper)
    timer.start()

    # When each new deepest depth was first seen (libblackwood tracks those above 245):
    # sampled every quarter second, so that one long race also gives the depth at shorter
    # horizons.
    # And the nodes placed by each node mark (edgematch's marks: 1, 2, 5, 10, 20, 30, 60,
    # 120, 300, 600, 1200, 1800, 3600 s, then every hour), for the rate stretch by stretch.
    depth_at = {}
    nodes_at = []
    marks = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600]
    sampling = threading.Event()

    def sampler():
        mark = marks.pop(0)
        while not sampling.wait(0.25):
            now = time.time() - t0
            depth = X.getBestDepthSeen(cb)
            if depth > 0 and depth not in depth_at:
                depth_at[depth] = now
            if now >= mark:
                nodes_at.append((now, X.getStatsNodesCount(cb)))
                while mark <= now:
                    mark = marks.pop(0) if marks else (int(mark) // 3600 + 1) * 3600

    t0 = time.time()
    watcher = threading.Thread(target=sampler, daemon=True)
    watcher.start()
    X.solve(None, cb)
    elapsed = time.time() - t0
    sampling.set()
    watcher.join()

    timer.cancel()
    hb.stop_hb_thread = True
    libc.fflush(None)
    os.dup2(saved_fd, 1)
    cap.seek(0)
    c_out = cap.read().decode("utf-8", "replace")
    sys.stdout.write(c_out)

    nodes = X.getStatsNodesCount(cb)
    tried = X.getStatsPiecesTriedCount(cb)
    used = X.getStatsPiecesUsedCount(cb)
    hpb = X.getStatsHeuristicPatternsBreakCount(cb)
    best_tracked = X.getBestDepthSeen(cb)           # only updated for depth > 245 (non-DEBUG builds)
    if best_tracked > 0 and best_tracked not in depth_at:  # reached after the last sample
        depth_at[best_tracked] = elapsed

    # Deepest depth from the per-depth histogram (jb470stats only): first 256-int line.
    max_depth = None
    for line in c_out.splitlines():
        toks = line.split()
        if len(toks) == puzzle.board_wh and all(t.isdigit() for t in toks):
            counts = [int(t) for t in toks]
            nz = [d for d, c in enumerate(counts) if c]
            # counts[d] = times depth d was entered; entering depth d means d pieces placed
            # (the fixed centre piece is one of the 256 depths).
            max_depth = max(nz) if nz else 0
            break

    score = pieces = None
    url = ""
    # cb->board is only snapshotted for depth >= depth_first_notification (252 in JB470)
    # (depths 246..251 only update best_depth_seen), so the URL/score is only available then.
    if best_tracked >= puzzle.scenario.depth_first_notification:
        buf = ctypes.create_string_buffer(puzzle.board_wh * 32)
        X.getSolutionURL(cb, buf)
        url = buf.value.decode()
        score, pieces = score_from_url(url)

    name = puzzle.scenario.name.split("{")[0]
    nps = nodes / elapsed if elapsed else 0
    reached = ",".join(f"{d}:{t:.2f}" for d, t in sorted(depth_at.items())) or "none"
    placed = ",".join(f"{t:.2f}:{n}" for t, n in nodes_at) or "none"
    print(
        f"RESULT engine=libblackwood scenario={name} seed={seed} elapsed_s={elapsed:.3f} nodes={nodes} "
        f"nps={nps:.0f} tried={tried} tried_used={used} pattern_breaks={hpb} best_depth_tracked={best_tracked} "
        f"max_depth_hist={max_depth} best_score={score} best_pieces={pieces} depth_at={reached} "
        f"nodes_at={placed} url={url or 'none'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
