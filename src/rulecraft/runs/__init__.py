"""Running and studying many games: simulation (local or on a cluster), comparisons, scenarios,
behaviour checks of rule files, and game logs."""
