"""Analyses over fitted trees, built on the algorithms, explain and pruning: several algorithms
compared on one split (``compare``) and where their trees first differ (``disagreement``), manual
splits regrown below (``forcing``), and step-through growth (``growth_steps``)."""
