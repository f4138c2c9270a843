# Added for edgematch side-by-side measurement (NOT part of upstream libblackwood).
# Identical search to scenarios/jb470.py (same patterns, break indexes, scan order,
# seed handling, adaptive filter); only switches on the PERF total counters
# (stats_total_* : nodes, pieces tried, pieces already used, pattern breaks)
# and asks the generated C to print them when the time limit is reached.
import scenario
from . import jb470

class JB470Perf( jb470.JB470 ):
	"""JB470 with PERF total counters switched on"""

	def __init__( self, puzzle, params={} ):
		self.puzzle = puzzle
		# NB: upstream jb470.py appends str(params) here, which puts quotes/spaces
		# into the generated/ folder name and makes the generated Makefile fail at
		# upstream HEAD b288f96; scenario.Scenario.__init__ already appends a
		# sanitised copy of params, so the module name alone is enough.
		self.name = type(self).__module__.split(".")[1]

		self.heuristic_patterns = [ [ 9, 12, 15 ] ]
		self.conflicts_indexes_allowed = [ 197, 203, 210, 216, 221, 225, 229, 233, 236, 238 ]
		self.heuristic_stats16 = False
		self.depth_first_notification = 252
		self.timelimit = 5 # Minutes (override with PARAMS="{'timelimit': X}")

		self.PERF = True
		self.default_commands = [
			# only SHOW_RESULT_* (printed once, when TTF / the time limit is hit);
			# SHOW_SEED / SHOW_MAX_DEPTH_SEEN would print at every 1-s heartbeat.
			"SHOW_RESULT_STATS_NODES_COUNT",
			"SHOW_RESULT_STATS_PIECES_TRIED_COUNT",
			"SHOW_RESULT_STATS_PIECES_USED_COUNT",
			"SHOW_RESULT_STATS_HEURISTIC_PATTERNS_BREAK_COUNT",
			"SHOW_RESULT_STATS_ADAPTATIVE_FILTER_COUNT",
			]

		scenario.Scenario.__init__(self, params=params)

scenario.global_list.append(JB470Perf)
