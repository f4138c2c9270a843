"""Published results of Benoist & Bourreau (2008), transcribed by hand.

Source: T. Benoist, E. Bourreau, "La programmation par contraintes à l'attaque
d'Eternity II", JFPC 2008 (HAL inria-00291105), Tableau 1 "Résultats" and Tableau 3
"Apports des heuristiques"; the English version (Constraint Programming Letters 3, 2008)
gives the same experiment without the per-instance table.  Per footnote 8 of the French
paper the four corners of every instance were fixed.  Times are seconds on their 3 GHz
PC (Java for ColorPairs, C for doc_smith's backtracker, Choco for CP), nodes are millions;
``None`` stands for "N/A" (not finished within one hour).  The rows are in the paper's
order (increasing best time).
"""

# instance, doc_smith (s, Mnodes), ColorPairs, ColorPairs without backjumping,
# ColorPairs without preemptions, CP_choco
TABLE1 = [
    ("E_10_5", 0, 2.60, 3, 0.69, 4, 1.02, 2, 0.83, 152, 0.001),
    ("E_10_7", 0, 0.37, 3, 0.71, 3, 0.88, 3, 0.99, 50, 0.0004),
    ("E_9_3", 0, 14.82, 7, 1.57, 8, 2.36, 7, 2.10, 206, 0.004),
    ("E_10_8", 0, 15.44, 17, 4.24, 24, 7.10, 15, 5.22, 530, 0.005),
    ("E_10_16", 17, 467.97, 2, 0.42, 3, 0.70, 1, 0.53, 222, 0.002),
    ("E_9_4", 1, 54.04, 3, 0.55, 3, 0.66, 2, 0.61, 21, 0.0004),
    ("E_10_11", 1, 31.89, 8, 1.92, 14, 3.70, 8, 2.88, 462, 0.005),
    ("E_10_9", 1, 39.73, 18, 4.35, 35, 9.97, 13, 4.75, 528, 0.005),
    ("E_10_17", 22, 596.36, 3, 0.77, 4, 1.16, 2, 0.75, 123, 0.001),
    ("E_9_13", 177, 5441.01, 3, 0.57, 3, 0.75, 2, 0.63, 262, 0.006),
    ("E_10_12", 2, 53.89, 11, 2.57, 14, 3.97, 8, 2.75, 480, 0.0045),
    ("E_10_22", 98, 2924.86, 4, 0.82, 4, 1.10, 3, 0.94, 275, 0.003),
    ("E_9_11", 48, 1444.37, 4, 1.02, 6, 1.47, 4, 1.23, 408, 0.008),
    ("E_10_18", 31, 556.06, 5, 1.22, 8, 2.44, 5, 1.64, 190, 0.002),
    ("E_9_12", 148, 4464.16, 6, 1.50, 8, 1.93, 5, 1.68, 585, 0.013),
    ("E_7_1", 34, 908.35, 7, 1.73, 7, 1.89, 6, 1.77, 382, 0.037),
    ("E_7_2", 565, 14367.24, 11, 2.50, 10, 2.86, 8, 2.57, 283, 0.028),
    ("E_9_5", 8, 262.37, 19, 4.65, 24, 6.53, 19, 6.20, 399, 0.008),
    ("E_10_14", 12, 371.16, 11, 2.56, 16, 4.55, 9, 3.18, 1357, 0.016),
    ("E_9_7", 16, 489.14, 11, 2.59, 14, 3.82, 10, 3.31, 472, 0.008),
    ("E_10_25", 1141, 32599.16, 12, 2.98, 18, 4.81, 12, 4.17, 1667, 0.019),
    ("E_9_10", None, None, 12, 2.86, 20, 5.31, 13, 4.06, 1029, 0.009),
    ("E_10_21", 43, 1271.18, 18, 4.36, 38, 10.53, 19, 6.71, 643, 0.007),
    ("E_8_1", 1997, 56161.34, 23, 5.76, 31, 8.67, 19, 5.93, 1446, 0.070),
    ("E_10_19", 39, 1166.51, 79, 19.37, 118, 33.26, 67, 23.94, 1135, 0.013),
    ("E_10_20", 42, 979.04, 86, 21.82, 164, 46.54, 87, 31.11, 1381, 0.014),
    ("E_10_15", None, None, 77, 18.62, 132, 37.04, 81, 28.09, 7687, 0.097),
    ("E_10_13", None, None, 124, 29.39, 324, 90.59, 125, 43.20, 5756, 0.062),
    ("E_9_14", 432, 13067.46, 149, 36.21, 208, 57.08, 133, 44.20, 22013, 0.223),
    ("E_10_23", 185, 5390.09, 169, 40.84, 379, 105.61, 144, 50.44, 2211, 0.025),
    ("E_10_10", None, None, 170, 42.60, 454, 129.49, 160, 55.44, 8420, 0.100),
    ("E_9_6", None, None, 252, 65.04, 290, 84.64, 206, 66.79, 24114, 0.299),
    ("E_9_2", None, None, 240, 58.26, 298, 82.73, 216, 67.36, 24927, 0.635),
    ("E_9_16", 1517, 45278.80, 249, 59.93, 432, 114.77, 218, 70.53, 16700, 0.163),
    ("E_7_3", 647, 16886.24, 244, 56.04, 263, 69.43, 230, 69.03, 11450, 1.048),
    ("E_9_15", 992, 30083.49, 359, 86.35, 430, 116.43, 381, 125.16, 26242, 0.306),
    ("E_10_6", None, None, 471, 115.54, 838, 232.60, 365, 126.71, None, None),
    ("E_10_4", None, None, 468, 120.51, 726, 216.90, 416, 143.35, None, None),  # choco nodes "> 0,729"
    ("E_9_9", None, None, 1565, 394.45, 2135, 598.46, 1226, 400.86, None, None),
    ("E_9_1", None, None, 2006, 495.26, 2466, 691.14, 1704, 547.70, None, None),
    ("E_9_8", None, None, 2378, 583.97, 2973, 803.49, 2045, 656.54, None, None),
    ("E_10_26", 3030, 85381.84, 2634, 638.35, 3601, 1010.00, 2171, 763.53, None, None),
    ("E_10_1", None, None, 2239, 566.69, 3601, 1065.00, 2575, 802.87, None, None),
    ("E_10_3", None, None, 3217, 797.72, 3601, 1066.00, 3323, 1128.31, None, None),
    ("E_10_2", None, None, 3275, 836.33, 3603, 1015.00, 3271, 1055.83, None, None),
]
TABLE1_COLUMNS = ("doc_smith", "colorpair", "colorpair_no_backjumping", "colorpair_no_preemption", "choco")
TABLE1_NOTES = {"E_10_4": "Choco nodes given as '> 0.729' million"}

# Tableau 3: gains in time and nodes against MinOffer, by the time the best algorithm of
# Table 1 takes on the instance.
TABLE3_BUCKETS = ("< 1 s", "1 s to 10 s", "11 s to 3 min", "3 min to 60 min")
TABLE3 = {
    "min-expected-offer": {"time": (25, 18, 15, 7), "nodes": (25, 24, 24, 18)},
    "min-expected-gap": {"time": (29, 19, 45, 29), "nodes": (28, 33, 52, 39)},
    "min-expected-ratio": {"time": (14, 18, 39, 23), "nodes": (24, 27, 47, 34)},
}
# English version (CPL 2008), Table "Impact of variable selection heuristics (sum over
# all instances)", gains against MinOffer in percent; MaxExpectedFiltering "turned out to
# be worse than MinOffer".
TABLE3_TOTAL = {
    "min-expected-offer": {"time": 16.25, "nodes": 22.75},
    "min-expected-gap": {"time": 30.50, "nodes": 38.00},
    "min-expected-ratio": {"time": 23.50, "nodes": 33.00},
}
# Section 6.2 / conclusions: without backjumping +51 % nodes (+30 % time); without
# preemptions +24 % nodes (no clear time effect); shaving: -78 % nodes, -66 % time on
# average, total time divided by 5 or 6 (Figure 7); rules on remaining tiles: about 2 %.
SUMMARY = {
    "no_backjumping_nodes_pct": 51, "no_backjumping_time_pct": 30, "no_preemption_nodes_pct": 24,
    "shaving_node_gain_pct": 78, "shaving_time_gain_pct": 66, "remaining_tile_rules_gain_pct": 2,
}


def paper_best_time(row) -> float:
    """The best time of any algorithm in Table 1 (the paper's sort key and buckets)."""
    times = [row[1], row[3], row[5], row[7], row[9]]
    return min(t for t in times if t is not None)


def bucket(seconds: float) -> int:
    """Index in TABLE3_BUCKETS of a best time (the paper rounds to whole seconds)."""
    if seconds < 1:
        return 0
    if seconds <= 10:
        return 1
    if seconds <= 180:
        return 2
    return 3
