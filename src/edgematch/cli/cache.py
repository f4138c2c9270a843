"""``edgematch cache``: the generated kernels kept on this machine, their size, and clearing them."""

from __future__ import annotations

from ..errors import InputError
from .common import HelpFormatter, print_json

EXAMPLES = """examples:
  edgematch cache                   each generated kernel: kind, size, last use
  edgematch cache --max-size 500    delete the least recently used until 500 MB remain
  edgematch cache --clear           delete them all (each is compiled again when needed)

The folder is EDGEMATCH_CACHE_DIR/generated (default: the user's cache folder); every
search bounds it to EDGEMATCH_CACHE_MAX_MB (default 2048; 0: no bound).
"""


def register(sub) -> None:
    p = sub.add_parser(
        "cache",
        help="list, bound or clear the compiled kernels generated per puzzle, order and schedule",
        epilog=EXAMPLES,
        formatter_class=HelpFormatter,
    )
    action = p.add_mutually_exclusive_group()
    action.add_argument("--clear", action="store_true", help="delete every generated kernel")
    action.add_argument(
        "--max-size",
        type=float,
        metavar="MB",
        help="delete the least recently used kernels until at most MB megabytes remain",
    )
    p.add_argument("--json", action="store_true", help="print the listing as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..engines.backtrack import generated_cache as cache

    if args.max_size is not None and not args.max_size >= 0:
        raise InputError(f"--max-size must be 0 or more megabytes, not {args.max_size:g}")
    limit = cache.limit_bytes()
    removed: list[cache.CachedModule] = []
    if args.clear:
        removed = cache.clear()
    elif args.max_size is not None:
        removed = cache.prune(int(args.max_size * (1 << 20))) if args.max_size > 0 else cache.clear()
    present = cache.modules()
    total = sum(m.size for m in present)
    if args.json:
        print_json(
            {
                "folder": str(cache.cache_dir()),
                "limit_bytes": limit,
                "total_bytes": total,
                "removed": [m.name for m in removed],
                "modules": [
                    {
                        "name": m.name,
                        "kind": m.kind,
                        "bytes": m.size,
                        "files": len(m.files),
                        "compiled": m.compiled,
                        "last_used": m.last_used,
                    }
                    for m in present
                ],
            }
        )
        return 0
    if removed:
        print(f"deleted {len(removed)} kernels, {_mb(sum(m.size for m in removed))}")
    bound = f"bound {_mb(limit)}" if limit else "no bound"
    print(f"{cache.cache_dir()}: {len(present)} kernels, {_mb(total)} ({bound}, EDGEMATCH_CACHE_MAX_MB)")
    for m in reversed(present):  # most recently used first
        state = "compiled" if m.compiled else "not compiled"
        used = f"used {cache.age(m.last_used)} ago" if m.last_used else "source gone"
        print(f"  {m.name}  {m.kind:<6} {_mb(m.size):>9}  {state:<12}  {used}")
    return 0


def _mb(size: int) -> str:
    return f"{size / (1 << 20):.1f} MB"
