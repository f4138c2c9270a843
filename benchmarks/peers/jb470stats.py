# Added for edgematch side-by-side measurement (NOT part of upstream libblackwood).
# jb470perf (the JB470 search with its total counters on) plus the per-square stats_*
# arrays: a per-depth node histogram, whose last non-zero entry is the deepest depth
# reached.  Slower than jb470perf (extra increments per node): use it for depth, not speed.
import scenario
from . import jb470perf

class JB470Stats( jb470perf.JB470Perf ):
	"""JB470 with PERF totals AND per-square STATS arrays"""

	STATS = True

scenario.global_list.append(JB470Stats)
